package dev.eventrouter.support;

import io.vertx.core.MultiMap;

/** Query strings for the filter readers' tests. */
public final class QueryStrings {

  private QueryStrings() {}

  /** The parameters as name, value, name, value... */
  public static MultiMap query(String... pairs) {
    MultiMap query = MultiMap.caseInsensitiveMultiMap();
    for (int i = 0; i < pairs.length; i += 2) {
      query.add(pairs[i], pairs[i + 1]);
    }
    return query;
  }
}
