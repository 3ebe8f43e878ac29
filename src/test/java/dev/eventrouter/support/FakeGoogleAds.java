package dev.eventrouter.support;

import dev.eventrouter.support.FakeAdNetworks.Reply;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Pattern;

/**
 * The fake Google Ads API and its OAuth token endpoint, as Google documents them
 * (https://developers.google.com/google-ads/api/docs/conversions/upload-clicks,
 * https://developers.google.com/google-ads/api/docs/best-practices/understand-api-errors): access tokens refreshed
 * from the one refresh token it knows ({@code invalid_grant} for any other), each request's bearer token and
 * developer token checked (401 UNAUTHENTICATED with a GoogleAdsFailure), and each row of an upload or adjustment
 * checked on its own, answered 200 with a {@code partialFailureError} naming the failed rows by index: an unknown
 * conversion action, a click id it cannot parse, an order id already used, an adjustment of a conversion it never
 * took. It remembers what it took: the uploads by order id, and each adjustment.
 */
public final class FakeGoogleAds {

  public static final String CUSTOMER = "1234567890";
  public static final String DEVELOPER_TOKEN = "google-dev-token-77a1";
  public static final String CLIENT_ID = "google-client.apps.googleusercontent.com";
  public static final String CLIENT_SECRET = "google-client-secret-5d3";
  public static final String REFRESH_TOKEN = "google-refresh-token-1f9c";
  public static final String PURCHASE_ACTION = "111";
  public static final String SIGN_UP_ACTION = "222";
  /** A gclid Google cannot parse. */
  public static final String BAD_GCLID = "not-a-real-gclid";
  private static final Set<String> ACTIONS = Set.of(PURCHASE_ACTION, SIGN_UP_ACTION);
  private static final Pattern TIME = Pattern.compile("[0-9]{4}-[0-9]{2}-[0-9]{2} [0-9]{2}:[0-9]{2}:[0-9]{2}[+-][0-9]{2}:[0-9]{2}");
  private static final Pattern SHA256 = Pattern.compile("[0-9a-f]{64}");

  private final Set<String> liveTokens = ConcurrentHashMap.newKeySet();
  private final AtomicInteger refreshes = new AtomicInteger();
  private final AtomicInteger issued = new AtomicInteger();
  /** The uploads taken, by order id. */
  private final Map<String, JsonObject> uploads = new ConcurrentHashMap<>();
  private final List<JsonObject> adjustments = new CopyOnWriteArrayList<>();
  /** The login-customer-id header of the last request to the API, or null. */
  public volatile String lastLoginCustomerId;

  /** A live Google Ads integration of a workspace's config, sending to the fakes at {@code base}. */
  public static JsonObject integration(String base) {
    return new JsonObject().put("id", "google-main").put("type", "google_ads").put("customer_id", "123-456-7890")
        .put("developer_token", DEVELOPER_TOKEN).put("client_id", CLIENT_ID).put("client_secret", CLIENT_SECRET)
        .put("refresh_token", REFRESH_TOKEN).put("api_base", base).put("token_url", base + "/token")
        .put("allow_private_network", true)
        .put("conversion_actions", new JsonObject().put("FTD", PURCHASE_ACTION).put("DEP", PURCHASE_ACTION)
            .put("REG", SIGN_UP_ACTION));
  }

  public int refreshes() {
    return refreshes.get();
  }

  /** Every access token issued so far expires now: the next request with one gets a 401. */
  public void expireTokens() {
    liveTokens.clear();
  }

  public Map<String, JsonObject> uploads() {
    return Map.copyOf(uploads);
  }

  public List<JsonObject> adjustments() {
    return List.copyOf(adjustments);
  }

  void reset() {
    liveTokens.clear();
    refreshes.set(0);
    uploads.clear();
    adjustments.clear();
  }

  /** {@code POST /token}, grant_type refresh_token (https://developers.google.com/identity/protocols/oauth2). */
  Reply token(RoutingContext rc) {
    refreshes.incrementAndGet();
    var form = rc.request().formAttributes();
    if (!CLIENT_ID.equals(form.get("client_id")) || !CLIENT_SECRET.equals(form.get("client_secret"))) {
      return Reply.of(401, new JsonObject().put("error", "invalid_client")
          .put("error_description", "The OAuth client was not found."));
    }
    if (!"refresh_token".equals(form.get("grant_type")) || !REFRESH_TOKEN.equals(form.get("refresh_token"))) {
      return Reply.of(400, new JsonObject().put("error", "invalid_grant")
          .put("error_description", "Token has been expired or revoked."));
    }
    String token = "ya29.fake-" + issued.incrementAndGet();
    liveTokens.add(token);
    return Reply.of(200, new JsonObject().put("access_token", token).put("expires_in", 3599)
        .put("scope", "https://www.googleapis.com/auth/adwords").put("token_type", "Bearer"));
  }

  /** {@code :uploadClickConversions} or {@code :uploadConversionAdjustments}, checked as Google checks them. */
  Reply ads(RoutingContext rc, JsonObject body, boolean adjust) {
    lastLoginCustomerId = rc.request().getHeader("login-customer-id");
    String authorization = rc.request().getHeader("Authorization");
    if (authorization == null || !liveTokens.contains(authorization.replaceFirst("^Bearer ", ""))) {
      return failure(401, "UNAUTHENTICATED", "authenticationError", "OAUTH_TOKEN_INVALID",
          "Request had invalid authentication credentials.");
    }
    if (!DEVELOPER_TOKEN.equals(rc.request().getHeader("developer-token"))) {
      return failure(401, "UNAUTHENTICATED", "authenticationError", "DEVELOPER_TOKEN_INVALID",
          "The developer token is not valid.");
    }
    if (!CUSTOMER.equals(rc.pathParam("param0"))) {
      return failure(403, "PERMISSION_DENIED", "authorizationError", "USER_PERMISSION_DENIED",
          "User doesn't have permission to access customer.");
    }
    if (!Boolean.TRUE.equals(body.getBoolean("partialFailure"))) {
      return failure(400, "INVALID_ARGUMENT", "requestError", "PARTIAL_FAILURE_MODE_REQUIRED",
          "partial_failure must be true");
    }
    String list = adjust ? "conversionAdjustments" : "conversions";
    JsonArray rows = body.getJsonArray(list, new JsonArray());
    boolean validateOnly = Boolean.TRUE.equals(body.getBoolean("validateOnly"));
    JsonArray results = new JsonArray();
    JsonArray errors = new JsonArray();
    for (int i = 0; i < rows.size(); i++) {
      JsonObject row = rows.getJsonObject(i);
      String[] error = adjust ? checkAdjustment(row) : checkUpload(row);
      if (error == null) {
        results.add(row.copy());
        if (!validateOnly) {
          if (adjust) {
            adjustments.add(row);
          } else {
            uploads.put(row.getString("orderId"), row);
          }
        }
      } else {
        results.add(new JsonObject());
        errors.add(new JsonObject()
            .put("errorCode", new JsonObject().put(adjust ? "conversionAdjustmentUploadError"
                : "conversionUploadError", error[0]))
            .put("message", error[1])
            .put("location", new JsonObject().put("fieldPathElements", new JsonArray()
                .add(new JsonObject().put("fieldName", list).put("index", i)))));
      }
    }
    JsonObject answer = new JsonObject().put("jobId", "9223372036854775807");
    if (!validateOnly) {
      answer.put("results", results);
    }
    if (!errors.isEmpty()) {
      answer.put("partialFailureError", new JsonObject().put("code", 3)
          .put("message", "Request contains an invalid argument.")
          .put("details", new JsonArray().add(new JsonObject()
              .put("@type", "type.googleapis.com/google.ads.googleads.v21.errors.GoogleAdsFailure")
              .put("errors", errors).put("requestId", "req-1"))));
    }
    return Reply.of(200, answer);
  }

  /** Google's code and message for an upload row it refuses, or null. */
  private String[] checkUpload(JsonObject row) {
    String action = actionOf(row);
    if (action == null) {
      return new String[] {"NO_CONVERSION_ACTION_FOUND", "The conversion action specified in the upload request "
          + "cannot be found."};
    }
    long ids = List.of("gclid", "gbraid", "wbraid").stream().filter(row::containsKey).count();
    if (ids != 1) {
      return new String[] {"GBRAID_WBRAID_BOTH_SET", "Exactly one of gclid, gbraid or wbraid must be set."};
    }
    if (BAD_GCLID.equals(row.getString("gclid")) || "event-router-credential-test".equals(row.getString("gclid"))) {
      return new String[] {"UNPARSEABLE_GCLID", "The click ID could not be decoded."};
    }
    if (row.getString("conversionDateTime") == null || !TIME.matcher(row.getString("conversionDateTime")).matches()) {
      return new String[] {"INVALID_CONVERSION_DATE_TIME", "conversion_date_time must be yyyy-mm-dd hh:mm:ss+|-hh:mm"};
    }
    if (row.getValue("userIdentifiers") instanceof JsonArray identifiers && identifiers.stream()
        .anyMatch(id -> ((JsonObject) id).stream().anyMatch(e -> !SHA256.matcher(String.valueOf(e.getValue()))
            .matches()))) {
      return new String[] {"INVALID_USER_IDENTIFIER", "The user identifier is not a valid SHA-256 hash."};
    }
    if (uploads.containsKey(row.getString("orderId", ""))) {
      return new String[] {"ORDER_ID_ALREADY_IN_USE", "The order ID is already in use."};
    }
    return null;
  }

  private String[] checkAdjustment(JsonObject row) {
    if (actionOf(row) == null) {
      return new String[] {"NO_CONVERSION_ACTION_FOUND", "The conversion action cannot be found."};
    }
    JsonObject upload = uploads.get(row.getString("orderId", ""));
    if (upload == null || !upload.getString("conversionAction").equals(row.getString("conversionAction"))) {
      return new String[] {"CONVERSION_NOT_FOUND", "The conversion for this conversion action and conversion "
          + "identifier can't be found."};
    }
    String type = row.getString("adjustmentType");
    if (!"RETRACTION".equals(type) && !"RESTATEMENT".equals(type)
        || "RETRACTION".equals(type) == row.containsKey("restatementValue")
        || !TIME.matcher(row.getString("adjustmentDateTime", "")).matches()) {
      return new String[] {"INVALID_ADJUSTMENT", "adjustment_type, adjustment_date_time or restatement_value is "
          + "not valid."};
    }
    boolean retracted = adjustments.stream().anyMatch(a -> a.getString("orderId").equals(row.getString("orderId"))
        && "RETRACTION".equals(a.getString("adjustmentType")));
    return retracted ? new String[] {"CONVERSION_ALREADY_RETRACTED", "The conversion was already retracted."}
        : null;
  }

  private static String actionOf(JsonObject row) {
    String resource = row.getString("conversionAction", "");
    String prefix = "customers/" + CUSTOMER + "/conversionActions/";
    return resource.startsWith(prefix) && ACTIONS.contains(resource.substring(prefix.length()))
        ? resource.substring(prefix.length()) : null;
  }

  /** Google's request-level error: {"error": {code, message, status, details: [GoogleAdsFailure]}}. */
  public static Reply failure(int http, String status, String kind, String code, String message) {
    return Reply.of(http, new JsonObject().put("error", new JsonObject().put("code", http).put("message", message)
        .put("status", status).put("details", new JsonArray().add(new JsonObject()
            .put("@type", "type.googleapis.com/google.ads.googleads.v21.errors.GoogleAdsFailure")
            .put("errors", new JsonArray().add(new JsonObject().put("errorCode", new JsonObject().put(kind, code))
                .put("message", message)))))));
  }
}
