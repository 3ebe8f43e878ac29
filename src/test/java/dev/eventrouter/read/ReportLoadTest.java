package dev.eventrouter.read;

import dev.eventrouter.support.Await;
import dev.eventrouter.support.TestApp;
import dev.eventrouter.support.TestDatabase;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.PoolOptions;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.ext.web.client.WebClient;
import io.vertx.ext.web.client.WebClientOptions;
import io.vertx.junit5.VertxExtension;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.RowSet;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.SqlConnection;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;

import static dev.eventrouter.support.ApiAssertions.assertError;
import static dev.eventrouter.support.TestApp.KEY_A;
import static dev.eventrouter.support.TestApp.KEY_B;
import static dev.eventrouter.support.TestApp.KEY_LIMITED;
import static dev.eventrouter.support.TestApp.WS_B;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Reports under load beside everything else, on the real service and PostgreSQL (the default pools: 8 write
 * connections, 4 read, 4 report, so 4 reports at once on a node and 2 of one workspace). The test holds every
 * report connection itself, so reports it lets through run as long as it wants (no report is slow by chance), and
 * checks what a load balancer and the other workspaces see meanwhile.
 */
@ExtendWith(VertxExtension.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ReportLoadTest {

  private static final Duration DEADLINE = Duration.ofSeconds(30);
  private static final String REPORT = "/api/v1/reports/funnel?group_by=utm_campaign&from=2025-11-28&to=2026-11-28";
  private static final int CONNECTIONS = 8;
  /** The report pool's queue: as many as its connections. */
  private static final int QUEUE = 8;

  private TestApp app;
  /** Many connections: reports waiting on some must not keep the test's other requests from going out. */
  private WebClient client;

  @BeforeAll
  void start(Vertx vertx) {
    JsonObject config = TestApp.config(TestDatabase.freshDatabaseUrl());
    // Reports the test holds wait for a report connection as long as their requester waits: longer than the test.
    config.getJsonObject("http").put("request_timeout_ms", 120_000);
    app = TestApp.start(vertx, config);
    client = WebClient.create(vertx, new WebClientOptions(), new PoolOptions().setHttp1MaxSize(200));
  }

  @AfterAll
  void stop() {
    client.close();
    app.close();
  }

  /** The pool reports read on. */
  private Pool reportPool() {
    return app.router().database().reportPool();
  }

  /** Every connection of the pool, taken by the test. */
  private static List<SqlConnection> hold(Pool pool) {
    List<SqlConnection> held = new ArrayList<>();
    for (int i = 0; i < CONNECTIONS; i++) {
      held.add(pool.getConnection().await());
    }
    return held;
  }

  private Future<HttpResponse<Buffer>> get(String path, String key) {
    var request = client.get(app.port(), "127.0.0.1", path);
    if (key != null) {
      request.putHeader("x-api-key", key);
    }
    return request.send();
  }

  private double running() {
    return app.metrics().lines().filter(l -> l.startsWith("event_router_reports_running "))
        .mapToDouble(l -> Double.parseDouble(l.substring(l.indexOf(' ') + 1))).findFirst().orElse(-1);
  }

  private static void limited(HttpResponse<Buffer> r, String message) {
    JsonObject error = assertError(r, 429, "rate_limited");
    assertThat(r.getHeader("Retry-After")).isEqualTo("1");
    assertThat(error.getString("message")).isEqualTo(message + "; retry after the Retry-After delay.");
  }

  @Test
  @DisplayName("while reports fill every report connection, 96 more with one workspace's key and one of another "
      + "workspace get 429 with Retry-After at once; /health/ready answers 200 throughout, and the other workspaces' "
      + "reads and events are answered")
  void reportsBesideReadiness() {
    List<SqlConnection> held = hold(reportPool());
    List<Future<HttpResponse<Buffer>>> admitted;
    try {
      admitted = List.of(get(REPORT, KEY_A), get(REPORT, KEY_A), get(REPORT, KEY_B), get(REPORT, KEY_B));
      Await.until("4 reports running", DEADLINE, () -> running() == 4);

      List<Future<HttpResponse<Buffer>>> excess = IntStream.range(0, 96).mapToObj(i -> get(REPORT, KEY_A)).toList();
      Future.join(excess).await();
      excess.forEach(r -> limited(r.result(), "This workspace runs as many reports at once as it may on this node "
          + "(reports.max_concurrent_per_workspace: 2)"));
      limited(get(REPORT, KEY_LIMITED).await(), "This node runs as many reports at once as it may "
          + "(reports.max_concurrent: 4)");

      for (int i = 0; i < 5; i++) {
        HttpResponse<Buffer> ready = get("/health/ready", null).await();
        assertThat(ready.statusCode()).as(ready.bodyAsString()).isEqualTo(200);
        HttpResponse<Buffer> detailed = app.management("/health/ready");
        assertThat(detailed.statusCode()).as(detailed.bodyAsString()).isEqualTo(200);
      }
      for (String read : List.of("/api/v1/postbacks", "/api/v1/events", "/api/v1/deliveries")) {
        HttpResponse<Buffer> r = get(read, KEY_B).await();
        assertThat(r.statusCode()).as(read + ": " + r.bodyAsString()).isEqualTo(200);
      }
      HttpResponse<Buffer> event = app.postEvent(KEY_B, new JsonObject().put("workspace_id", WS_B)
          .put("event_name", "REG").put("telegram_id", 42).put("session_id", "load-1"));
      assertThat(event.statusCode()).as(event.bodyAsString()).isEqualTo(200);

      assertThat(admitted).as("the reports let through were running all along").noneMatch(Future::isComplete);
    } finally {
      held.forEach(SqlConnection::close);
    }
    for (Future<HttpResponse<Buffer>> report : admitted) {
      HttpResponse<Buffer> r = report.await();
      assertThat(r.statusCode()).as(r.bodyAsString()).isEqualTo(200);
    }
    Await.until("no report running", DEADLINE, () -> running() == 0);
    assertThat(get(REPORT, KEY_A).await().statusCode()).isEqualTo(200);
  }

  @Test
  @DisplayName("the report pool's queue is bounded: what finds it full fails at once, and a report is answered 503 "
      + "with Retry-After, never a 500")
  void fullQueue() {
    Pool pool = reportPool();
    List<SqlConnection> held = hold(pool);
    List<Future<RowSet<Row>>> waiting = new ArrayList<>();
    try {
      for (int i = 0; i < 2 * QUEUE; i++) {
        waiting.add(pool.query("SELECT 1").execute());
      }
      Await.until("the queue full, what is beyond it refused", DEADLINE,
          () -> waiting.stream().filter(Future::failed).count() == QUEUE);
      waiting.stream().filter(Future::failed).forEach(refused -> assertThat(refused.cause())
          .hasMessageContaining("max wait queue size of " + QUEUE));

      HttpResponse<Buffer> r = get(REPORT, KEY_A).await();
      assertError(r, 503, "unavailable");
      assertThat(r.getHeader("Retry-After")).isNotNull();
    } finally {
      held.forEach(SqlConnection::close);
    }
    assertThat(waiting.stream().filter(f -> !f.failed()).map(f -> f.await().iterator().next().getInteger(0)))
        .as("the queued ones run once connections are free").containsExactly(1, 1, 1, 1, 1, 1, 1, 1);
    Await.until("no report running", DEADLINE, () -> running() == 0);
  }
}
