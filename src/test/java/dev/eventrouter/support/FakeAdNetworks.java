package dev.eventrouter.support;

import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.handler.BodyHandler;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * A real HTTP server standing in for the Meta Conversions API, the TikTok Events API and the Snapchat Conversions API,
 * speaking their documented request formats and error bodies
 * (https://developers.facebook.com/docs/graph-api/guides/error-handling, TikTok's as RudderStack's tiktok_ads
 * destination reads them, Snapchat's in {@link FakeSnapchat}). By default it validates like them: the token, the
 * required fields, Meta's 7-day limit and its Purchase-without-value error, Snapchat's 37 days and hashes. A test can
 * script other answers. Snapchat's validate path is recorded as the network {@code snapchat/validate}.
 */
public final class FakeAdNetworks {

  public static final String META_TOKEN = "meta-token-5e1f0c2a";
  public static final String TIKTOK_TOKEN = "tiktok-token-9b7d44e1";
  public static final String SNAPCHAT_TOKEN = FakeSnapchat.TOKEN;
  public static final String SNAPCHAT_PIXEL = "5b4f1a0e-7d2c-4c1b-9a0f-2e3d4c5b6a79";

  /**
   * One request as received, when, the HTTP status it was answered (0: left hanging) and the address it came from
   * (a proxy's when it went through one).
   */
  public record Received(String network, String token, JsonObject body, int status, Instant at, String from) {

    public List<String> eventIds() {
      if (body.getValue("data") instanceof JsonArray data) {
        return data.stream().map(e -> ((JsonObject) e).getString("event_id")).toList();
      }
      JsonArray rows = body.getJsonArray("conversions", body.getJsonArray("conversionAdjustments", new JsonArray()));
      return rows.stream().map(e -> ((JsonObject) e).getString("orderId")).toList();
    }
  }

  /** A scripted answer; a null status leaves the request hanging. */
  public record Reply(Integer status, JsonObject body, Map<String, String> headers) {

    public static Reply of(int status, JsonObject body) {
      return new Reply(status, body, Map.of());
    }

    public static Reply hang() {
      return new Reply(null, null, Map.of());
    }
  }

  private final List<Received> received = new CopyOnWriteArrayList<>();
  private final Map<String, AtomicInteger> accepted = new ConcurrentHashMap<>();
  private volatile Function<JsonObject, Reply> metaScript = body -> null;
  private volatile Function<JsonObject, Reply> tiktokScript = body -> null;
  private volatile Function<JsonObject, Reply> snapchatScript = body -> null;
  private volatile Function<JsonObject, Reply> googleScript = body -> null;
  private final FakeGoogleAds google = new FakeGoogleAds();
  /** Google requests still to be taken but answered as lost: an outage after Google recorded them. */
  private final AtomicInteger lostGoogleAnswers = new AtomicInteger();
  private HttpServer server;

  public static FakeAdNetworks start(Vertx vertx) {
    FakeAdNetworks fake = new FakeAdNetworks();
    Router router = Router.router(vertx);
    // Snapchat's first: Meta's route would take /v3/<pixel>/events too.
    router.post("/v3/:pixel/events").handler(BodyHandler.create(false)).handler(rc -> fake.snapchat(rc, false));
    router.post("/v3/:pixel/events/validate").handler(BodyHandler.create(false))
        .handler(rc -> fake.snapchat(rc, true));
    router.post("/token").handler(BodyHandler.create(false)).handler(rc -> fake.answer(rc, "google_ads/token",
        null, new JsonObject(), fake.google.token(rc), false));
    router.postWithRegex("/v[0-9]+/customers/([0-9]+):uploadClickConversions").handler(BodyHandler.create(false))
        .handler(rc -> fake.google(rc, false));
    router.postWithRegex("/v[0-9]+/customers/([0-9]+):uploadConversionAdjustments")
        .handler(BodyHandler.create(false)).handler(rc -> fake.google(rc, true));
    router.post("/:version/:pixel/events").handler(BodyHandler.create(false)).handler(fake::meta);
    router.post("/open_api/v1.3/event/track/").handler(BodyHandler.create(false)).handler(fake::tiktok);
    fake.server = vertx.createHttpServer().requestHandler(router).listen(0, "127.0.0.1").await();
    return fake;
  }

  /**
   * A live Meta integration of a workspace's config, sending to the fakes at {@code base} (on loopback: allowed to
   * reach private networks).
   */
  public static JsonObject metaIntegration(String base) {
    return new JsonObject().put("id", "meta-main").put("type", "meta").put("pixel_id", "1234567890")
        .put("access_token", META_TOKEN).put("api_base", base).put("allow_private_network", true);
  }

  /** A live TikTok integration of a workspace's config, sending to the fakes at {@code base}. */
  public static JsonObject tiktokIntegration(String base) {
    return new JsonObject().put("id", "tiktok-main").put("type", "tiktok").put("pixel_code", "C4ABCDEF")
        .put("access_token", TIKTOK_TOKEN).put("api_base", base).put("allow_private_network", true);
  }

  /** A live Snapchat integration of a workspace's config, sending to the fakes at {@code base}. */
  public static JsonObject snapchatIntegration(String base) {
    return new JsonObject().put("id", "snap-main").put("type", "snapchat").put("pixel_id", SNAPCHAT_PIXEL)
        .put("access_token", SNAPCHAT_TOKEN).put("api_base", base).put("allow_private_network", true);
  }

  public String baseUrl() {
    return "http://127.0.0.1:" + server.actualPort();
  }

  public void stop() {
    server.close().await();
  }

  /** Answers Meta requests with the script's reply when it gives one, else as Meta would. */
  public void scriptMeta(Function<JsonObject, Reply> script) {
    metaScript = script;
  }

  public void scriptTikTok(Function<JsonObject, Reply> script) {
    tiktokScript = script;
  }

  public void scriptSnapchat(Function<JsonObject, Reply> script) {
    snapchatScript = script;
  }

  /** Google's side: its tokens, what it took. */
  public FakeGoogleAds google() {
    return google;
  }

  public void scriptGoogle(Function<JsonObject, Reply> script) {
    googleScript = script;
  }

  /** The next {@code requests} Google requests are taken as usual, but answered 503, as if the answer was lost. */
  public void loseGoogleAnswers(int requests) {
    lostGoogleAnswers.set(requests);
  }

  public void reset() {
    received.clear();
    accepted.clear();
    google.reset();
    googleScript = body -> null;
    lostGoogleAnswers.set(0);
    metaScript = body -> null;
    tiktokScript = body -> null;
    snapchatScript = body -> null;
  }

  public List<Received> received(String network) {
    return received.stream().filter(r -> r.network().equals(network)).toList();
  }

  /** How many times each event id was accepted (answered as a success) by the given network. */
  public Map<String, Integer> accepted(String network) {
    return accepted.entrySet().stream().filter(e -> e.getKey().startsWith(network + ":"))
        .collect(Collectors.toMap(e -> e.getKey().substring(network.length() + 1), e -> e.getValue().get()));
  }

  /** The last event with this id that the network received. */
  public JsonObject lastEvent(String network, String eventId) {
    for (int i = received.size() - 1; i >= 0; i--) {
      Received r = received.get(i);
      if (r.network().equals(network)) {
        for (Object event : r.body().getJsonArray("data")) {
          if (eventId.equals(((JsonObject) event).getString("event_id"))) {
            return (JsonObject) event;
          }
        }
      }
    }
    return null;
  }

  private void meta(RoutingContext rc) {
    JsonObject body = rc.body().asJsonObject();
    String token = rc.queryParams().get("access_token");
    Reply reply = metaScript.apply(body);
    if (reply == null) {
      reply = metaDefault(token, body);
    }
    answer(rc, "meta", token, body, reply, reply.status() != null && reply.status() / 100 == 2);
  }

  private static Reply metaDefault(String token, JsonObject body) {
    if (!META_TOKEN.equals(token)) {
      // The token is echoed on purpose: the worst an error message can do, so that redaction is really tested.
      return Reply.of(400, metaError(190, null, "Invalid OAuth access token - Cannot parse access token " + token));
    }
    JsonArray data = body.getJsonArray("data");
    long oldest = Instant.now().minusSeconds(7 * 86_400).getEpochSecond();
    for (Object item : data) {
      JsonObject event = (JsonObject) item;
      for (String field : new String[] {"event_name", "event_time", "action_source", "user_data"}) {
        if (event.getValue(field) == null) {
          return Reply.of(400, metaError(100, null, "Invalid parameter: " + field + " is required"));
        }
      }
      if (event.getLong("event_time") < oldest) {
        return Reply.of(400, metaError(100, 2804003, "Invalid parameter: event_time is more than 7 days ago"));
      }
      if ("Purchase".equals(event.getString("event_name"))
          && (event.getJsonObject("custom_data") == null || event.getJsonObject("custom_data").getValue("value") == null)) {
        return Reply.of(400, metaError(100, 2804009, "Missing Value for Purchase Event"));
      }
    }
    return Reply.of(200, new JsonObject().put("events_received", data.size()).put("messages", new JsonArray())
        .put("fbtrace_id", "AbCdEfGh"));
  }

  public static JsonObject metaError(int code, Integer subcode, String message) {
    JsonObject error = new JsonObject().put("message", message).put("type", code == 190 ? "OAuthException"
        : "GraphMethodException").put("code", code).put("fbtrace_id", "AbCdEfGh");
    if (subcode != null) {
      error.put("error_subcode", subcode);
    }
    return new JsonObject().put("error", error);
  }

  private void tiktok(RoutingContext rc) {
    JsonObject body = rc.body().asJsonObject();
    String token = rc.request().getHeader("Access-Token");
    Reply reply = tiktokScript.apply(body);
    if (reply == null) {
      reply = tiktokDefault(token, body);
    }
    boolean ok = reply.status() != null && reply.status() == 200 && reply.body() != null
        && Integer.valueOf(0).equals(reply.body().getInteger("code"));
    answer(rc, "tiktok", token, body, reply, ok);
  }

  private static Reply tiktokDefault(String token, JsonObject body) {
    if (!TIKTOK_TOKEN.equals(token)) {
      return Reply.of(200, tiktokCode(40105, "Access token " + token + " is incorrect or has been revoked."));
    }
    if (body.getString("event_source_id") == null || body.getString("event_source") == null) {
      return Reply.of(200, tiktokCode(40002, "event_source_id: Missing data for required field."));
    }
    JsonArray data = body.getJsonArray("data");
    for (int i = 0; i < data.size(); i++) {
      JsonObject event = data.getJsonObject(i);
      for (String field : new String[] {"event", "event_time", "event_id", "user"}) {
        if (event.getValue(field) == null) {
          return Reply.of(200, tiktokCode(40002, "data." + i + "." + field + ": Missing data for required field."));
        }
      }
      // page.url is required for web events (Events API 2.0, as RudderStack's TikTokTrackV2 mapping marks it).
      if ("web".equals(body.getString("event_source")) && (event.getJsonObject("page") == null
          || event.getJsonObject("page").getString("url") == null)) {
        return Reply.of(200, tiktokCode(40002, "data." + i + ".page.url: Missing data for required field."));
      }
    }
    return Reply.of(200, tiktokCode(0, "OK"));
  }

  private void snapchat(RoutingContext rc, boolean validate) {
    JsonObject body = rc.body().asJsonObject();
    String token = rc.queryParams().get("access_token");
    Reply reply = snapchatScript.apply(body);
    if (reply == null) {
      reply = FakeSnapchat.answer(token, body, validate);
    }
    boolean ok = !validate && reply.status() != null && reply.status() == 200;
    answer(rc, validate ? "snapchat/validate" : "snapchat", token, body, reply, ok);
  }

  private void google(RoutingContext rc, boolean adjust) {
    JsonObject body = rc.body().asJsonObject();
    Reply reply = googleScript.apply(body);
    if (reply == null) {
      reply = google.ads(rc, body, adjust);
      if (reply.status() == 200 && lostGoogleAnswers.getAndDecrement() > 0) {
        reply = FakeGoogleAds.failure(503, "UNAVAILABLE", "internalError", "TRANSIENT_ERROR", "The service is "
            + "currently unavailable.");
      }
    }
    answer(rc, adjust ? "google_ads/adjust" : "google_ads", rc.request().getHeader("Authorization"), body, reply,
        false);
  }

  /** Snapchat's 400 for the {@code event}-th event of a request. */
  public static Reply snapchatInvalid(int event, String message) {
    return FakeSnapchat.invalid(event, "E002", message);
  }

  public static JsonObject tiktokCode(int code, String message) {
    return new JsonObject().put("code", code).put("message", message).put("request_id", "202611220000")
        .put("data", new JsonObject());
  }

  private void answer(RoutingContext rc, String network, String token, JsonObject body, Reply reply,
                      boolean accepts) {
    received.add(new Received(network, token, body, reply.status() == null ? 0 : reply.status(), Instant.now(),
        rc.request().remoteAddress().hostAddress()));
    if (reply.status() == null) {
      return; // left hanging: the client's timeout decides
    }
    if (accepts) {
      body.getJsonArray("data").forEach(e -> accepted.computeIfAbsent(
          network + ":" + ((JsonObject) e).getString("event_id"), k -> new AtomicInteger()).incrementAndGet());
    }
    reply.headers().forEach((k, v) -> rc.response().putHeader(k, v));
    rc.response().setStatusCode(reply.status()).putHeader("Content-Type", "application/json")
        .end(reply.body() == null ? "" : reply.body().encode());
  }

}
