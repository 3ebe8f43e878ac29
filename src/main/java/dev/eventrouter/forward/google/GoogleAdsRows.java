package dev.eventrouter.forward.google;

import dev.eventrouter.config.GoogleAdsConfig;
import dev.eventrouter.event.ClickIds;
import dev.eventrouter.event.EventIds;
import dev.eventrouter.forward.Normalize;
import dev.eventrouter.forward.UserField;
import dev.eventrouter.store.ClaimedDelivery;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;

import static dev.eventrouter.forward.UserField.Form.HASHED;

/**
 * The rows of Google Ads requests: a click conversion
 * (https://developers.google.com/google-ads/api/reference/rpc/latest/ClickConversion) or a conversion adjustment
 * (https://developers.google.com/google-ads/api/reference/rpc/latest/ConversionAdjustment).
 */
final class GoogleAdsRows {

  /** Google's time of a conversion: {@code yyyy-mm-dd hh:mm:ss+00:00}. */
  static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ssxxx")
      .withZone(ZoneOffset.UTC);

  private GoogleAdsRows() {}

  /** The request row of a delivery: an upload, or an adjustment of one. */
  static JsonObject row(GoogleAdsConfig google, ClaimedDelivery job) {
    String type = adjustment(job);
    if (type != null) {
      JsonObject adjustment = new JsonObject()
          .put("conversionAction", google.actionResource(action(job)))
          .put("adjustmentType", type)
          .put("adjustmentDateTime", TIME.format(Instant.now()))
          .put("orderId", EventIds.format(job.eventId()));
      if (type.equals(RESTATEMENT) && job.value() != null) {
        adjustment.put("restatementValue", new JsonObject().put("adjustedValue", job.value())
            .put("currencyCode", job.currency()));
      }
      return adjustment;
    }
    ClickIds.Google click = job.click().ids().google();
    JsonObject conversion = new JsonObject()
        .put(click.field(), click.value())
        .put("conversionAction", google.actionResource(action(job)))
        .put("conversionDateTime", TIME.format(job.receivedAt()))
        .put("orderId", EventIds.format(job.eventId()));
    if (job.value() != null) {
      conversion.put("conversionValue", job.value()).put("currencyCode", job.currency());
    }
    // The event's consent: Limited Data Use asked means no consent to use the user's data for ads, and none is sent.
    if (!Boolean.TRUE.equals(job.limitedDataUse())) {
      JsonArray identifiers = new JsonArray();
      for (UserField field : FIELDS) {
        String value = field.value(job);
        if (value != null) {
          identifiers.add(new JsonObject().put(field.wireName(), value));
        }
      }
      if (!identifiers.isEmpty()) {
        conversion.put("userIdentifiers", identifiers);
      }
    }
    if (job.limitedDataUse() != null) {
      conversion.put("consent", new JsonObject().put("adUserData", job.limitedDataUse() ? "DENIED" : "GRANTED"));
    }
    return conversion;
  }

  static final String RETRACTION = "RETRACTION";
  static final String RESTATEMENT = "RESTATEMENT";

  /**
   * The adjustment a delivery carries, or null for an upload: a correction's mapped name is the action's id with
   * {@code :RETRACTION} or {@code :RESTATEMENT} (as the conversion's change made it).
   */
  static String adjustment(ClaimedDelivery job) {
    int colon = job.mappedEvent().indexOf(':');
    return colon < 0 ? null : job.mappedEvent().substring(colon + 1);
  }

  private static String action(ClaimedDelivery job) {
    int colon = job.mappedEvent().indexOf(':');
    return colon < 0 ? job.mappedEvent() : job.mappedEvent().substring(0, colon);
  }

  /**
   * Google's user identifiers, hashed as it asks: the email lower-cased (gmail's dots dropped), the phone in E.164
   * (https://developers.google.com/google-ads/api/docs/conversions/enhanced-conversions/web#normalize_and_hash).
   */
  static final List<UserField> FIELDS = List.of(
      new UserField("email", "hashedEmail", Normalize::googleEmail, HASHED),
      new UserField("phone", "hashedPhoneNumber", Normalize::tiktokPhone, HASHED));
}
