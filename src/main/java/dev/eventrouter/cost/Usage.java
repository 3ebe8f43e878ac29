package dev.eventrouter.cost;

import io.vertx.core.MultiMap;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.concurrent.TimeUnit;

/**
 * How much of its rate-limit budget a source has used, from Meta's usage headers
 * (https://developers.facebook.com/docs/marketing-api/overview/rate-limiting,
 * https://developers.facebook.com/docs/graph-api/overview/rate-limiting): the highest percent any of them reports,
 * and the minutes Meta says access takes to come back.
 *
 * @param percent     0 to 100 (and above, once limited)
 * @param regainMs    {@code estimated_time_to_regain_access}, 0 when none is given
 */
record Usage(double percent, long regainMs) {

  static final Usage NONE = new Usage(0, 0);
  /** From this percent on, a poll paces its pages so as not to reach the limit. */
  static final double PACE_FROM = 75;

  static Usage of(MultiMap headers) {
    double percent = 0;
    long regainMinutes = 0;
    JsonObject buc = json(headers.get("X-Business-Use-Case-Usage"));
    for (String id : buc.fieldNames()) {
      if (buc.getValue(id) instanceof JsonArray entries) {
        for (Object entry : entries) {
          if (entry instanceof JsonObject use) {
            percent = max(percent, use, "call_count", "total_cputime", "total_time");
            regainMinutes = Math.max(regainMinutes, number(use, "estimated_time_to_regain_access"));
          }
        }
      }
    }
    percent = max(percent, json(headers.get("X-FB-Ads-Insights-Throttle")), "app_id_util_pct", "acc_id_util_pct");
    percent = max(percent, json(headers.get("X-Ad-Account-Usage")), "acc_id_util_pct");
    percent = max(percent, json(headers.get("X-App-Usage")), "call_count", "total_cputime", "total_time");
    return new Usage(percent, TimeUnit.MINUTES.toMillis(regainMinutes));
  }

  /**
   * The pause before the next page, in units of {@code unitMs} (a second in service): none below
   * {@link #PACE_FROM}%, then 15, 60 and 300 units as the usage reaches 90% and 95%; at least the regain time Meta
   * gives.
   */
  long pauseMs(long unitMs) {
    long units = percent < PACE_FROM ? 0 : percent < 90 ? 15 : percent < 95 ? 60 : 300;
    return Math.max(units * unitMs, regainMs);
  }

  private static double max(double percent, JsonObject json, String... keys) {
    for (String key : keys) {
      percent = Math.max(percent, number(json, key));
    }
    return percent;
  }

  private static long number(JsonObject json, String key) {
    return json.getValue(key) instanceof Number n && Double.isFinite(n.doubleValue()) ? (long) Math.ceil(
        n.doubleValue()) : 0;
  }

  private static JsonObject json(String header) {
    if (header == null || header.isBlank()) {
      return new JsonObject();
    }
    try {
      return new JsonObject(header);
    } catch (DecodeException | ClassCastException e) {
      return new JsonObject(); // a header of another shape says nothing
    }
  }
}
