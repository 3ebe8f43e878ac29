package dev.eventrouter.forward.google;

import dev.eventrouter.config.GoogleAdsConfig;
import dev.eventrouter.config.IntegrationConfig;
import dev.eventrouter.config.Network;
import dev.eventrouter.event.ClickData;
import dev.eventrouter.event.ClickIds;
import dev.eventrouter.event.MatchKeys;
import dev.eventrouter.forward.NetworkApi;
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

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * Google Ads click conversions (https://developers.google.com/google-ads/api/docs/conversions/upload-clicks):
 * {@code POST {api_base}/{version}/customers/{id}:uploadClickConversions} with {@code partialFailure}, the order id
 * our event id, so a retry cannot count twice; and the corrections of what was uploaded,
 * {@code :uploadConversionAdjustments}, a RETRACTION when the conversion turns rejected or charged back and a
 * RESTATEMENT when its value changes
 * (https://developers.google.com/google-ads/api/docs/conversions/upload-adjustments),
 * keyed by the same order id. Each request carries an access token refreshed from the integration's refresh token; a
 * 401 refreshes it once and sends again. Google has no test code: a test_event_code (and a credential test) sends with
 * {@code validateOnly}, which checks and records nothing.
 */
public final class GoogleAdsApi implements NetworkApi {

  /** Adjustments are taken 24 hours after the conversion, at the latest 54 days after it. */
  static final Duration ADJUSTMENT_DELAY = Duration.ofHours(24).plusMinutes(5);
  static final Duration MAX_AGE = Duration.ofDays(54);
  static final String UPLOAD = ":uploadClickConversions";
  static final String ADJUST = ":uploadConversionAdjustments";

  private final GoogleTokens tokens = new GoogleTokens();

  @Override
  public Network network() {
    return Network.GOOGLE_ADS;
  }

  /** An upload is retried within the 54 days an adjustment of it can follow; a click's own window is Google's. */
  @Override
  public Duration maxEventAge() {
    return MAX_AGE;
  }

  @Override
  public String skip(ClaimedDelivery job) {
    ClickIds.Google click = job.click().ids().google();
    if (click == null) {
      return "no Google click id (gclid, gbraid or wbraid) on the event's click: Google Ads takes click conversions "
          + "only";
    }
    return GoogleAdsRows.adjustment(job) != null && click.field().equals("wbraid")
        ? "Google adjusts no conversion uploaded with a wbraid" : null;
  }

  @Override
  public Instant notBefore(ClaimedDelivery job) {
    return GoogleAdsRows.adjustment(job) == null ? null : job.receivedAt().plus(ADJUSTMENT_DELAY);
  }

  /** Uploads and adjustments go to two addresses: one request each. */
  @Override
  public List<List<ClaimedDelivery>> requests(List<ClaimedDelivery> jobs) {
    List<ClaimedDelivery> uploads = jobs.stream().filter(job -> GoogleAdsRows.adjustment(job) == null).toList();
    List<ClaimedDelivery> adjustments = jobs.stream().filter(job -> GoogleAdsRows.adjustment(job) != null).toList();
    return uploads.isEmpty() || adjustments.isEmpty() ? List.of(jobs) : List.of(uploads, adjustments);
  }

  @Override
  public JsonObject body(IntegrationConfig integration, List<ClaimedDelivery> jobs) {
    JsonArray rows = new JsonArray();
    jobs.forEach(job -> rows.add(event(integration, job)));
    JsonObject body = new JsonObject().put(listField(jobs), rows).put("partialFailure", true);
    return integration.testEventCode() != null ? body.put("validateOnly", true) : body;
  }

  /** The body's list: the conversions uploaded, or the adjustments. */
  private static String listField(List<ClaimedDelivery> jobs) {
    return !jobs.isEmpty() && GoogleAdsRows.adjustment(jobs.get(0)) != null ? "conversionAdjustments" : "conversions";
  }

  @Override
  public JsonObject event(IntegrationConfig integration, ClaimedDelivery job) {
    return GoogleAdsRows.row(integration.google(), job);
  }

  /** Google takes no external id, IP or user agent with a click conversion: the click id and hashes match it. */
  public static final UserDataMapping USER_DATA = new UserDataMapping(ids -> null, GoogleAdsRows.FIELDS,
      List.of());

  @Override
  public UserDataMapping userData() {
    return USER_DATA;
  }

  /** Each row's payload: the body with that one row. */
  @Override
  public List<JsonObject> payloads(JsonObject body, int events) {
    String list = body.containsKey("conversions") ? "conversions" : "conversionAdjustments";
    List<JsonObject> payloads = new ArrayList<>(events);
    for (int i = 0; i < events; i++) {
      JsonObject payload = body.copy();
      payloads.add(payload.put(list, new JsonArray().add(body.getJsonArray(list).getValue(i))));
    }
    return payloads;
  }

  /** The keys each uploaded row carried: its click id, its hashed email and phone (MatchKeys' list for Google). */
  @Override
  public int[] matchKeys(JsonObject body, int events) {
    int[] masks = new int[events];
    JsonArray rows = body.getJsonArray("conversions");
    for (int i = 0; rows != null && i < events; i++) {
      JsonObject row = rows.getJsonObject(i);
      JsonObject keys = new JsonObject();
      for (String click : List.of("gclid", "gbraid", "wbraid")) {
        keys.put(click, row.getValue(click));
      }
      if (row.getValue("userIdentifiers") instanceof JsonArray identifiers) {
        identifiers.forEach(identifier -> keys.mergeIn((JsonObject) identifier));
      }
      masks[i] = MatchKeys.mask(Network.GOOGLE_ADS, keys);
    }
    return masks;
  }

  @Override
  public Future<HttpResponse<Buffer>> send(Outbound out, IntegrationConfig integration, JsonObject body,
                                           long timeoutMs) {
    return send(out, integration, body, timeoutMs, true);
  }

  private Future<HttpResponse<Buffer>> send(Outbound out, IntegrationConfig integration, JsonObject body,
                                            long timeoutMs, boolean mayRefresh) {
    GoogleAdsConfig google = integration.google();
    String url = integration.apiBase() + "/" + integration.apiVersion() + "/customers/" + google.customerId()
        + (body.containsKey("conversionAdjustments") ? ADJUST : UPLOAD);
    return tokens.token(out, integration, timeoutMs).compose(token -> token.refusal() != null
        ? Future.succeededFuture(token.refusal())
        : out.request(integration, HttpMethod.POST, url).compose(request -> {
          request.putHeader("Authorization", "Bearer " + token.value())
              .putHeader("developer-token", google.developerToken());
          if (google.loginCustomerId() != null) {
            request.putHeader("login-customer-id", google.loginCustomerId());
          }
          return request.timeout(timeoutMs).sendJsonObject(body);
        }).compose(response -> {
          if (response.statusCode() == 401 && mayRefresh) {
            // The access token expired or was revoked early: a new one, once.
            tokens.invalidate(integration);
            return send(out, integration, body, timeoutMs, false);
          }
          return Future.succeededFuture(response);
        }));
  }

  /** A click id Google cannot know: a credential test's upload reaches the row checks, and is recorded nowhere. */
  static final String TEST_GCLID = "event-router-credential-test";

  @Override
  public ClickData testClick() {
    return new ClickData(null, null, null, null, null, null, null, null,
        new ClickIds(TEST_GCLID, null, null, null, null));
  }

  /**
   * A test upload that reaches the check of its click id got past the token, the developer token, the account and
   * the conversion action: those are what a credential test checks, so Google refusing the made-up click is accepted.
   */
  @Override
  public Outcome testVerdict(int status, Buffer body) {
    return GoogleAdsErrors.testVerdict(status, body);
  }

  @Override
  public Outcome verdict(int status, Buffer body, long retryAfterMs, int sent) {
    return GoogleAdsErrors.verdict(status, body, retryAfterMs, sent);
  }

  @Override
  public Outcome classify(int status, Buffer body, long retryAfterMs) {
    return GoogleAdsErrors.verdict(status, body, retryAfterMs, 1);
  }

  @Override
  public Outcome.Unconfirmed shortfall(Buffer body, int sent) {
    return null; // a partial failure names its rows: each has its own outcome
  }

  @Override
  public JsonObject answer(Buffer body) {
    return GoogleAdsErrors.answer(body);
  }
}
