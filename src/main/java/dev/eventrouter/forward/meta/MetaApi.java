package dev.eventrouter.forward.meta;

import dev.eventrouter.config.DataProcessing;
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
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;

import java.util.List;

import static dev.eventrouter.forward.UserField.Form.HASHED_LIST;

/**
 * Meta Conversions API: {@code POST {api_base}/{version}/{pixel}/events?access_token=...} with a JSON body
 * {@code {"data": [...], "test_event_code"?}}
 * (https://developers.facebook.com/docs/marketing-api/conversions-api/using-the-api).
 */
public final class MetaApi implements NetworkApi {

  private static final String WEBSITE = "website";

  @Override
  public Network network() {
    return Network.META;
  }

  @Override
  public JsonObject event(IntegrationConfig integration, ClaimedDelivery job) {
    JsonObject event = new JsonObject()
        .put("event_name", job.mappedEvent())
        .put("event_time", job.receivedAt().getEpochSecond())
        // The same id on every retry and as the pixel's eventID, so Meta deduplicates.
        .put("event_id", EventIds.format(job.eventId()))
        .put("action_source", integration.source())
        .put("user_data", USER_DATA.user(job));
    if (job.value() != null) {
      event.put("custom_data", new JsonObject().put("value", job.value()).put("currency", job.currency()));
    }
    String sourceUrl = sourceUrl(integration, job);
    if (sourceUrl != null) {
      event.put("event_source_url", sourceUrl);
    }
    dataProcessing(integration.dataProcessing(), job.limitedDataUse(), event);
    return event;
  }

  /**
   * The landing page when the session has one. Without one, a website event names the integration's fallback (its
   * page_url, else the bot's t.me link: see SourceParser), as Meta requires event_source_url on website events
   * (https://developers.facebook.com/docs/marketing-api/conversions-api/parameters/server-event#event-source-url);
   * other events, which need none, go without rather than name a page the conversion did not happen on.
   */
  private static String sourceUrl(IntegrationConfig integration, ClaimedDelivery job) {
    if (job.click().landingUrl() != null) {
      return job.click().landingUrl();
    }
    return WEBSITE.equals(integration.source()) ? integration.pageUrl() : null;
  }

  /**
   * Limited Data Use (https://developers.facebook.com/docs/marketing-apis/data-processing-options): ["LDU"] with
   * the integration's country and state when the event asks for it (or, without its own choice, the integration
   * does); an explicit empty list when the event says it does not apply; nothing otherwise.
   */
  private static void dataProcessing(DataProcessing defaults, Boolean eventChoice, JsonObject event) {
    boolean limited = eventChoice != null ? eventChoice : defaults.limitedDataUse();
    if (limited) {
      event.put("data_processing_options", new JsonArray().add("LDU"))
          .put("data_processing_options_country", defaults.country())
          .put("data_processing_options_state", defaults.state());
    } else if (eventChoice != null) {
      event.put("data_processing_options", new JsonArray());
    }
  }

  /**
   * Meta's user_data keys, normalised and hashed per its customer-information parameters
   * (https://developers.facebook.com/docs/marketing-api/conversions-api/parameters/customer-information-parameters).
   * Each goes as a list of hashes, as external_id does: the form Meta's Java Business SDK writes each of them in (its
   * UserData model holds a list for every one, and cannot read a single string).
   */
  private static final List<UserField> FIELDS = List.of(
      new UserField("email", "em", Normalize::email, HASHED_LIST),
      new UserField("phone", "ph", Normalize::metaPhone, HASHED_LIST),
      new UserField("first_name", "fn", Normalize::name, HASHED_LIST),
      new UserField("last_name", "ln", Normalize::name, HASHED_LIST),
      new UserField("gender", "ge", Normalize::gender, HASHED_LIST),
      new UserField("date_of_birth", "db", Normalize::dateOfBirth, HASHED_LIST),
      new UserField("city", "ct", Normalize::city, HASHED_LIST),
      new UserField("state", "st", Normalize::state, HASHED_LIST),
      new UserField("zip", "zp", Normalize::zip, HASHED_LIST),
      new UserField("country", "country", Normalize::country, HASHED_LIST));

  /** What Meta takes as it is: the browser's IP and user agent, and the click's fbc and fbp cookies. */
  private static final List<KnownValue> KNOWN_VALUES = List.of(
      new KnownValue("client_ip_address", ClaimedDelivery::clientIp),
      new KnownValue("client_user_agent", ClaimedDelivery::userAgent),
      new KnownValue("fbc", job -> job.click().fbc()),
      new KnownValue("fbp", job -> job.click().fbp()));

  /** Meta's user_data: external ids always as a list. */
  public static final UserDataMapping USER_DATA = new UserDataMapping(JsonArray::new, FIELDS, KNOWN_VALUES);

  @Override
  public UserDataMapping userData() {
    return USER_DATA;
  }

  @Override
  public String userField() {
    return "user_data";
  }

  @Override
  public Future<HttpResponse<Buffer>> send(Outbound out, IntegrationConfig integration, JsonObject body,
                                           long timeoutMs) {
    return out.postWithTokenParameter(integration, integration.apiBase() + "/" + integration.apiVersion() + "/"
        + integration.pixel() + "/events", body, timeoutMs);
  }

  @Override
  public JsonObject answer(Buffer body) {
    return MetaErrors.answer(body);
  }

  @Override
  public Outcome classify(int status, Buffer body, long retryAfterMs) {
    return MetaErrors.classify(status, body, retryAfterMs);
  }

  @Override
  public Outcome.Unconfirmed shortfall(Buffer body, int sent) {
    return MetaErrors.shortfall(body, sent);
  }
}
