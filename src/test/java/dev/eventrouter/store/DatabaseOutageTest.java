package dev.eventrouter.store;

import dev.eventrouter.support.Await;
import dev.eventrouter.support.ControlledPostgres;
import dev.eventrouter.support.LoadLoop;
import dev.eventrouter.support.LogCapture;
import dev.eventrouter.support.TestApp;
import dev.eventrouter.support.TestDatabase;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.junit5.VertxExtension;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

import static dev.eventrouter.support.ApiAssertions.assertError;
import static org.assertj.core.api.Assertions.assertThat;

@ExtendWith(VertxExtension.class)
class DatabaseOutageTest {

  @Test
  @DisplayName("with PostgreSQL stopped every event gets 503 unavailable with Retry-After, never a 200; the node "
      + "turns unready naming the database, stays live, and its log lines name each request's id")
  void stoppedDatabaseGives503(Vertx vertx) {
    TestDatabase.Server server = TestDatabase.dedicatedServer();
    TestApp app = TestApp.start(vertx, TestApp.config(server.url("postgres")));
    LogCapture logs = LogCapture.start();
    try {
      JsonObject event = new JsonObject().put("event_name", "REG").put("telegram_id", 1)
          .put("workspace_id", TestApp.WS_A).put("user_data", new JsonObject().put("email", "outage@example.com"));
      assertThat(app.postEvent(TestApp.KEY_A, event).statusCode()).isEqualTo(200);
      JsonObject ready = app.management("/health/ready").bodyAsJsonObject();
      assertThat(ready.getString("status")).isEqualTo("UP");
      assertThat(ready.getJsonArray("checks").stream().map(c -> ((JsonObject) c).getString("id")))
          .containsExactlyInAnyOrder("database", "migrations", "config", "integrations");

      server.stop();

      HttpResponse<Buffer> unready = app.management("/health/ready");
      assertThat(unready.statusCode()).isEqualTo(503);
      assertThat(unready.bodyAsJsonObject().getJsonArray("checks").stream().map(c -> (JsonObject) c)
          .filter(c -> c.getString("status").equals("DOWN")).map(c -> c.getString("id")))
          .contains("database");
      assertThat(app.get("/health/live", null).statusCode()).isEqualTo(200);
      HttpResponse<Buffer> named = app.post("/api/v1/events/custom",
          TestApp.jsonHeaders(TestApp.KEY_A).add("X-Request-Id", "outage-req-1"), event.toBuffer());
      assertError(named, 503, "unavailable");
      assertThat(logs.mdcValues("request_id")).contains("outage-req-1");
      assertThat(logs.text()).contains("request outage-req-1: event not stored");

      for (int i = 0; i < 5; i++) {
        HttpResponse<Buffer> response = app.postEvent(TestApp.KEY_A, event.copy().put("telegram_id", 100 + i));
        JsonObject error = assertError(response, 503, "unavailable");
        assertThat(error.getString("message")).contains("not confirmed").contains("Idempotency-Key");
        assertThat(response.getHeader("Retry-After")).isEqualTo("5");
      }
      assertThat(logs.text()).contains("event not stored").doesNotContain("outage@example.com");
    } finally {
      logs.stop();
      app.close();
    }
  }

  @Test
  @DisplayName("PostgreSQL stopped and started under load: 503 with Retry-After meanwhile, every 200 stored, "
      + "recovery without a restart")
  void restartUnderLoad(Vertx vertx, @TempDir Path dir) {
    try (ControlledPostgres pg = ControlledPostgres.start(dir.resolve("pg"))) {
      TestApp app = TestApp.start(vertx, TestApp.config(pg.url()));
      try {
        LoadLoop load = LoadLoop.start(vertx, app.port(), TestApp.KEY_A, 8, DatabaseOutageTest::event);
        Await.until("events stored before the outage", DEADLINE, () -> load.count(200) >= 100);
        pg.stop();
        long okAtStop = load.count(200);
        Await.until("503s during the outage", DEADLINE, () -> load.count(503) >= 50);
        pg.startAgain();
        Await.until("events stored after the outage", DEADLINE, () -> load.count(200) >= okAtStop + 100);
        List<LoadLoop.Answer> answers = load.stop();

        assertThat(answers).as("every answer is a 200 or a 503 with Retry-After")
            .allSatisfy(a -> assertThat(a.status() == 200 || (a.status() == 503 && "5".equals(a.retryAfter())))
                .as("%s", a).isTrue());
        Set<Long> stored = app.rows("SELECT event_id FROM events").stream().map(r -> r.getLong(0))
            .collect(Collectors.toSet());
        List<LoadLoop.Answer> acknowledged = answers.stream().filter(a -> a.status() == 200).toList();
        assertThat(acknowledged).allSatisfy(a -> assertThat(stored).contains(Long.parseLong(a.eventId().substring(4))));
        System.out.printf("restart under load: %d stored and answered 200, %d answered 503, %d rows%n",
            acknowledged.size(), answers.size() - acknowledged.size(), stored.size());
      } finally {
        app.close();
      }
    }
  }

  @Test
  @DisplayName("PostgreSQL frozen past the request timeout: 503s; writes queued behind the stuck one are never stored")
  void frozenDatabase(Vertx vertx, @TempDir Path dir) {
    try (ControlledPostgres pg = ControlledPostgres.start(dir.resolve("pg"))) {
      JsonObject config = TestApp.config(pg.url());
      config.getJsonObject("http").put("request_timeout_ms", REQUEST_TIMEOUT_MS);
      // One write connection: the first batch is stuck in flight, so the later ones must wait in the queue.
      config.getJsonObject("database").put("pool_size", 1);
      TestApp app = TestApp.start(vertx, config);
      try {
        assertThat(app.postEvent(TestApp.KEY_A, event(1)).statusCode()).isEqualTo(200);
        pg.freeze();
        List<Future<HttpResponse<Buffer>>> stuck = post(app, 1000, WAVE);
        // Once the first wave is in flight on the only connection, the second can only queue behind it.
        List<Future<HttpResponse<Buffer>>> queued = post(app, 2000, WAVE);
        Future.join(stuck).await();
        Future.join(queued).await();
        pg.thaw();

        for (Future<HttpResponse<Buffer>> answer : concat(stuck, queued)) {
          HttpResponse<Buffer> response = answer.result();
          assertError(response, 503, "unavailable");
          assertThat(response.getHeader("Retry-After")).isEqualTo("5");
        }
        Await.until("the service to store again", DEADLINE,
            () -> app.postEvent(TestApp.KEY_A, event(3)).statusCode() == 200);
        Await.until("the stuck write to end", DEADLINE, () -> app.rows("SELECT count(*) FROM pg_stat_activity "
            + "WHERE application_name = 'event-router-write' AND state <> 'idle' AND pid <> pg_backend_pid()")
            .get(0).getLong(0) == 0);
        long lateCommits = storedBetween(app, 1000, 2000);
        System.out.printf("frozen database: %d of %d requests answered 503 while their write was already in "
            + "PostgreSQL were stored after it resumed (a 503 promises nothing either way)%n", lateCommits, WAVE);
        assertThat(storedBetween(app, 2000, 3000)).as("writes not started before their deadline are never stored")
            .isZero();
      } finally {
        app.close();
      }
    }
  }

  private static final long REQUEST_TIMEOUT_MS = 1_000;
  private static final int WAVE = 10;
  private static final Duration DEADLINE = Duration.ofSeconds(30);

  private static JsonObject event(int n) {
    return new JsonObject().put("event_name", "REG").put("telegram_id", n).put("workspace_id", TestApp.WS_A);
  }

  private static List<Future<HttpResponse<Buffer>>> post(TestApp app, int firstTelegramId, int n) {
    return app.sendEvents(n, i -> TestApp.jsonHeaders(TestApp.KEY_A), i -> event(firstTelegramId + i));
  }

  private static List<Future<HttpResponse<Buffer>>> concat(List<Future<HttpResponse<Buffer>>> a,
                                                           List<Future<HttpResponse<Buffer>>> b) {
    List<Future<HttpResponse<Buffer>>> all = new ArrayList<>(a);
    all.addAll(b);
    return all;
  }

  private static long storedBetween(TestApp app, long from, long to) {
    return app.rows("SELECT count(*) FROM events WHERE telegram_id >= $1 AND telegram_id < $2", from, to).get(0)
        .getLong(0);
  }
}
