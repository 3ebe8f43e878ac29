package dev.eventrouter.config;

import dev.eventrouter.support.Await;
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

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;

import static dev.eventrouter.support.ApiAssertions.assertError;
import static org.assertj.core.api.Assertions.assertThat;

/** A workspace over its limit stays limited across reloads, and other workspaces never feel it. */
@ExtendWith(VertxExtension.class)
class RateLimitReloadTest {

  private static final Duration DEADLINE = Duration.ofSeconds(15);
  private static final int REQUESTS = 30;
  /** The LIMITED workspace's burst in the test config: two requests, then (at 0.01/s) nothing for minutes. */
  private static final int BURST = 2;

  @Test
  @DisplayName("one workspace hammered past its limit gets 429 while another gets only 200s; a reload does not refill it")
  void limitSurvivesReload(Vertx vertx, @TempDir Path dir) throws Exception {
    JsonObject config = TestApp.config(TestDatabase.freshDatabaseUrl());
    Path file = dir.resolve("config.json");
    Files.writeString(file, config.encodePrettily());
    ConfigLoader.Watched watched = new ConfigLoader(Map.of()).watch(vertx, file, 50).await();
    AtomicInteger scans = new AtomicInteger();
    watched.retriever().setBeforeScanHandler(v -> scans.incrementAndGet());
    TestApp app = TestApp.start(vertx, watched.live());
    LogCapture logs = LogCapture.start();
    try {
      List<Future<HttpResponse<Buffer>>> limited = app.postConcurrently(REQUESTS,
          i -> TestApp.jsonHeaders(TestApp.KEY_LIMITED), i -> event(TestApp.WS_LIMITED, i));
      List<Future<HttpResponse<Buffer>>> other = app.postConcurrently(REQUESTS,
          i -> TestApp.jsonHeaders(TestApp.KEY_B), i -> event(TestApp.WS_B, i));

      assertThat(limited.stream().filter(f -> f.result().statusCode() == 200)).hasSize(BURST);
      limited.stream().map(Future::result).filter(r -> r.statusCode() != 200).forEach(r -> {
        assertError(r, 429, "rate_limited");
        assertThat(Long.parseLong(r.getHeader("Retry-After"))).isPositive();
      });
      assertThat(other).allSatisfy(f -> assertThat(f.result().statusCode()).isEqualTo(200));

      Await.until("a few scans of the unchanged file", DEADLINE, () -> scans.get() >= 4);
      assertThat(logs.text()).as("an unchanged file is not reloaded").doesNotContain("config reloaded");

      config.getJsonArray("workspaces").getJsonObject(1).put("name", "renamed");
      Files.writeString(file, config.encodePrettily());
      Await.until("the reload", DEADLINE, () -> watched.live().current()
          .workspace(UUID.fromString(TestApp.WS_B)).orElseThrow().name().equals("renamed"));

      HttpResponse<Buffer> after = app.postEvent(TestApp.KEY_LIMITED, event(TestApp.WS_LIMITED, 99));
      assertError(after, 429, "rate_limited");
      assertThat(app.postEvent(TestApp.KEY_B, event(TestApp.WS_B, 99)).statusCode()).isEqualTo(200);
      assertThat(logs.text().split("config reloaded", -1)).as("exactly one reload").hasSize(2);
    } finally {
      logs.stop();
      watched.retriever().close();
      app.close();
    }
  }

  private static JsonObject event(String workspace, int i) {
    return new JsonObject().put("event_name", "REG").put("telegram_id", i + 1).put("workspace_id", workspace);
  }
}
