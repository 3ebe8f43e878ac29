package dev.eventrouter.api.postbacks;

import dev.eventrouter.bus.Addresses;
import dev.eventrouter.bus.BusFailure;
import dev.eventrouter.config.ApiKeys;
import dev.eventrouter.config.ConfigLoader;
import dev.eventrouter.config.HttpConfig;
import dev.eventrouter.config.WorkspaceConfig;
import dev.eventrouter.event.Postback;
import dev.eventrouter.http.AccessControl;
import dev.eventrouter.http.PostbackSources;
import dev.eventrouter.support.Await;
import dev.eventrouter.support.EdgeServer;
import dev.eventrouter.support.RawHttp;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.eventbus.Message;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.ext.web.client.WebClient;
import io.vertx.junit5.VertxExtension;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import java.util.stream.IntStream;

import static dev.eventrouter.support.ApiAssertions.assertError;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The postback route at the HTTP edge, the store's side of the bus answered by the test: the token, the source's
 * rate limit, parameters from the query, a form or JSON, the macro check, the errors, and what the store is handed.
 */
@ExtendWith(VertxExtension.class)
class PostbackEdgeUnitTest {

  private static final String WS = "7c9e6679-7425-40de-944b-e07fc1f90ae7";
  private static final String KEY = "edge-postback-key-1";
  private static final String TOKEN = "pb-edge-token-0123456789abc";
  private static final String PATH = "/api/v1/postbacks/" + TOKEN;
  /** The source's burst: more than any test but the rate limit's sends. */
  private static final int BURST = 8;

  private WebClient client;
  private int port;
  private final List<Message<JsonObject>> asked = new CopyOnWriteArrayList<>();
  private volatile Consumer<Message<JsonObject>> store = message -> message.reply(new JsonObject()
      .put("postback_id", "1").put("outcome", "matched").put("event_id", "evt_9").put("conversion_status", "approved"));

  private static WorkspaceConfig workspace(double burst) {
    JsonObject config = new JsonObject().put("database", new JsonObject().put("url", (Object) null))
        .put("workspaces", new JsonArray().add(new JsonObject().put("id", WS)
            .put("api_keys", new JsonArray().add(ApiKeys.configValue(KEY)))
            .put("rate_limit", new JsonObject().put("per_second", 0.001).put("burst", burst))
            .put("postback_sources", new JsonArray().add(new JsonObject().put("id", "casino")
                .put("token", ApiKeys.configValue(TOKEN))
                .put("macros", new JsonObject().put("click_id", "{subid}").put("value", "{payout}"))))));
    return new ConfigLoader(Map.of()).resolve(config).workspaces().get(0);
  }

  @BeforeEach
  void start(Vertx vertx) {
    for (String address : List.of(Addresses.POSTBACKS_RECORD, Addresses.POSTBACKS_LIST)) {
      Await.result(vertx.eventBus().<JsonObject>consumer(address, message -> {
        asked.add(message);
        store.accept(message);
      }).completion());
    }
    HttpConfig http = new HttpConfig("127.0.0.1", 0, 4096, 1, 500);
    AccessControl access = new AccessControl(List.of(workspace(BURST)), http, System::nanoTime);
    port = EdgeServer.deploy(vertx, http, access);
    client = WebClient.create(vertx);
  }

  @AfterEach
  void stop() {
    client.close();
  }

  private HttpResponse<Buffer> get(String pathAndQuery) {
    return Await.result(client.get(port, "127.0.0.1", pathAndQuery).send());
  }

  private HttpResponse<Buffer> post(String pathAndQuery, String type, String body) {
    return Await.result(client.post(port, "127.0.0.1", pathAndQuery).putHeader("Content-Type", type)
        .sendBuffer(Buffer.buffer(body)));
  }

  private Postback handed(int i) {
    return Postback.fromJson(asked.get(i).body());
  }

  @Test
  @DisplayName("a GET is read through the source's names and words, handed to the store, and its answer relayed")
  void get() {
    HttpResponse<Buffer> response = get(PATH + "?subid=ses_1&goal=deposit&payout=7.50&currency=eur&status=sale"
        + "&tid=T-1&api_key=secret-of-partner");
    assertThat(response.statusCode()).isEqualTo(200);
    assertThat(response.bodyAsJsonObject()).isEqualTo(new JsonObject().put("ok", true).put("data", new JsonObject()
        .put("postback_id", "1").put("outcome", "matched").put("event_id", "evt_9")
        .put("conversion_status", "approved")));
    Postback postback = handed(0);
    assertThat(asked.get(0).address()).isEqualTo(Addresses.POSTBACKS_RECORD);
    assertThat(postback.workspaceId().toString()).isEqualTo(WS);
    assertThat(postback.sourceId()).isEqualTo("casino");
    assertThat(postback.method()).isEqualTo("GET");
    assertThat(postback.clickId()).isEqualTo("ses_1");
    assertThat(postback.eventName()).isEqualTo("DEP");
    assertThat(postback.value()).isEqualByComparingTo(new BigDecimal("7.5"));
    assertThat(postback.currency()).isEqualTo("EUR");
    assertThat(postback.status()).isEqualTo("approved");
    assertThat(postback.transactionId()).isEqualTo("T-1");
    assertThat(postback.outcome()).isNull();
    assertThat(postback.params().getString("api_key")).isEqualTo("***");
    assertThat(postback.params().getString("subid")).isEqualTo("ses_1");
  }

  @Test
  @DisplayName("a form POST and a JSON POST are read like a GET; a query parameter wins over the body's; JSON "
      + "numbers and objects are read as their text")
  void bodies() {
    assertThat(post(PATH + "?goal=reg", "application/x-www-form-urlencoded; charset=UTF-8",
        "subid=ses_2&goal=ftd&status=pending").statusCode()).isEqualTo(200);
    assertThat(handed(0).eventName()).as("the query's").isEqualTo("REG");
    assertThat(handed(0).status()).isEqualTo("pending");
    assertThat(handed(0).method()).isEqualTo("POST");
    assertThat(post(PATH, "application/json", new JsonObject().put("click_id", "ses_3").put("event", "ftd")
        .put("amount", 12).put("meta", new JsonObject().put("a", 1)).put("none", (Object) null).encode())
        .statusCode()).isEqualTo(200);
    Postback json = handed(1);
    assertThat(json.clickId()).isEqualTo("ses_3");
    assertThat(json.value()).isEqualByComparingTo(new BigDecimal("12"));
    assertThat(json.params().getString("meta")).isEqualTo("{\"a\":1}");
    assertThat(json.params().containsKey("none")).isFalse();
    assertError(post(PATH, "text/plain", "subid=x"), 415, "unsupported_media_type");
    assertThat(asked).hasSize(2);
    assertError(Await.result(client.post(port, "127.0.0.1", PATH).sendBuffer(Buffer.buffer("subid=x"))), 415,
        "unsupported_media_type");
    assertThat(Await.result(client.post(port, "127.0.0.1", PATH + "?subid=ses_4&goal=reg")
        .sendBuffer(Buffer.buffer())).statusCode()).as("an empty body: the query alone").isEqualTo(200);
    assertThat(post(PATH, "application/json", new JsonObject().put("subid", "ses_5").put("goal", "reg")
        .put("sum", 3.25).put("flag", true).put("list", new JsonArray().add(1)).encode()).statusCode())
        .isEqualTo(200);
    assertThat(handed(3).params()).isEqualTo(new JsonObject().put("subid", "ses_5").put("goal", "reg")
        .put("sum", "3.25").put("flag", "true").put("list", "[1]"));
  }

  @Test
  @DisplayName("a request without a Host (HTTP/1.0) gets templates for localhost")
  void sourcesWithoutHost() {
    RawHttp.Response response = RawHttp.exchange(port, ("GET /api/v1/postback-sources HTTP/1.0\r\nx-api-key: " + KEY
        + "\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1));
    assertThat(response.json().getJsonObject("data").getJsonArray("sources").getJsonObject(0)
        .getString("url_template")).startsWith("http://localhost/api/v1/postbacks/<token>?");
  }

  @Test
  @DisplayName("an unknown or short token is a plain 404 and the store is never asked")
  void unknownToken() {
    assertError(get("/api/v1/postbacks/pb-edge-token-0123456789abd?subid=s"), 404, "not_found");
    assertError(get("/api/v1/postbacks/short?subid=s"), 404, "not_found");
    assertError(get("/api/v1/postbacks/" + "x".repeat(201)), 404, "not_found");
    assertThat(asked).isEmpty();
  }

  @Test
  @DisplayName("an unknown token's upload is refused 404 from its path, before its body is read: the connection is "
      + "closed with the rest unread, and the store is never asked")
  void unknownTokenBeforeTheBody() {
    String head = "POST /api/v1/postbacks/pb-edge-token-0123456789xyz HTTP/1.1\r\nHost: x\r\n"
        + "Content-Type: application/x-www-form-urlencoded\r\nContent-Length: 1048576\r\n\r\n";
    // The head and a first kilobyte of a 1 MiB body: the rest is never sent.
    RawHttp.Response answer = RawHttp.exchange(port, (head + "subid=s&goal=reg&p=" + "x".repeat(1000))
        .getBytes(StandardCharsets.ISO_8859_1));
    assertThat(answer.status()).isEqualTo(404);
    assertThat(answer.json().getJsonObject("error").getString("code")).isEqualTo("not_found");
    assertThat(answer.headers()).as("the rest of the body is not read").containsEntry("connection", "close");
    assertThat(asked).isEmpty();
  }

  @Test
  @DisplayName("a macro left unexpanded: 400 macro_not_expanded naming it, and logged with why")
  void macro() {
    HttpResponse<Buffer> response = get(PATH + "?subid=%7Bsubid%7D&goal=ftd&payout=1");
    assertError(response, 400, "macro_not_expanded");
    assertThat(response.bodyAsJsonObject().getJsonObject("error").getJsonArray("details").getJsonObject(0)
        .getString("field")).isEqualTo("subid");
    Postback logged = handed(0);
    assertThat(logged.outcome()).isEqualTo(Postback.MACRO_NOT_EXPANDED);
    assertThat(logged.detail()).contains("subid");
    assertThat(logged.params().getString("subid")).isEqualTo("{subid}");
  }

  @Test
  @DisplayName("a macro in a parameter whose name holds a line break and a link: the name is quoted as a parameter "
      + "name, in the answer and in the log's detail")
  void macroNameQuoted() {
    HttpResponse<Buffer> response = get(PATH + "?subid=s&goal=reg&x%0AALERT%3A+http%3A%2F%2Fevil={subid}");
    assertError(response, 400, "macro_not_expanded");
    assertThat(response.bodyAsJsonObject().getJsonObject("error").getJsonArray("details").getJsonObject(0)
        .getString("field")).isEqualTo("x?ALERT??http???evil");
    assertThat(handed(0).detail()).isEqualTo("parameter x?ALERT??http???evil holds an unexpanded macro");
  }

  @Test
  @DisplayName("a body is read raw within the route's limit: a form with a stray '%' is read leniently, chunked or "
      + "after 100-continue; past the limit, 413 whether declared or chunked")
  void rawBody() {
    assertThat(post(PATH, "application/x-www-form-urlencoded", "subid=ses_7&goal=reg&note=100%").statusCode())
        .isEqualTo(200);
    assertThat(handed(0).params().getString("note")).isEqualTo("100%");
    String form = "subid=ses_8&goal=reg";
    String chunked = "POST " + PATH + " HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\n"
        + "Transfer-Encoding: chunked\r\nConnection: close\r\n\r\n" + Integer.toHexString(form.length()) + "\r\n"
        + form + "\r\n0\r\n\r\n";
    try (RawHttp.Connection connection = RawHttp.Connection.open(port, chunked)) {
      assertThat(connection.answer().status()).isEqualTo(200);
    }
    assertThat(handed(1).clickId()).isEqualTo("ses_8");
    String expecting = "POST " + PATH + " HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\n"
        + "Content-Length: " + form.length() + "\r\nExpect: 100-continue\r\nConnection: close\r\n\r\n";
    try (RawHttp.Connection connection = RawHttp.Connection.open(port, expecting)) {
      assertThat(connection.head()).startsWith("HTTP/1.1 100 Continue");
      assertThat(connection.send(form).answer().status()).isEqualTo(200);
    }
    assertError(post(PATH, "application/x-www-form-urlencoded", "subid=s&x=" + "y".repeat(4096)), 413,
        "payload_too_large");
    String big = "y".repeat(3000);
    String over = "POST " + PATH + " HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\n"
        + "Transfer-Encoding: chunked\r\nConnection: close\r\n\r\n" + Integer.toHexString(big.length()) + "\r\n"
        + big + "\r\n" + Integer.toHexString(big.length()) + "\r\n" + big + "\r\n0\r\n\r\n";
    try (RawHttp.Connection connection = RawHttp.Connection.open(port, over)) {
      assertThat(connection.answer().status()).isEqualTo(413);
    }
    assertThat(asked).hasSize(3);
  }

  @Test
  @DisplayName("a body of exactly the limit is read, one byte more is 413; a declared one over it is refused from its "
      + "head, before a byte is sent; an HTTP/1.0 client is never told 100 Continue")
  void rawBodyBounds() {
    String form = "subid=ses_9&goal=reg&x=";
    assertThat(post(PATH, "application/x-www-form-urlencoded", form + "y".repeat(4096 - form.length()))
        .statusCode()).isEqualTo(200);
    assertError(post(PATH, "application/x-www-form-urlencoded", form + "y".repeat(4097 - form.length())), 413,
        "payload_too_large");
    try (RawHttp.Connection connection = RawHttp.Connection.open(port, "POST " + PATH + " HTTP/1.1\r\nHost: x\r\n"
        + "Content-Type: application/x-www-form-urlencoded\r\nContent-Length: 1000000\r\n\r\n")) {
      assertThat(connection.head()).startsWith("HTTP/1.1 413");
    }
    String body = "subid=ses_10&goal=reg";
    try (RawHttp.Connection connection = RawHttp.Connection.open(port, "POST " + PATH + " HTTP/1.0\r\n"
        + "Content-Type: application/x-www-form-urlencoded\r\nContent-Length: " + body.length()
        + "\r\nExpect: 100-continue\r\n\r\n" + body)) {
      assertThat(connection.answer().status()).as("the answer itself, no 100 before it").isEqualTo(200);
    }
    assertThat(asked).hasSize(2);
  }

  @Test
  @DisplayName("a query string Vert.x cannot decode is the documented 400 on any other route")
  void undecodableQuery() {
    assertError(Await.result(client.get(port, "127.0.0.1", "/api/v1/postback-sources?x=%zz")
        .putHeader("x-api-key", KEY).send()), 400, "bad_request");
    assertThat(Await.result(client.get(port, "127.0.0.1", "/api/v1/postback-sources?x=%41")
        .putHeader("x-api-key", KEY).send()).statusCode()).isEqualTo(200);
    assertThat(get(PATH + "?subid=s&goal=reg&x=%zz").statusCode()).as("the postback route's own").isEqualTo(200);
  }

  @Test
  @DisplayName("an invalid one: 400 validation_failed, logged as refused with the error; still 400 when the log "
      + "cannot be written")
  void refused() {
    assertError(get(PATH + "?subid=s&goal=ftd&payout=abc"), 400, "validation_failed");
    assertThat(handed(0).outcome()).isEqualTo(Postback.REFUSED);
    assertThat(handed(0).detail()).contains("payout");
    store = message -> message.fail(BusFailure.UNAVAILABLE, "down");
    assertError(get(PATH + "?subid=s&goal=ftd&payout=abc"), 400, "validation_failed");
  }

  @Test
  @DisplayName("a valid one the store cannot take: 503, so the partner retries")
  void unavailable() {
    store = message -> message.fail(BusFailure.UNAVAILABLE, "down");
    assertError(get(PATH + "?subid=s&goal=reg"), 503, "unavailable");
  }

  @Test
  @DisplayName("the source's own rate limit: 429 with Retry-After once its burst is spent")
  void rateLimited() {
    IntStream.range(0, BURST).forEach(i -> assertThat(get(PATH + "?subid=s&goal=reg").statusCode())
        .isEqualTo(200));
    HttpResponse<Buffer> limited = get(PATH + "?subid=s&goal=reg");
    assertError(limited, 429, "rate_limited");
    assertThat(limited.getHeader("Retry-After")).isNotNull();
    assertThat(asked).hasSize(BURST);
  }

  @Test
  @DisplayName("every parameter is read, in the order sent; the log keeps the first 50")
  void boundedParams() {
    StringBuilder query = new StringBuilder("?");
    IntStream.range(0, 60).forEach(i -> query.append("p").append(i).append("=v&"));
    assertThat(get(PATH + query + "subid=s&goal=reg").statusCode()).isEqualTo(200);
    assertThat(handed(0).clickId()).as("read past the 50th").isEqualTo("s");
    assertThat(handed(0).params().fieldNames()).hasSize(50).contains("p0", "p49").doesNotContain("p50", "subid");
  }

  @Test
  @DisplayName("the log asks the store with the key's workspace, the outcome and the page; bad ones are 400")
  void list() {
    store = message -> message.reply(new JsonObject().put("postbacks", new JsonArray()));
    HttpResponse<Buffer> page = Await.result(client.get(port, "127.0.0.1", "/api/v1/postbacks?outcome=unmatched"
        + "&before=40").putHeader("x-api-key", KEY).send());
    assertThat(page.statusCode()).isEqualTo(200);
    assertThat(asked.get(0).address()).isEqualTo(Addresses.POSTBACKS_LIST);
    assertThat(asked.get(0).body()).isEqualTo(new JsonObject().put("workspace_id", WS).put("before", 40L)
        .put("outcome", "unmatched").put("limit", 50));
    assertThat(Await.result(client.get(port, "127.0.0.1", "/api/v1/postbacks").putHeader("x-api-key", KEY).send())
        .statusCode()).isEqualTo(200);
    assertThat(asked.get(1).body().getLong("before")).isEqualTo(Long.MAX_VALUE);
    assertError(Await.result(client.get(port, "127.0.0.1", "/api/v1/postbacks?outcome=lost")
        .putHeader("x-api-key", KEY).send()), 400, "validation_failed");
    assertError(Await.result(client.get(port, "127.0.0.1", "/api/v1/postbacks?before=x")
        .putHeader("x-api-key", KEY).send()), 400, "validation_failed");
    assertError(Await.result(client.get(port, "127.0.0.1", "/api/v1/postbacks").send()), 401, "unauthorized");
    assertThat(asked).hasSize(2);
  }

  @Test
  @DisplayName("the sources' URL templates, from the address the request reached")
  void sources() {
    HttpResponse<Buffer> sources = Await.result(client.get(port, "127.0.0.1", "/api/v1/postback-sources")
        .putHeader("x-api-key", KEY).send());
    assertThat(sources.bodyAsJsonObject().getJsonObject("data")).isEqualTo(new JsonObject().put("sources",
        new JsonArray().add(new JsonObject().put("id", "casino").put("click_id_holds", "session_id")
            .put("url_template", "http://127.0.0.1:" + port + "/api/v1/postbacks/<token>?subid={subid}"
                + "&event={event}&payout={payout}&status={status}&tid={tid}"))));
  }

  @Test
  @DisplayName("a reload keeps a source's bucket when its limit is unchanged, and starts a new one when it changed")
  void reloadKeepsBucket() {
    long[] now = {0};
    PostbackSources first = new PostbackSources(List.of(workspace(1)), () -> now[0], null);
    PostbackSources.Entry entry = first.find(TOKEN);
    assertThat(first.tryAcquire(entry)).isZero();
    assertThat(first.tryAcquire(entry)).isPositive();
    PostbackSources same = new PostbackSources(List.of(workspace(1)), () -> now[0], first);
    assertThat(same.tryAcquire(same.find(TOKEN))).as("the spent bucket carried over").isPositive();
    PostbackSources changed = new PostbackSources(List.of(workspace(2)), () -> now[0], first);
    assertThat(changed.tryAcquire(changed.find(TOKEN))).as("a new limit, a new bucket").isZero();
    assertThat(first.find(null)).isNull();
  }

  @Test
  @DisplayName("tokens of 24 to 200 characters are looked up; shorter and longer ones never")
  void tokenLengths() {
    String shortest = "t".repeat(24);
    String longest = "u".repeat(200);
    JsonObject config = new JsonObject().put("database", new JsonObject().put("url", (Object) null))
        .put("workspaces", new JsonArray().add(new JsonObject().put("id", WS)
            .put("api_keys", new JsonArray().add(ApiKeys.configValue(KEY)))
            .put("postback_sources", new JsonArray()
                .add(new JsonObject().put("id", "a").put("token", ApiKeys.configValue(shortest)))
                .add(new JsonObject().put("id", "b").put("token", ApiKeys.configValue(longest)))
                .add(new JsonObject().put("id", "c").put("token", ApiKeys.configValue("v".repeat(23))))
                .add(new JsonObject().put("id", "d").put("token", ApiKeys.configValue("w".repeat(201)))))));
    PostbackSources sources = new PostbackSources(new ConfigLoader(Map.of()).resolve(config).workspaces(),
        System::nanoTime, null);
    assertThat(sources.find(shortest).source().id()).isEqualTo("a");
    assertThat(sources.find(longest).source().id()).isEqualTo("b");
    assertThat(sources.find("v".repeat(23))).isNull();
    assertThat(sources.find("w".repeat(201))).isNull();
  }
}
