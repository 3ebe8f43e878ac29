package dev.eventrouter.config;

import dev.eventrouter.forward.ForwardingTestConfig;
import dev.eventrouter.support.Await;
import dev.eventrouter.support.FakeAdNetworks;
import dev.eventrouter.support.LogCapture;
import dev.eventrouter.support.TestApp;
import dev.eventrouter.support.TestDatabase;
import io.vertx.config.ConfigRetriever;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

@ExtendWith(VertxExtension.class)
class ConfigReloadTest {

  private static final Duration DEADLINE = Duration.ofSeconds(15);

  @Test
  @DisplayName("a changed config file adds an integration and a key without restart; an invalid change is ignored")
  void reloadWithoutRestart(Vertx vertx, @TempDir Path dir) throws Exception {
    FakeAdNetworks fake = FakeAdNetworks.start(vertx);
    JsonObject withIntegrations = ForwardingTestConfig.config(TestDatabase.freshDatabaseUrl(), fake.baseUrl());
    JsonObject initial = withIntegrations.copy();
    initial.getJsonArray("workspaces").getJsonObject(0).put("integrations", new JsonArray());
    Path file = dir.resolve("config.json");
    Files.writeString(file, initial.encodePrettily());

    ConfigLoader.Watched watched = new ConfigLoader(Map.of()).watch(vertx, file, 100).await();
    LiveConfig live = watched.live();
    TestApp app = TestApp.start(vertx, live);
    ConfigRetriever watcher = watched.retriever();
    LogCapture logs = LogCapture.start();
    try {
      JsonObject event = new JsonObject().put("event_name", "REG").put("telegram_id", 1)
          .put("workspace_id", TestApp.WS_A);
      assertThat(app.postEvent(TestApp.KEY_A, event).statusCode()).isEqualTo(200);
      assertThat(app.count("deliveries")).isZero();

      String newKey = "reloaded-key-71c3";
      withIntegrations.getJsonArray("workspaces").getJsonObject(0).getJsonArray("api_keys")
          .add(ApiKeys.configValue(newKey));
      Files.writeString(file, withIntegrations.encodePrettily());
      Await.until("the new config to apply", DEADLINE, () -> !live.current()
          .workspace(UUID.fromString(TestApp.WS_A)).orElseThrow().integrations().isEmpty());

      var response = app.postEvent(newKey, event.copy().put("telegram_id", 2));
      assertThat(response.statusCode()).as("the key added by the reload works").isEqualTo(200);
      String eventId = response.bodyAsJsonObject().getJsonObject("data").getString("event_id");
      Await.until("the event to reach both networks", DEADLINE,
          () -> fake.accepted("meta").containsKey(eventId) && fake.accepted("tiktok").containsKey(eventId));

      Files.writeString(file, withIntegrations.copy().put("workspaces", "not an array").encode());
      Await.until("the invalid change to be logged", DEADLINE,
          () -> logs.text().contains("config change ignored"));
      assertThat(logs.text()).contains("workspaces: must be an array");
      assertThat(live.current().workspaces()).hasSize(3);
      assertThat(app.postEvent(newKey, event.copy().put("telegram_id", 3)).statusCode()).isEqualTo(200);
    } finally {
      logs.stop();
      watcher.close();
      app.close();
      fake.stop();
    }
  }
}
