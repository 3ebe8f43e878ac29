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
import java.util.function.UnaryOperator;

/**
 * Meta Conversions API: {@code POST {api_base}/{version}/{pixel}/events?access_token=...} with a JSON body
 * {@code {"data": [...], "test_event_code"?}} (ad-networks.md 1.1, 1.2).
 */
final class MetaApi implements NetworkApi {

  @Override
  public Network network() {
    return Network.META;
  }

  @Override
  public JsonObject body(IntegrationConfig integration, List<DeliveryJob> jobs) {
    JsonArray data = new JsonArray();
    jobs.forEach(job -> data.add(event(integration, job)));
    JsonObject body = new JsonObject().put("data", data);
    if (integration.testEventCode() != null) {
      body.put("test_event_code", integration.testEventCode());
    }
    return body;
  }

  static JsonObject event(IntegrationConfig integration, DeliveryJob job) {
    JsonObject event = new JsonObject()
        .put("event_name", job.mappedEvent())
        .put("event_time", job.receivedAt().getEpochSecond())
        // The same id on every retry and as the pixel's eventID, so Meta deduplicates.
        .put("event_id", EventIds.format(job.eventId()))
        .put("action_source", integration.source())
        .put("user_data", userData(job));
    if (job.value() != null) {
      event.put("custom_data", new JsonObject().put("value", job.value()).put("currency", job.currency()));
    }
    if (job.click() != null && job.click().landingUrl() != null) {
      event.put("event_source_url", job.click().landingUrl());
    }
    return event;
  }

  /** Contact data normalised and hashed per Meta's rules; IP, user agent, fbc and fbp never hashed. */
  static JsonObject userData(DeliveryJob job) {
    JsonObject user = new JsonObject();
    JsonArray externalIds = new JsonArray().add(Sha256.hex(Long.toString(job.telegramId())));
    String external = hashed(job.userValue("external_id"), Normalize::externalId);
    if (external != null) {
      externalIds.add(external);
    }
    user.put("external_id", externalIds);
    putList(user, "em", hashed(job.userValue("email"), Normalize::email));
    putList(user, "ph", hashed(job.userValue("phone"), Normalize::metaPhone));
    put(user, "fn", hashed(job.userValue("first_name"), Normalize::name));
    put(user, "ln", hashed(job.userValue("last_name"), Normalize::name));
    put(user, "ge", hashed(job.userValue("gender"), Normalize::gender));
    put(user, "db", hashed(job.userValue("date_of_birth"), Normalize::dateOfBirth));
    put(user, "ct", hashed(job.userValue("city"), Normalize::city));
    put(user, "st", hashed(job.userValue("state"), Normalize::state));
    put(user, "zp", hashed(job.userValue("zip"), Normalize::zip));
    put(user, "country", hashed(job.userValue("country"), Normalize::country));
    put(user, "client_ip_address", job.clientIp());
    put(user, "client_user_agent", job.userAgent());
    if (job.click() != null) {
      put(user, "fbc", job.click().fbc());
      put(user, "fbp", job.click().fbp());
    }
    return user;
  }

  /** Normalised then hashed; a value that already is a SHA-256 goes as is. */
  static String hashed(String raw, UnaryOperator<String> normalize) {
    if (raw == null) {
      return null;
    }
    if (Sha256.isHex(raw)) {
      return raw;
    }
    String normalized = normalize.apply(raw);
    return normalized == null ? null : Sha256.hex(normalized);
  }

  static void put(JsonObject json, String key, String value) {
    if (value != null) {
      json.put(key, value);
    }
  }

  private static void putList(JsonObject json, String key, String value) {
    if (value != null) {
      json.put(key, new JsonArray().add(value));
    }
  }

  @Override
  public Future<HttpResponse<Buffer>> send(WebClient client, IntegrationConfig integration, JsonObject body,
                                           long timeoutMs) {
    return client.postAbs(integration.apiBase() + "/" + integration.apiVersion() + "/" + integration.pixel()
            + "/events")
        .addQueryParam("access_token", integration.accessToken())
        .timeout(timeoutMs)
        .sendJsonObject(body);
  }

  @Override
  public Outcome classify(int status, Buffer body, long retryAfterMs) {
    return MetaErrors.classify(status, body, retryAfterMs);
  }
}
