package dev.eventrouter.event;

import io.vertx.core.json.JsonObject;

import java.util.Arrays;
import java.util.List;

/**
 * The click ids of the networks that came after Meta and TikTok (whose ids are {@link ClickSession}'s own fields):
 * Google's gclid, gbraid and wbraid, Snapchat's ScCid and its pixel's {@code _scid} cookie. Any may be null.
 *
 * @param gclid  Google's click id on the web (auto-tagging)
 * @param gbraid Google's click id for iOS app campaigns' web clicks
 * @param wbraid Google's click id for iOS web-to-app clicks
 * @param sccid  Snapchat's click id, the landing URL's {@code ScCid}
 * @param scid   Snapchat pixel's first-party cookie, {@code _scid}
 */
public record ClickIds(String gclid, String gbraid, String wbraid, String sccid, String scid) {

  public static final ClickIds NONE = new ClickIds(null, null, null, null, null);

  /** Their names, as the API, the database and the debugger name them. */
  public static final List<String> NAMES = List.of("gclid", "gbraid", "wbraid", "sccid", "scid");

  /**
   * The one Google click id a conversion is uploaded with, and its field: Google takes exactly one per conversion
   * (https://developers.google.com/google-ads/api/docs/conversions/upload-clicks), and gclid when the click has one;
   * null when the click has none.
   */
  public Google google() {
    if (gclid != null) {
      return new Google("gclid", gclid);
    }
    if (gbraid != null) {
      return new Google("gbraid", gbraid);
    }
    return wbraid == null ? null : new Google("wbraid", wbraid);
  }

  /** A Google click id and the field it is uploaded in: gclid, gbraid or wbraid. */
  public record Google(String field, String value) {}

  /** Each id in the order of {@link #NAMES}. */
  public List<String> values() {
    return Arrays.asList(gclid, gbraid, wbraid, sccid, scid);
  }

  /** Each id under its name, nulls included. */
  public JsonObject putInto(JsonObject json) {
    List<String> values = values();
    for (int i = 0; i < NAMES.size(); i++) {
      json.put(NAMES.get(i), values.get(i));
    }
    return json;
  }

  public static ClickIds fromJson(JsonObject json) {
    return new ClickIds(json.getString("gclid"), json.getString("gbraid"), json.getString("wbraid"),
        json.getString("sccid"), json.getString("scid"));
  }

  /** These ids, each filled from {@code other} where null here. */
  public ClickIds orElse(ClickIds other) {
    return new ClickIds(gclid != null ? gclid : other.gclid, gbraid != null ? gbraid : other.gbraid,
        wbraid != null ? wbraid : other.wbraid, sccid != null ? sccid : other.sccid,
        scid != null ? scid : other.scid);
  }
}
