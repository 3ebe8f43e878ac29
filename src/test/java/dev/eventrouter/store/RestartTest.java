package dev.eventrouter.store;

import dev.eventrouter.support.TestApp;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

@ExtendWith(VertxExtension.class)
class RestartTest {

  @Test
  @DisplayName("the embedded PostgreSQL keeps events across a restart, and the restarted node issues new ids")
  void embeddedDataSurvivesRestart(Vertx vertx, @TempDir Path dataDir) {
    JsonObject config = TestApp.config(null);
    config.getJsonObject("database").putNull("url").put("data_dir", dataDir.toString());
    JsonObject event = new JsonObject().put("event_name", "REG").put("telegram_id", 5)
        .put("workspace_id", TestApp.WS_A);

    TestApp first = TestApp.start(vertx, config);
    String firstId = first.postEvent(TestApp.KEY_A, event).bodyAsJsonObject().getJsonObject("data")
        .getString("event_id");
    int firstNode = first.router().database().nodeId();
    first.close();

    TestApp second = TestApp.start(vertx, config);
    try {
      assertThat(second.rows("SELECT event_id FROM events").stream().map(r -> "evt_" + r.getLong(0)))
          .containsExactly(firstId);
      String secondId = second.postEvent(TestApp.KEY_A, event).bodyAsJsonObject().getJsonObject("data")
          .getString("event_id");
      assertThat(secondId).isNotEqualTo(firstId);
      assertThat(second.router().database().nodeId()).isNotEqualTo(firstNode);
      assertThat(second.count("events")).isEqualTo(2);
    } finally {
      second.close();
    }
  }
}
