package dev.eventrouter.forward.meta;

import dev.eventrouter.config.IntegrationConfig;
import dev.eventrouter.config.Network;
import dev.eventrouter.event.EventIds;
import dev.eventrouter.forward.NetworkApi;
import dev.eventrouter.forward.Normalize;
import dev.eventrouter.forward.Outcome;
import dev.eventrouter.forward.UserField;
import dev.eventrouter.store.ClaimedDelivery;
import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.ext.web.client.WebClient;

import java.util.List;

import static dev.eventrouter.forward.UserField.Form.HASHED;
import static dev.eventrouter.forward.UserField.Form.HASHED_LIST;

/**
 * Meta Conversions API: {@code POST {api_base}/{version}/{pixel}/events?access_token=...} with a JSON body
 * {@code {"data": [...], "test_event_code"?}}
 * (https://developers.facebook.com/docs/marketing-api/conversions-api/using-the-api).
 */
public final class MetaApi implements NetworkApi {

  @Override
  public Network network() {
    return Network.META;
  }

  @Override
  public JsonObject body(IntegrationConfig integration, List<ClaimedDelivery> jobs) {
    JsonArray data = new JsonArray();
    jobs.forEach(job -> data.add(event(integration, job)));
    JsonObject body = new JsonObject().put("data", data);
    if (integration.testEventCode() != null) {
      body.put("test_event_code", integration.testEventCode());
    }
    return body;
  }

  public static JsonObject event(IntegrationConfig integration, ClaimedDelivery job) {
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

  /**
   * Meta's user_data keys, normalised and hashed per its customer-information parameters
   * (https://developers.facebook.com/docs/marketing-api/conversions-api/parameters/customer-information-parameters).
   */
  public static final List<UserField> USER_FIELDS = List.of(
      new UserField("email", "em", Normalize::email, HASHED_LIST),
      new UserField("phone", "ph", Normalize::metaPhone, HASHED_LIST),
      new UserField("first_name", "fn", Normalize::name, HASHED),
      new UserField("last_name", "ln", Normalize::name, HASHED),
      new UserField("gender", "ge", Normalize::gender, HASHED),
      new UserField("date_of_birth", "db", Normalize::dateOfBirth, HASHED),
      new UserField("city", "ct", Normalize::city, HASHED),
      new UserField("state", "st", Normalize::state, HASHED),
      new UserField("zip", "zp", Normalize::zip, HASHED),
      new UserField("country", "country", Normalize::country, HASHED));

  /** Contact data from the table; external ids hashed; IP, user agent, fbc and fbp never hashed. */
  public static JsonObject userData(ClaimedDelivery job) {
    JsonObject user = new JsonObject().put("external_id", new JsonArray(UserField.externalIds(job)));
    UserField.putAll(USER_FIELDS, job, user);
    UserField.putIfKnown(user, "client_ip_address", job.clientIp());
    UserField.putIfKnown(user, "client_user_agent", job.userAgent());
    if (job.click() != null) {
      UserField.putIfKnown(user, "fbc", job.click().fbc());
      UserField.putIfKnown(user, "fbp", job.click().fbp());
    }
    return user;
  }

  @Override
  public List<UserField> userFields() {
    return USER_FIELDS;
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
