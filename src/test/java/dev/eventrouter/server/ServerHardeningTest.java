package dev.eventrouter.server;

import dev.eventrouter.ServiceMetrics;
import dev.eventrouter.config.TelegramConfig;
import dev.eventrouter.http.ServerBudget;
import dev.eventrouter.support.Await;
import dev.eventrouter.support.RawHttp;
import dev.eventrouter.support.TestApp;
import dev.eventrouter.support.TestDatabase;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.PoolOptions;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.Consumer;

import static dev.eventrouter.support.ApiAssertions.assertError;
import static dev.eventrouter.support.TestApp.KEY_A;
import static dev.eventrouter.support.TestApp.WS_A;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * What an unauthenticated caller can make the public listener hold, tried over raw sockets against the real service:
 * connections, time, buffered bodies, metric series; and the request shapes it must refuse (h2c, smuggling).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ServerHardeningTest {

  private static final String EVENTS = "/api/v1/events/custom";
  private static final String SECRET = "telegram-secret-0123456789";
  private static final Duration DEADLINE = Duration.ofSeconds(20);

  private String databaseUrl;
  private Vertx vertx;
  private TestApp app;
  private final List<RawHttp.Connection> connections = new ArrayList<>();

  @BeforeAll
  void database() {
    databaseUrl = TestDatabase.freshDatabaseUrl();
  }

  /** A service whose http section is changed by {@code http}, on a Vert.x of its own with metrics. */
  private TestApp start(Consumer<JsonObject> http) {
    PrometheusMeterRegistry metrics = ServiceMetrics.registry();
    vertx = ServiceMetrics.builder(metrics).with(ServiceMetrics.options(true)).build();
    JsonObject config = TestApp.config(databaseUrl);
    http.accept(config.getJsonObject("http"));
    config.getJsonArray("workspaces").getJsonObject(0)
        .put("telegram", new JsonObject().put("webhook_secret", SECRET));
    app = TestApp.start(vertx, config, metrics);
    return app;
  }

  private RawHttp.Connection send(String text) {
    RawHttp.Connection connection = RawHttp.Connection.open(app.port(), text);
    connections.add(connection);
    return connection;
  }

  @AfterEach
  void stop() {
    connections.forEach(RawHttp.Connection::close);
    connections.clear();
    if (app != null) {
      app.close();
      app = null;
    }
    if (vertx != null) {
      vertx.close().await();
      vertx = null;
    }
  }

  @Test
  @DisplayName("an unauthenticated upload of 1 MiB is refused from its headers, before its body is sent, while a "
      + "valid event is taken: to the events API, the cost pushes (ours and Keitaro's), a workspace's webhook, one "
      + "bot's webhook (401), an unknown bot's (404)")
  void refusedBeforeTheBody() {
    start(http -> { });
    String body = "{\"event_name\":\"REG\"," + " ".repeat(900) + "\"telegram_id\":1}";
    String webhook = "/telegram/" + WS_A + "/webhook";
    String keitaro = "/admin_api/v1/campaigns/7/update_costs";
    List<String> targets = List.of(EVENTS, webhook, webhook + "/" + TestApp.BOT_A, webhook + "/no_such_bot",
        "/api/v1/costs", keitaro);
    List<RawHttp.Connection> uploads = new ArrayList<>();
    for (int i = 0; i < 100; i++) {
      String target = targets.get(i % targets.size());
      String credential = target.equals(keitaro) ? "Api-Key: wrong-key-" + i
          : target.startsWith("/api/") ? "x-api-key: wrong-key-" + i : TelegramConfig.SECRET_HEADER + ": wrong-" + i;
      // Only the head and the first kilobyte of a 1 MiB body: the rest is never sent.
      uploads.add(send("POST " + target + " HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n" + credential
          + "\r\nContent-Length: 1048576\r\n\r\n" + body));
    }
    HttpResponse<Buffer> valid = app.postEvent(KEY_A, new JsonObject().put("event_name", "REG")
        .put("telegram_id", 7).put("workspace_id", WS_A));
    assertThat(valid.statusCode()).isEqualTo(200);
    for (int i = 0; i < uploads.size(); i++) {
      RawHttp.Response answer = uploads.get(i).answer();
      if (targets.get(i % targets.size()).endsWith("/no_such_bot")) {
        assertError(answer, 404, "not_found");
      } else {
        assertError(answer, 401, "unauthorized");
      }
      assertThat(answer.headers()).as("the rest of the body is not read").containsEntry("connection", "close");
    }
    assertThat(app.metrics()).contains("event_router_http_buffered_bytes 0.0");
  }

  @Test
  @DisplayName("bodies being read beyond http.max_buffered_bytes are refused 503 with Retry-After before they are "
      + "read, and taken again once the bytes are freed")
  void bodyBudget() {
    start(http -> http.put("max_buffered_bytes", 4 * TestApp.MAX_BODY_BYTES));
    List<RawHttp.Connection> slow = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      slow.add(send("POST " + EVENTS + " HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nx-api-key: "
          + KEY_A + "\r\nContent-Length: " + TestApp.MAX_BODY_BYTES + "\r\n\r\n{"));
    }
    Await.until("four bodies reserved", DEADLINE,
        () -> app.metrics().contains("event_router_http_buffered_bytes " + 4.0 * TestApp.MAX_BODY_BYTES));
    JsonObject event = new JsonObject().put("event_name", "REG").put("telegram_id", 7).put("workspace_id", WS_A);
    HttpResponse<Buffer> refused = app.postEvent(KEY_A, event);
    assertError(refused, 503, "unavailable");
    assertThat(refused.getHeader("Retry-After")).isEqualTo(String.valueOf(ServerBudget.RETRY_AFTER_S));
    slow.get(0).close();
    Await.until("a freed reservation taken again", DEADLINE,
        () -> app.postEvent(KEY_A, event).statusCode() == 200);
  }

  @Test
  @DisplayName("a client that dribbles its request head or body is cut off after http.read_timeout_ms; a body still "
      + "coming is answered 408")
  void slowClients() {
    start(http -> http.put("read_timeout_ms", 600));
    RawHttp.Connection head = send("POST " + EVENTS + " HTTP/1.1\r\nHost: x\r\n");
    RawHttp.Connection body = send("POST " + EVENTS + " HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nx-api-key: "
        + KEY_A + "\r\nContent-Length: 200\r\n\r\n{");
    long started = System.nanoTime();
    boolean closed = false;
    // A byte every 100 ms on each: never idle, never done.
    while (!closed && Duration.ofNanos(System.nanoTime() - started).compareTo(DEADLINE) < 0) {
      head.send("X");
      body.send(" ");
      closed = head.closedWithin(100);
    }
    assertThat(closed).as("the dribbled head is cut off").isTrue();
    RawHttp.Response timedOut = body.answer();
    assertError(timedOut, 408, "request_timeout");
    assertThat(timedOut.headers()).containsEntry("connection", "close");
  }

  @Test
  @DisplayName("connections beyond http.max_connections are closed at once; one is taken again when another closes")
  void connectionCap() {
    start(http -> http.put("max_connections", 6).put("read_timeout_ms", 60_000));
    List<RawHttp.Connection> held = new ArrayList<>();
    for (int i = 0; i < 6; i++) {
      RawHttp.Connection connection = send("GET /health/live HTTP/1.1\r\nHost: x\r\n\r\n");
      assertThat(connection.head()).as("connection %d served", i).startsWith("HTTP/1.1 200");
      held.add(connection);
    }
    RawHttp.Connection refused = send("GET /health/live HTTP/1.1\r\nHost: x\r\n\r\n");
    assertThat(refused.answer().status()).as("closed without an answer").isZero();
    held.get(0).close();
    Await.until("a connection taken again", DEADLINE,
        () -> send("GET /health/live HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n").answer().status() == 200);
  }

  @Test
  @DisplayName("clear-text HTTP/2 is off: neither prior knowledge nor an Upgrade: h2c switches protocols")
  void noH2c() {
    start(http -> { });
    byte[] preface = "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1);
    RawHttp.Response priorKnowledge = RawHttp.exchange(app.port(), preface);
    // Read as HTTP/1.x, whose codec answers a version it does not serve (2.0) 501 by itself; with h2c on, the
    // answer would be an HTTP/2 SETTINGS frame, which RawHttp cannot parse.
    assertThat(priorKnowledge.status()).isEqualTo(501);
    RawHttp.Response upgrade = RawHttp.request(app.port(), "GET", "/health/live",
        java.util.Map.of("Connection", "Upgrade, HTTP2-Settings", "Upgrade", "h2c",
            "HTTP2-Settings", "AAMAAABkAAQCAAAAAAIAAAAA"), new byte[0]);
    assertThat(upgrade.status()).as("no 101 Switching Protocols").isEqualTo(200);
    assertThat(upgrade.json().getString("status")).isEqualTo("UP");
  }

  @Test
  @DisplayName("request smuggling: Transfer-Encoding \"chunked, identity\" beside a Content-Length is answered 400 and "
      + "closed; an overflowing chunk size closes the connection; the request hidden behind either is never answered")
  void smuggling() {
    start(http -> { });
    String head = "POST " + EVENTS + " HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nx-api-key: " + KEY_A
        + "\r\n";
    String hidden = "GET /health/live HTTP/1.1\r\nHost: x\r\n\r\n";
    RawHttp.Response chunkedIdentity = send(head
        + "Transfer-Encoding: chunked, identity\r\nContent-Length: 5\r\n\r\n0\r\n\r\n" + hidden).answer();
    assertError(chunkedIdentity, 400, "bad_request");
    assertThat(chunkedIdentity.headers()).containsEntry("connection", "close");
    assertThat(chunkedIdentity.text()).as("one answer only").doesNotContain("HTTP/1.1");
    // The codec finds the overflow while the body is read, and Vert.x closes the connection at once: the error it
    // raises reaches the route only after the close, so no 400 can be written; what matters is that the request
    // hidden behind the chunk is never read as one (Netty 4.2.10 answered it).
    RawHttp.Response overflow = send(head
        + "Transfer-Encoding: chunked\r\n\r\nFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF1\r\n{}\r\n0\r\n\r\n" + hidden).answer();
    assertThat(overflow.status()).as("closed, nothing answered").isZero();
    assertThat(app.count("events")).isZero();
  }

  @Test
  @DisplayName("5,000 requests with invented methods are answered 405 and leave the HTTP metric series flat")
  void inventedMethods() {
    start(http -> { });
    HttpClient client = vertx.createHttpClient(new PoolOptions().setHttp1MaxSize(16));
    Random random = new Random(25);
    sendInvented(client, random, 50);
    // A scrape is counted once its answer is sent: the first one's own series show in the second.
    httpSeries();
    long before = httpSeries();
    String beforeText = app.metrics();
    List<Integer> statuses = sendInvented(client, random, 5_000);
    assertThat(statuses).containsOnly(405);
    assertThat(httpSeries()).as("series after 5,000 invented methods: " + app.metrics().lines()
        .filter(l -> l.startsWith("vertx_http_server") && !beforeText.contains(l.substring(0, l.lastIndexOf(' '))))
        .toList()).isEqualTo(before);
    assertThat(app.metrics()).contains("method=\"OTHER\"").doesNotContain("method=\"X");
    client.close().await();
  }

  private List<Integer> sendInvented(HttpClient client, Random random, int count) {
    List<Future<Integer>> answers = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      StringBuilder method = new StringBuilder("X");
      random.ints(39, 'A', 'Z' + 1).forEach(c -> method.append((char) c));
      answers.add(client.request(new RequestOptions().setMethod(HttpMethod.valueOf(method.toString()))
              .setHost("127.0.0.1").setPort(app.port()).setURI("/health/live"))
          .compose(request -> request.send().compose(response -> response.body().map(b -> response)))
          .map(HttpClientResponse::statusCode));
    }
    return Future.all(answers).await().list();
  }

  /** The series of Vert.x's HTTP server meters in the scrape. */
  private long httpSeries() {
    return app.metrics().lines().filter(line -> line.startsWith("vertx_http_server")).count();
  }
}
