package dev.eventrouter.forward.snapchat;

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

import java.time.Duration;
import java.util.List;

import static dev.eventrouter.forward.UserField.Form.HASHED_LIST;

/**
 * Snapchat Conversions API v3: {@code POST {api_base}/v3/{pixel}/events?access_token=...} with a JSON body
 * {@code {"data": [...]}} (https://developers.snap.com/api/marketing-api/Conversions-API/UsingTheAPI). Snapchat has
 * no test code: an integration with a {@code test_event_code} (and every credential test) sends to
 * {@code /v3/{pixel}/events/validate} instead, which checks the events and counts none
 * (https://developers.snap.com/api/marketing-api/Conversions-API/VerifySetUp).
 */
public final class SnapchatApi implements NetworkApi {

  /** Snapchat takes events up to 37 days old (https://developers.snap.com/api/marketing-api/Conversions-API). */
  static final Duration MAX_EVENT_AGE = Duration.ofDays(37);

  @Override
  public Network network() {
    return Network.SNAPCHAT;
  }

  @Override
  public Duration maxEventAge() {
    return MAX_EVENT_AGE;
  }

  /** Only {@code data}: Snapchat has no test_event_code, its test is the validate path. */
  @Override
  public JsonObject body(IntegrationConfig integration, List<ClaimedDelivery> jobs) {
    JsonArray data = new JsonArray();
    jobs.forEach(job -> data.add(event(integration, job)));
    return new JsonObject().put("data", data);
  }

  @Override
  public JsonObject event(IntegrationConfig integration, ClaimedDelivery job) {
    JsonObject event = new JsonObject()
        .put("event_name", job.mappedEvent())
        .put("event_time", job.receivedAt().getEpochSecond())
        // The same id on every retry and as the pixel's, so Snapchat deduplicates.
        .put("event_id", EventIds.format(job.eventId()))
        .put("action_source", integration.source())
        .put("user_data", USER_DATA.user(job));
    if (job.value() != null) {
      event.put("custom_data", new JsonObject().put("value", job.value()).put("currency", job.currency()));
    }
    // The landing page, else the configured fallback, which every WEB integration has (SourceParser).
    String sourceUrl = job.click().landingUrl() != null ? job.click().landingUrl() : integration.pageUrl();
    if (sourceUrl != null) {
      event.put("event_source_url", sourceUrl);
    }
    // Limited Data Use: the event's own choice, else the integration's when it asks for it.
    boolean limited = job.limitedDataUse() != null ? job.limitedDataUse()
        : integration.dataProcessing().limitedDataUse();
    if (limited) {
      event.put("data_processing_options", new JsonArray().add("LDU"));
    }
    return event;
  }

  /**
   * Snapchat's user_data keys, each a list of SHA-256 hashes of the value normalised as its Parameters page says
   * (https://developers.snap.com/api/marketing-api/Conversions-API/Parameters): the email trimmed and lower-cased;
   * the phone as digits with the country code, no '+' and no leading zeros (Meta's rule); names lower-cased without
   * punctuation. external_id is hashed as Meta's is.
   */
  private static final List<UserField> FIELDS = List.of(
      new UserField("email", "em", Normalize::email, HASHED_LIST),
      new UserField("phone", "ph", Normalize::metaPhone, HASHED_LIST),
      new UserField("first_name", "fn", Normalize::name, HASHED_LIST),
      new UserField("last_name", "ln", Normalize::name, HASHED_LIST),
      new UserField("gender", "ge", Normalize::gender, HASHED_LIST),
      new UserField("city", "ct", Normalize::city, HASHED_LIST),
      new UserField("state", "st", Normalize::state, HASHED_LIST),
      new UserField("zip", "zp", Normalize::zip, HASHED_LIST),
      new UserField("country", "country", Normalize::country, HASHED_LIST));

  /** What Snapchat takes as it is: the browser's IP and user agent, the click's ScCid and the _scid cookie. */
  private static final List<KnownValue> KNOWN_VALUES = List.of(
      new KnownValue("client_ip_address", ClaimedDelivery::clientIp),
      new KnownValue("client_user_agent", ClaimedDelivery::userAgent),
      new KnownValue("sc_click_id", job -> job.click().ids().sccid()),
      new KnownValue("sc_cookie1", job -> job.click().ids().scid()));

  /** Snapchat's user_data: external ids as a list of hashes. */
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
    String path = "/v3/" + integration.pixel() + (integration.testEventCode() != null ? "/events/validate" : "/events");
    return out.postWithTokenParameter(integration, integration.apiBase() + path, body, timeoutMs);
  }

  @Override
  public JsonObject answer(Buffer body) {
    return SnapchatErrors.answer(body);
  }

  @Override
  public Outcome classify(int status, Buffer body, long retryAfterMs) {
    return SnapchatErrors.classify(status, body, retryAfterMs);
  }

  @Override
  public Outcome.Unconfirmed shortfall(Buffer body, int sent) {
    return null; // a VALID answer takes the whole request; an INVALID one is a 400, classified as refused
  }
}
