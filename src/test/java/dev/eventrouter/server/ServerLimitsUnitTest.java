package dev.eventrouter.server;

import dev.eventrouter.bus.Addresses;
import dev.eventrouter.bus.IngestReply;
import dev.eventrouter.common.StartupException;
import dev.eventrouter.config.ApiKeys;
import dev.eventrouter.config.HttpConfig;
import dev.eventrouter.config.ManagementConfig;
import dev.eventrouter.config.RateLimitConfig;
import dev.eventrouter.config.ReportsConfig;
import dev.eventrouter.config.WorkspaceConfig;
import dev.eventrouter.http.AccessControl;
import dev.eventrouter.http.ErrorResponder;
import dev.eventrouter.http.Methods;
import dev.eventrouter.http.MetricLabels;
import dev.eventrouter.http.ReportSlots;
import dev.eventrouter.http.ServerBudget;
import dev.eventrouter.http.SlowClients;
import dev.eventrouter.support.Await;
import dev.eventrouter.support.LogCapture;
import dev.eventrouter.support.RawHttp;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.healthchecks.HealthChecks;
import io.vertx.ext.healthchecks.Status;
import io.vertx.junit5.VertxExtension;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;

import static dev.eventrouter.support.ApiAssertions.assertError;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The public listener's own bounds, against an HttpVerticle whose store is a bus consumer of the test's: the body
 * budget, the connection cap, the read deadline, unknown methods, and what a refusal before the body says about the
 * connection. Raw sockets, so the bytes and their timing are the test's.
 */
@ExtendWith(VertxExtension.class)
class ServerLimitsUnitTest {

  private static final UUID WS = UUID.fromString("7c9e6679-7425-40de-944b-e07fc1f90ae7");
  private static final String KEY = "limits-key-0123456789abcdef";
  private static final int BODY = 2048;
  private static final Duration DEADLINE = Duration.ofSeconds(20);
  private static final String EVENT = "{\"event_name\":\"REG\",\"telegram_id\":42,\"workspace_id\":\"" + WS + "\"}";

  private final List<RawHttp.Connection> connections = new ArrayList<>();
  /** How long the store takes to answer an ingest request. */
  private final AtomicLong storeDelayMs = new AtomicLong();
  private ServerBudget budget;
  private int port;

  private int start(Vertx vertx, HttpConfig.ServerLimits limits) {
    byte[] hash = HexFormat.of().parseHex(ApiKeys.configValue(KEY).substring(ApiKeys.PREFIX.length()));
    WorkspaceConfig workspace = new WorkspaceConfig(WS, "w", List.of(hash), List.of(),
        new RateLimitConfig(1000, 1000), null, 28, List.of(), Map.of(), null);
    HttpConfig http = new HttpConfig("127.0.0.1", 0, BODY, 1, 5_000).withLimits(limits);
    vertx.eventBus().<JsonObject>consumer(Addresses.EVENTS_INGEST, message -> vertx.setTimer(
        Math.max(1, storeDelayMs.get()),
        id -> message.reply(new IngestReply("evt_1", "s", IngestReply.PROCESSED, false))));
    budget = new ServerBudget(limits);
    HttpVerticle verticle = new HttpVerticle(http, new AccessControl(List.of(workspace), http, System::nanoTime),
        new PrometheusMeterRegistry(PrometheusConfig.DEFAULT), HealthChecks.create(vertx), budget,
        new ReportSlots(ReportsConfig.DEFAULT));
    Await.result(vertx.deployVerticle(verticle));
    port = verticle.actualPort();
    return port;
  }

  private RawHttp.Connection open(String text) {
    RawHttp.Connection connection = RawHttp.Connection.open(port, text);
    connections.add(connection);
    return connection;
  }

  private static String post(String key, String body) {
    return "POST /api/v1/events/custom HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nx-api-key: " + key
        + "\r\nContent-Length: " + body.length() + "\r\n\r\n" + body;
  }

  @AfterEach
  void close() {
    connections.forEach(RawHttp.Connection::close);
  }

  @Test
  @DisplayName("a body reserves its Content-Length (or the route's limit when chunked) until its answer; beyond the "
      + "node's bound, 503 with Retry-After before the body is read; refused callers reserve nothing")
  void bodyBudget(Vertx vertx) {
    // Room for exactly what is held below and one event.
    start(vertx, new HttpConfig.ServerLimits(60, 60_000, 100, 100 + BODY + EVENT.length()));
    open(post("wrong-key", "").replace("Content-Length: 0", "Content-Length: " + BODY));
    open(post(KEY, "").replace("Content-Length: 0", "Content-Length: 100"));
    Await.until("100 bytes reserved", DEADLINE, () -> budget.buffered() == 100);
    RawHttp.Connection chunked = open("POST /api/v1/events/custom HTTP/1.1\r\nHost: x\r\nContent-Type: "
        + "application/json\r\nx-api-key: " + KEY + "\r\nTransfer-Encoding: chunked\r\n\r\n");
    Await.until("the route's limit reserved for a chunked body", DEADLINE, () -> budget.buffered() == 100 + BODY);
    RawHttp.Connection refusedConnection = open(post(KEY, EVENT.repeat(30).substring(0, BODY)));
    String refused = refusedConnection.head();
    assertThat(refused).startsWith("HTTP/1.1 503").containsIgnoringCase("retry-after: 1")
        .doesNotContainIgnoringCase("connection: close");
    assertThat(budget.buffered()).as("a refusal keeps nothing").isEqualTo(100 + BODY);
    assertThat(open(post(KEY, EVENT)).head()).as("a body that fits exactly").startsWith("HTTP/1.1 200")
        .containsIgnoringCase("X-Content-Type-Options: nosniff");
    chunked.send(Integer.toHexString(EVENT.length()) + "\r\n" + EVENT + "\r\n0\r\n\r\n");
    assertThat(chunked.head()).startsWith("HTTP/1.1 200");
    Await.until("released with its answer", DEADLINE, () -> budget.buffered() == 100);
    connections.get(1).close();
    Await.until("released when its connection closes", DEADLINE, () -> budget.buffered() == 0);
  }

  @Test
  @DisplayName("the connection cap: one more is closed at once, without an answer; a closed one frees its place")
  void connectionCap(Vertx vertx) {
    start(vertx, new HttpConfig.ServerLimits(60, 60_000, 2, 1 << 20));
    RawHttp.Connection first = open("GET /health/live HTTP/1.1\r\nHost: x\r\n\r\n");
    assertThat(first.head()).startsWith("HTTP/1.1 200");
    RawHttp.Connection second = open("GET /health/live HTTP/1.1\r\nHost: x\r\n\r\n");
    assertThat(second.head()).startsWith("HTTP/1.1 200");
    assertThat(budget.connections()).isEqualTo(2);
    assertThat(open("GET /health/live HTTP/1.1\r\nHost: x\r\n\r\n").answer().status()).isZero();
    assertThat(budget.connections()).as("the refused one is not counted").isEqualTo(2);
    first.close();
    Await.until("its place freed", DEADLINE, () -> budget.connections() == 1);
    assertThat(open("GET /health/live HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n").answer().status())
        .isEqualTo(200);
    Await.until("that one let go too", DEADLINE, () -> budget.connections() == 1);
    assertThat(budget.open()).isTrue();
    assertThat(budget.open()).as("the cap, counted directly").isFalse();
  }

  @Test
  @DisplayName("the read deadline: a head or body still coming is cut off (408 for a body); a request being answered, "
      + "or a connection's next request within the deadline, is not")
  void readDeadline(Vertx vertx) {
    start(vertx, new HttpConfig.ServerLimits(60, 600, 100, 1 << 20));
    RawHttp.Connection head = open("GET /health/live HTTP/1.1\r\nHost: x\r\n");
    RawHttp.Connection body = open(post(KEY, EVENT).substring(0, post(KEY, EVENT).length() - 5));
    RawHttp.Connection tooLarge = open(post(KEY, "{").replace("Content-Length: 1", "Content-Length: " + (BODY + 1)));
    // Still open a fraction of the deadline in: cut off neither at once nor early.
    assertThat(head.closedWithin(150)).isFalse();
    assertThat(head.closedWithin((int) DEADLINE.toMillis())).as("the head cut off").isTrue();
    RawHttp.Response timedOut = body.answer();
    assertError(timedOut, 408, "request_timeout");
    assertThat(timedOut.headers()).containsEntry("connection", "close");
    RawHttp.Response refused = tooLarge.answer();
    assertError(refused, 413, "payload_too_large");

    storeDelayMs.set(1_200);
    RawHttp.Connection slowStore = open(post(KEY, EVENT));
    assertThat(slowStore.head()).as("read in time, answered after the deadline").startsWith("HTTP/1.1 200");
    storeDelayMs.set(0);

    RawHttp.Connection keptAlive = open("GET /health/live HTTP/1.1\r\nHost: x\r\n\r\n");
    assertThat(keptAlive.head()).startsWith("HTTP/1.1 200");
    assertThat(keptAlive.closedWithin(300)).isFalse();
    keptAlive.send("GET /health/live HTTP/1.1\r\nHost: x\r\n\r\n");
    assertThat(keptAlive.head()).as("a next request within its own deadline").startsWith("HTTP/1.1 200");
    assertThat(keptAlive.closedWithin((int) DEADLINE.toMillis())).as("idle past the deadline after its answer")
        .isTrue();
    Await.until("every closed connection let go", DEADLINE, () -> budget.connections() == 0);
  }

  @Test
  @DisplayName("a chunk size past any number closes the connection as the client's error, with no error logged; the "
      + "budget's figures are gauges")
  void codecErrorsAndGauges(Vertx vertx) {
    start(vertx, new HttpConfig.ServerLimits(60, 60_000, 100, 1 << 20));
    LogCapture logs = LogCapture.start();
    try {
      RawHttp.Response overflow = open("POST /api/v1/events/custom HTTP/1.1\r\nHost: x\r\nContent-Type: "
          + "application/json\r\nx-api-key: " + KEY + "\r\nTransfer-Encoding: chunked\r\n\r\n"
          + "FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF1\r\n{}\r\n0\r\n\r\n").answer();
      assertThat(overflow.status()).isZero();
      Await.until("its reservation let go", DEADLINE, () -> budget.buffered() == 0);
      assertThat(logs.text()).doesNotContain("failed").doesNotContain("ERROR");
    } finally {
      logs.stop();
    }
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    assertThat(budget.bindTo(registry)).isSameAs(budget);
    open("GET /health/live HTTP/1.1\r\nHost: x\r\n\r\n").head();
    assertThat(registry.get("event_router.http.connections").gauge().value()).isEqualTo(budget.connections())
        .isPositive();
    assertThat(registry.get("event_router.http.buffered_bytes").gauge().value()).isZero();
  }

  @Test
  @DisplayName("the deadline is checked every quarter of it, between 50 ms and 1 s")
  void scanInterval() {
    for (long[] pair : new long[][] {{100, 50}, {200, 50}, {400, 100}, {4_000, 1_000}, {10_000, 1_000}}) {
      SlowClients clients = new SlowClients(new ServerBudget(new HttpConfig.ServerLimits(60, pair[0], 1, 1)),
          System::nanoTime);
      assertThat(clients.scanIntervalMs()).as("deadline %d ms", pair[0]).isEqualTo(pair[1]);
    }
  }

  @Test
  @DisplayName("a refusal before the body: a small body is read past and dropped and the connection kept; a larger or "
      + "chunked one is not read, and the connection closed")
  void refusalBeforeTheBody(Vertx vertx) {
    start(vertx, new HttpConfig.ServerLimits(60, 60_000, 100, 1 << 20));
    RawHttp.Connection small = open(post("wrong", EVENT));
    assertThat(small.head()).startsWith("HTTP/1.1 401").doesNotContainIgnoringCase("connection: close");
    small.send(post(KEY, EVENT));
    assertThat(small.head()).as("the next request on it").startsWith("HTTP/1.1 200");
    RawHttp.Response declared = open(post("wrong", "").replace("Content-Length: 0",
        "Content-Length: " + (ErrorResponder.SKIPPED_BODY_BYTES + 1))).answer();
    assertError(declared, 401, "unauthorized");
    assertThat(declared.headers()).containsEntry("connection", "close");
    assertThat(ErrorResponder.SKIPPED_BODY_BYTES).isEqualTo(64 * 1024);
    RawHttp.Response chunked = open(post("wrong", "").replace("Content-Length: 0", "Transfer-Encoding: chunked"))
        .answer();
    assertThat(chunked.headers()).containsEntry("connection", "close");
    RawHttp.Connection empty = open(post("wrong", ""));
    assertThat(empty.head()).startsWith("HTTP/1.1 401").doesNotContainIgnoringCase("connection: close");
    RawHttp.Connection get = open("GET /api/v1/events HTTP/1.1\r\nHost: x\r\nx-api-key: wrong\r\n\r\n");
    assertThat(get.head()).startsWith("HTTP/1.1 401").doesNotContainIgnoringCase("connection: close");
    assertThat(get.closedWithin(300)).as("kept alive").isFalse();
  }

  @Test
  @DisplayName("a method outside RFC 9110's and PATCH is answered 405 in the error body and its connection closed; "
      + "a served one on a path that has none is the router's 405, kept alive")
  void inventedMethods(Vertx vertx) {
    start(vertx, new HttpConfig.ServerLimits(60, 60_000, 100, 1 << 20));
    RawHttp.Response invented = open("BREW /health/live HTTP/1.1\r\nHost: x\r\n\r\n").answer();
    assertError(invented, 405, "method_not_allowed");
    assertThat(invented.headers()).containsEntry("connection", "close");
    RawHttp.Connection served = open("DELETE /health/live HTTP/1.1\r\nHost: x\r\n\r\n");
    assertThat(served.head()).startsWith("HTTP/1.1 405").doesNotContainIgnoringCase("connection: close");
    for (String method : Methods.SERVED) {
      assertThat(Methods.served(HttpMethod.valueOf(method))).as(method).isTrue();
    }
    for (String method : new String[] {"get", "BREW", "PROPFIND", "X"}) {
      assertThat(Methods.served(HttpMethod.valueOf(method))).as(method).isFalse();
    }
  }

  @Test
  @DisplayName("the HTTP meters' method label is bounded: another method is OTHER; past 100 values of a label, "
      + "further meters are dropped; other meters are left alone")
  void metricLabels() {
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    MetricLabels.bound(registry);
    Counter.builder("vertx.http.server.requests").tag("method", "GET").register(registry).increment();
    Counter.builder("vertx.http.server.requests").tag("method", "BREW").register(registry).increment();
    Counter.builder("vertx.http.server.requests").tag("method", "PROPFIND").register(registry).increment();
    assertThat(registry.find("vertx.http.server.requests").tag("method", "OTHER").counter().count()).isEqualTo(2);
    assertThat(registry.find("vertx.http.server.requests").tag("method", "GET").counter().count()).isEqualTo(1);
    for (int code = 100; code < 300; code++) {
      Counter.builder("vertx.http.server.responses").tag("code", String.valueOf(code)).register(registry);
    }
    assertThat(registry.find("vertx.http.server.responses").counters()).hasSize(MetricLabels.MAX_VALUES);
    Counter.builder("event_router.other").tag("method", "BREW").register(registry);
    assertThat(registry.find("event_router.other").tag("method", "BREW").counter()).as("not an HTTP meter")
        .isNotNull();
  }

  @Test
  @DisplayName("Content-Length as reserved: a number as given, the most a body can be when absent or unreadable; "
      + "a body error raised by Netty's codec is the client's (400)")
  void declaredLengthAndCodec() {
    assertThat(ServerBudget.declaredLength("12")).isEqualTo(12);
    assertThat(ServerBudget.declaredLength(" 7 ")).isEqualTo(7);
    assertThat(ServerBudget.declaredLength("0")).isZero();
    for (String unreadable : new String[] {null, "-1", "x", ""}) {
      assertThat(ServerBudget.declaredLength(unreadable)).as(String.valueOf(unreadable)).isEqualTo(Long.MAX_VALUE);
    }
    NumberFormatException codec = new NumberFormatException("Chunk size overflow");
    codec.setStackTrace(new StackTraceElement[] {
        new StackTraceElement("io.netty.handler.codec.http.HttpObjectDecoder", "getChunkSize", null, 1)});
    assertThat(ErrorResponder.fromCodec(codec)).isTrue();
    NumberFormatException ours = new NumberFormatException("x");
    ours.setStackTrace(new StackTraceElement[] {new StackTraceElement("dev.eventrouter.X", "y", null, 1)});
    assertThat(ErrorResponder.fromCodec(ours)).isFalse();
    assertThat(ErrorResponder.fromCodec(null)).isFalse();
    RuntimeException traceless = new RuntimeException();
    traceless.setStackTrace(new StackTraceElement[0]);
    assertThat(ErrorResponder.fromCodec(traceless)).isFalse();
  }

  @Test
  @DisplayName("the management listener answers an unknown path in the error body, and a port in use stops the start "
      + "with one line naming management.port")
  void managementListener(Vertx vertx) {
    HealthChecks checks = HealthChecks.create(vertx).register("database", promise -> promise.complete(Status.OK()));
    ManagementVerticle first = new ManagementVerticle(new ManagementConfig("127.0.0.1", 0, null),
        new PrometheusMeterRegistry(PrometheusConfig.DEFAULT), checks);
    Await.result(vertx.deployVerticle(first));
    port = first.actualPort();
    assertError(open("GET /nothing HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n").answer(), 404, "not_found");
    ManagementVerticle second = new ManagementVerticle(new ManagementConfig("127.0.0.1", port, null),
        new PrometheusMeterRegistry(PrometheusConfig.DEFAULT), checks);
    Throwable failure = Await.failure(vertx.deployVerticle(second));
    assertThat(failure).isInstanceOf(StartupException.class);
    assertThat(StartupException.explain(failure)).contains("management.host and management.port")
        .contains("set another management.port").doesNotContain("\n");
    Throwable other = Await.result(vertx.deployVerticle(new ManagementVerticle(
            new ManagementConfig("256.0.0.1", 0, null), new PrometheusMeterRegistry(PrometheusConfig.DEFAULT), checks))
        .transform(deployed -> io.vertx.core.Future.succeededFuture(deployed.cause())));
    assertThat(other).as("another failure is passed on as it is").isNotNull().isNotInstanceOf(StartupException.class)
        .hasMessageContaining("256.0.0.1");
  }
}
