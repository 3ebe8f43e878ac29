package dev.eventrouter.forward.tiktok;

import dev.eventrouter.forward.NetworkApi;
import dev.eventrouter.forward.Outcome;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;

import java.util.List;
import java.util.Set;

/**
 * TikTok Events API return codes, as data, as its public integrations read them (RudderStack's tiktok_ads
 * network handler, https://github.com/rudderlabs/rudder-transformer/tree/develop/src/v0/destinations/tiktok_ads).
 * TikTok answers HTTP 200 on failure, so the body's code decides, not the HTTP status.
 */
public final class TikTokCodes {

  static final int PARTIAL_SUCCESS = 20001;

  /** 0 OK; 20001 partial success, which {@link #shortfall} then marks unconfirmed. */
  static final Set<Integer> DELIVERED = Set.of(0, PARTIAL_SUCCESS);
  /** Rate limits: requests too frequent, app, field-value and advertiser QPS limits. 5xxxx are system errors. */
  static final Set<Integer> RETRY = Set.of(40100, 40016, 40132, 40133);
  /** No permission on the pixel, invalid token, other token errors. */
  static final Set<Integer> UNAUTHORIZED = Set.of(40001, 40105, 40102, 40104);
  /** Invalid parameters: one bad event fails the whole batch. */
  static final int INVALID_PARAMETERS = 40002;

  /** The fields of every answer, success or not. */
  static final List<String> ANSWER_FIELDS = List.of("code", "message", "request_id");

  private TikTokCodes() {}

  /** TikTok's answer (its code, message and request id); null for a body without a numeric code. */
  public static JsonObject answer(Buffer body) {
    JsonObject json = jsonOf(body);
    return json != null && json.getValue("code") instanceof Number ? NetworkApi.fields(json, ANSWER_FIELDS) : null;
  }

  /**
   * 20001, partial success: TikTok took some of the request's events and not others. The reference
   * implementations count it as delivered; we do not, as the answer does not say which were taken (the safe
   * reading): the request's deliveries are marked unconfirmed, with TikTok's message.
   */
  public static Outcome.Unconfirmed shortfall(Buffer body) {
    JsonObject json = jsonOf(body);
    if (json != null && json.getValue("code") instanceof Number code && code.intValue() == PARTIAL_SUCCESS) {
      return new Outcome.Unconfirmed("tiktok code " + PARTIAL_SUCCESS + " (partial success): "
          + json.getString("message", ""));
    }
    return null;
  }

  public static Outcome classify(int status, Buffer body, long retryAfterMs) {
    JsonObject json = jsonOf(body);
    if (json == null || !(json.getValue("code") instanceof Number)) {
      // No verdict from TikTok: an outage or a proxy.
      return status >= 200 && status < 300 || status >= 500 || status == 429
          ? new Outcome.Retry("tiktok HTTP " + status + " without a code", retryAfterMs)
          : new Outcome.Failed("tiktok HTTP " + status + " without a code");
    }
    int code = json.getInteger("code");
    String message = "tiktok code " + code + ": " + json.getString("message", "");
    if (DELIVERED.contains(code)) {
      return new Outcome.Delivered();
    }
    if (RETRY.contains(code) || (code >= 50_000 && code <= 59_999) || status >= 500) {
      return new Outcome.Retry(message, retryAfterMs);
    }
    if (UNAUTHORIZED.contains(code)) {
      return new Outcome.Unauthorized(message);
    }
    if (code == INVALID_PARAMETERS) {
      return new Outcome.InvalidData(message);
    }
    // Unknown codes are not retried forever; the delivery can be re-queued with /redeliver.
    return new Outcome.Failed(message);
  }

  /** The body as a JSON object, or null when there is none or it is not one (parsing null or nothing fails too). */
  private static JsonObject jsonOf(Buffer body) {
    try {
      return new JsonObject(body);
    } catch (RuntimeException notJson) {
      return null;
    }
  }
}
