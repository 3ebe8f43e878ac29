package dev.eventrouter.forward;

import dev.eventrouter.Sha256;
import dev.eventrouter.config.IntegrationConfig;
import dev.eventrouter.config.Network;
import dev.eventrouter.event.EventIds;
import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.ext.web.client.WebClient;

import java.util.List;
import java.util.Locale;

import static dev.eventrouter.forward.MetaApi.hashed;
import static dev.eventrouter.forward.MetaApi.put;

/**
 * TikTok Events API 2.0: {@code POST {api_base}/open_api/v1.3/event/track/} with header {@code Access-Token} and a
 * JSON body {@code {"event_source", "event_source_id", "test_event_code"?, "data": [...]}} (ad-networks.md 2.1, 2.2).
 */
final class TikTokApi implements NetworkApi {

  static final String PATH = "/open_api/v1.3/event/track/";

  @Override
  public Network network() {
    return Network.TIKTOK;
  }

  @Override
  public JsonObject body(IntegrationConfig integration, List<DeliveryJob> jobs) {
    JsonArray data = new JsonArray();
    jobs.forEach(job -> data.add(event(integration, job)));
    JsonObject body = new JsonObject()
        .put("event_source", integration.source())
        .put("event_source_id", integration.pixel());
    // Every implementation sends it at the top level (open question 3 of ad-networks.md); so do we.
    if (integration.testEventCode() != null) {
      body.put("test_event_code", integration.testEventCode());
    }
    return body.put("data", data);
  }

  static JsonObject event(IntegrationConfig integration, DeliveryJob job) {
    JsonObject event = new JsonObject()
        .put("event", job.mappedEvent())
        .put("event_time", job.receivedAt().getEpochSecond())
        .put("event_id", EventIds.format(job.eventId()))
        .put("user", user(job));
    if (job.value() != null) {
      event.put("properties", new JsonObject().put("value", job.value()).put("currency", job.currency()));
    }
    // The landing page when the session has one; otherwise the configured fallback (see ConfigParser), which every
    // web integration has.
    String pageUrl = job.click() != null && job.click().landingUrl() != null ? job.click().landingUrl()
        : integration.pageUrl();
    if (pageUrl != null) {
      event.put("page", new JsonObject().put("url", pageUrl));
    }
    return event;
  }

  /** Email, phone, names, zip and external_id hashed per TikTok's rules; city, state, country sent plain. */
  static JsonObject user(DeliveryJob job) {
    JsonObject user = new JsonObject();
    String telegram = Sha256.hex(Long.toString(job.telegramId()));
    String external = hashed(job.userValue("external_id"), Normalize::externalId);
    user.put("external_id", external == null ? telegram : new JsonArray().add(telegram).add(external));
    put(user, "email", hashed(job.userValue("email"), Normalize::email));
    put(user, "phone", hashed(job.userValue("phone"), Normalize::tiktokPhone));
    // TikTok's own rule for names is not published first-hand; we normalise them exactly as for Meta (lower case,
    // punctuation removed, as the social-hub adapter does), so one person hashes the same on both networks.
    put(user, "first_name", hashed(job.userValue("first_name"), Normalize::name));
    put(user, "last_name", hashed(job.userValue("last_name"), Normalize::name));
    put(user, "zip_code", hashed(job.userValue("zip"), Normalize::zip));
    put(user, "city", plain(job.userValue("city")));
    put(user, "state", plain(job.userValue("state")));
    put(user, "country", job.userValue("country") == null ? null : Normalize.country(job.userValue("country")));
    put(user, "ip", job.clientIp());
    put(user, "user_agent", job.userAgent());
    if (job.click() != null) {
      put(user, "ttclid", job.click().ttclid());
      put(user, "ttp", job.click().ttp());
    }
    return user;
  }

  /** Unhashed address parts: lowercase letters and digits only. */
  private static String plain(String value) {
    if (value == null) {
      return null;
    }
    String text = value.toLowerCase(Locale.ROOT).replaceAll("[^\\p{L}\\p{N}]+", "");
    return text.isEmpty() ? null : text;
  }

  @Override
  public Future<HttpResponse<Buffer>> send(WebClient client, IntegrationConfig integration, JsonObject body,
                                           long timeoutMs) {
    return client.postAbs(integration.apiBase() + PATH)
        .putHeader("Access-Token", integration.accessToken())
        .timeout(timeoutMs)
        .sendJsonObject(body);
  }

  @Override
  public Outcome classify(int status, Buffer body, long retryAfterMs) {
    return TikTokCodes.classify(status, body, retryAfterMs);
  }
}
