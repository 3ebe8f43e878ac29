package dev.eventrouter.forward.tiktok;

import dev.eventrouter.config.IntegrationConfig;
import dev.eventrouter.config.Network;
import dev.eventrouter.event.EventIds;
import dev.eventrouter.forward.KnownValue;
import dev.eventrouter.forward.NetworkApi;
import dev.eventrouter.forward.Normalize;
import dev.eventrouter.forward.Outbound;
import dev.eventrouter.forward.Outcome;
import dev.eventrouter.forward.UserDataMapping;
import dev.eventrouter.forward.UserField;
import dev.eventrouter.store.ClaimedDelivery;
import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;

import java.util.List;

import static dev.eventrouter.forward.UserField.Form.HASHED;
import static dev.eventrouter.forward.UserField.Form.PLAIN;

/**
 * TikTok Events API 2.0: {@code POST {api_base}/open_api/v1.3/event/track/} with header {@code Access-Token} and a
 * JSON body {@code {"event_source", "event_source_id", "test_event_code"?, "data": [...]}} (Events API 2.0, as
 * RudderStack sends it: https://github.com/rudderlabs/rudder-transformer/tree/develop/src/v0/destinations/tiktok_ads).
 */
public final class TikTokApi implements NetworkApi {

  static final String PATH = "/open_api/v1.3/event/track/";

  @Override
  public Network network() {
    return Network.TIKTOK;
  }

  @Override
  public UserDataMapping userData() {
    return USER_DATA;
  }

  @Override
  public String userField() {
    return "user";
  }

  @Override
  public JsonObject envelope(IntegrationConfig integration) {
    return new JsonObject().put("event_source", integration.source()).put("event_source_id", integration.pixel());
  }

  @Override
  public JsonObject event(IntegrationConfig integration, ClaimedDelivery job) {
    JsonObject event = new JsonObject()
        .put("event", job.mappedEvent())
        .put("event_time", job.receivedAt().getEpochSecond())
        .put("event_id", EventIds.format(job.eventId()))
        .put("user", USER_DATA.user(job));
    if (job.value() != null) {
      event.put("properties", new JsonObject().put("value", job.value()).put("currency", job.currency()));
    }
    // The landing page when the session has one; otherwise the configured fallback (see ConfigParser), which every
    // web integration has.
    String pageUrl = job.click().landingUrl() != null ? job.click().landingUrl() : integration.pageUrl();
    if (pageUrl != null) {
      event.put("page", new JsonObject().put("url", pageUrl));
    }
    // Limited Data Use: the event's own choice, else the integration's when it asks for it.
    Boolean limited = job.limitedDataUse() != null ? job.limitedDataUse()
        : integration.dataProcessing().limitedDataUse() ? Boolean.TRUE : null;
    if (limited != null) {
      event.put("limited_data_use", limited);
    }
    return event;
  }

  /**
   * TikTok's user keys. TikTok's own pages could not be read first-hand (they render in JavaScript); the rules are
   * those its Events API integrations apply (RudderStack's TikTokTrackV2 mapping,
   * https://github.com/rudderlabs/rudder-transformer/tree/develop/src/v0/destinations/tiktok_ads), which are Meta's
   * for the same fields: so one person hashes alike on both networks, except the phone, which TikTok wants in E.164
   * with its '+'. TikTok's names: lower case and punctuation removed, as Meta's. City, state and country go plain.
   */
  private static final List<UserField> FIELDS = List.of(
      new UserField("email", "email", Normalize::email, HASHED),
      new UserField("phone", "phone", Normalize::tiktokPhone, HASHED),
      new UserField("first_name", "first_name", Normalize::name, HASHED),
      new UserField("last_name", "last_name", Normalize::name, HASHED),
      new UserField("zip", "zip_code", Normalize::zip, HASHED),
      new UserField("city", "city", Normalize::city, PLAIN),
      new UserField("state", "state", Normalize::state, PLAIN),
      new UserField("country", "country", Normalize::country, PLAIN));

  /** What TikTok takes as it is: the browser's IP and user agent, and the click's ttclid and ttp cookie. */
  private static final List<KnownValue> KNOWN_VALUES = List.of(
      new KnownValue("ip", ClaimedDelivery::clientIp),
      new KnownValue("user_agent", ClaimedDelivery::userAgent),
      new KnownValue("ttclid", job -> job.click().ttclid()),
      new KnownValue("ttp", job -> job.click().ttp()));

  /** TikTok's user: one external id as a string, two as a list. */
  public static final UserDataMapping USER_DATA = new UserDataMapping(
      ids -> ids.size() == 1 ? ids.get(0) : new JsonArray(ids), FIELDS, KNOWN_VALUES);

  @Override
  public Future<HttpResponse<Buffer>> send(Outbound out, IntegrationConfig integration, JsonObject body,
                                           long timeoutMs) {
    return out.request(integration, HttpMethod.POST, integration.apiBase() + PATH)
        .compose(request -> request.putHeader("Access-Token", integration.accessToken())
            .timeout(timeoutMs)
            .sendJsonObject(body));
  }

  @Override
  public JsonObject answer(Buffer body) {
    return TikTokCodes.answer(body);
  }

  @Override
  public Outcome classify(int status, Buffer body, long retryAfterMs) {
    return TikTokCodes.classify(status, body, retryAfterMs);
  }

  @Override
  public Outcome.Unconfirmed shortfall(Buffer body, int sent) {
    return TikTokCodes.shortfall(body);
  }
}
