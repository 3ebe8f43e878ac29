package dev.eventrouter.support;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The scripted misbehaviour of {@link FakeMetaInsights}: a revoked token, "reduce the amount of data" for long
 * ranges, usage headers rising per call up to the rate limit, and one truncated 200. Error bodies are Graph API's
 * {@code {"error":{"message","type","code","error_subcode","fbtrace_id"}}}
 * (https://developers.facebook.com/docs/graph-api/guides/error-handling,
 * https://developers.facebook.com/docs/marketing-api/insights/error-codes,
 * https://developers.facebook.com/docs/marketing-api/overview/rate-limiting). Only "code 1" comes with a
 * documented HTTP status (500); 400 for the token, subcode and limit errors is this fake's choice: unconfirmed.
 */
public final class MetaInsightsScript {

  /** The three documented ways Meta asks for fewer days or rows. */
  public enum TooMuchData {
    /** HTTP 500, code 1: "Please reduce the amount of data you're asking for, then retry your request". */
    CODE_1(500, 1, null),
    /** HTTP 400, code 100, subcode 1504018. */
    CODE_100_1504018(400, 100, 1504018),
    /** HTTP 400, code 2, subcode 1504038. */
    CODE_2_1504038(400, 2, 1504038);

    final int status;
    final int code;
    final Integer subcode;

    TooMuchData(int status, int code, Integer subcode) {
      this.status = status;
      this.code = code;
      this.subcode = subcode;
    }
  }

  /** A documented rate-limit code and subcode: 4/1504022, 4/1504039, 17/2446079 or 613/1487742. */
  public record Limit(int code, int subcode) {
    public static final Limit USER_17 = new Limit(17, 2446079);
    public static final Limit APP_4 = new Limit(4, 1504022);
    public static final Limit APP_4_BUC = new Limit(4, 1504039);
    public static final Limit CUSTOM_613 = new Limit(613, 1487742);
  }

  /** What the fake answers instead of data: an HTTP status and an error body. */
  public record Failure(int status, JsonObject body) {}

  private volatile boolean revoked;
  private volatile int maxDays = Integer.MAX_VALUE;
  private volatile TooMuchData tooMuchData = TooMuchData.CODE_1;
  private volatile int usageStep;
  private volatile int regainMinutes = 5;
  private volatile Limit limit = Limit.USER_17;
  private final AtomicInteger insightsCalls = new AtomicInteger();
  private final AtomicBoolean truncateNext = new AtomicBoolean();

  /** From now on the token is refused with 190, as one whose session was invalidated. */
  public void revokeToken() {
    revoked = true;
  }

  void restoreToken() {
    revoked = false;
  }

  /** Insights ranges longer than {@code days} are refused with {@code how}. */
  public void maxDays(int days, TooMuchData how) {
    maxDays = days;
    tooMuchData = how;
  }

  /**
   * Each insights call adds {@code percentPerCall} to the usage the headers report; a call that would take it past
   * 100 is refused with {@code limit}, and so is every call after, until {@link #resetUsage()}.
   */
  public void usage(int percentPerCall, Limit limit, int regainMinutes) {
    this.usageStep = percentPerCall;
    this.limit = limit;
    this.regainMinutes = regainMinutes;
  }

  public void resetUsage() {
    insightsCalls.set(0);
  }

  /** The next insights page that would be answered 200 is cut off mid-JSON, once. */
  public void truncateNextPage() {
    truncateNext.set(true);
  }

  boolean revoked() {
    return revoked;
  }

  static Failure invalidToken(boolean revoked) {
    String message = revoked ? "Error validating access token: The session has been invalidated because the user"
        + " changed their password or Facebook has changed the session for security reasons."
        : "Invalid OAuth access token - Cannot parse access token";
    return new Failure(400, error(190, null, "OAuthException", message));
  }

  Failure tooMuchData(long days) {
    if (days <= maxDays) {
      return null;
    }
    TooMuchData how = tooMuchData;
    return new Failure(how.status, error(how.code, how.subcode, how.code == 1 ? "OAuthException"
        : "GraphMethodException", "Please reduce the amount of data you're asking for, then retry your request"));
  }

  /** Counts an insights call: its usage percent (above 100: limited). */
  int countCall() {
    return insightsCalls.incrementAndGet() * usageStep;
  }

  Failure limited(int usage) {
    if (usage <= 100) {
      return null;
    }
    Limit l = limit;
    return new Failure(400, error(l.code(), l.subcode(), "OAuthException",
        "(#" + l.code() + ") User request limit reached"));
  }

  boolean takeTruncation() {
    return truncateNext.compareAndSet(true, false);
  }

  /**
   * The usage headers for an account at this percent: X-Business-Use-Case-Usage as documented (minutes to regain
   * when limited), X-FB-Ads-Insights-Throttle, and X-Ad-Account-Usage, whose shape our sources name but do not give
   * ({@code acc_id_util_pct}, {@code reset_time_duration}: unconfirmed).
   */
  Map<String, String> headers(String accountId, int usage) {
    int pct = Math.min(usage, 100);
    int regain = usage > 100 ? regainMinutes : 0;
    JsonObject buc = new JsonObject().put("type", "ads_insights").put("call_count", pct).put("total_cputime", pct / 2)
        .put("total_time", pct / 2).put("estimated_time_to_regain_access", regain);
    Map<String, String> headers = new LinkedHashMap<>();
    headers.put("X-Business-Use-Case-Usage", new JsonObject().put(accountId, new JsonArray().add(buc)).encode());
    headers.put("X-FB-Ads-Insights-Throttle",
        new JsonObject().put("app_id_util_pct", 0.01).put("acc_id_util_pct", pct).encode());
    headers.put("X-Ad-Account-Usage",
        new JsonObject().put("acc_id_util_pct", pct).put("reset_time_duration", regain * 60).encode());
    return headers;
  }

  static JsonObject error(int code, Integer subcode, String type, String message) {
    JsonObject error = new JsonObject().put("message", message).put("type", type).put("code", code);
    if (subcode != null) {
      error.put("error_subcode", subcode);
    }
    return new JsonObject().put("error", error.put("fbtrace_id", "AfTrAcE0" + code));
  }
}
