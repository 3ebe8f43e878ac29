package dev.eventrouter.db;

import dev.eventrouter.support.TestApp;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import io.vertx.sqlclient.Row;
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
      // The embedded server runs with what an acknowledged event and a write-heavy load need.
      Row settings = second.rows("SELECT current_setting('fsync') AS fsync, "
          + "current_setting('synchronous_commit') AS sync, current_setting('max_wal_size') AS max_wal, "
          + "current_setting('wal_compression') AS wal_compression, "
          + "current_setting('checkpoint_completion_target') AS spread, pg_size_bytes(current_setting('shared_buffers')) / 1048576 AS shared_mb").get(0);
      assertThat(settings.getString("fsync")).isEqualTo("on");
      assertThat(settings.getString("sync")).isEqualTo("on");
      assertThat(settings.getString("max_wal")).isEqualTo("8GB");
      assertThat(settings.getString("wal_compression")).isEqualTo("pglz");
      assertThat(settings.getString("spread")).isEqualTo("0.9");
      assertThat(settings.getLong("shared_mb")).isEqualTo(PostgresServer.sharedBuffersMb()).isBetween(128L, 2048L);
    } finally {
      second.close();
    }
  }
}
