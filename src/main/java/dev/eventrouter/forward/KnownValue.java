package dev.eventrouter.forward;

import dev.eventrouter.store.ClaimedDelivery;
import io.vertx.core.json.JsonObject;

import java.util.List;
import java.util.function.Function;

/**
 * A value a network takes as it is, never hashed: the browser's IP and user agent, the click ids of the session.
 * Each network's list of these names them on its wire; an unknown value is left out, never sent empty.
 */
public record KnownValue(String wireName, Function<ClaimedDelivery, String> value) {

  public static void putAll(List<KnownValue> values, ClaimedDelivery job, JsonObject json) {
    for (KnownValue known : values) {
      String value = known.value().apply(job);
      if (value != null) {
        json.put(known.wireName(), value);
      }
    }
  }
}
