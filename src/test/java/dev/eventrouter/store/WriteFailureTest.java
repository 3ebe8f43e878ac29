package dev.eventrouter.store;

import dev.eventrouter.config.ConfigLoader;
import dev.eventrouter.config.LiveConfig;
import dev.eventrouter.support.LogCapture;
import dev.eventrouter.support.TestApp;
import dev.eventrouter.support.TestDatabase;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.junit5.VertxExtension;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.util.Map;

import static dev.eventrouter.support.ApiAssertions.assertError;
import static org.assertj.core.api.Assertions.assertThat;

/** What a client is told when the write fails, with a faulty writer standing in for PostgreSQL. */
@ExtendWith(VertxExtension.class)
class WriteFailureTest {

  private static final JsonObject EVENT = new JsonObject().put("event_name", "REG").put("telegram_id", 7)
      .put("workspace_id", TestApp.WS_A).put("user_data", new JsonObject().put("email", "faulty@example.com"));

  @Test
  @DisplayName("a write that fails for availability is 503 unavailable with Retry-After, logged without user data")
  void unavailable(Vertx vertx) {
    FaultyEventWriter writer = FaultyEventWriter.connectionLost();
    TestApp app = start(vertx, writer);
    LogCapture logs = LogCapture.start();
    try {
      HttpResponse<Buffer> response = app.postEvent(TestApp.KEY_A, EVENT);
      JsonObject error = assertError(response, 503, "unavailable");
      assertThat(error.getString("message")).contains("not confirmed");
      assertThat(response.getHeader("Retry-After")).isEqualTo("5");
      assertThat(writer.writes()).isEqualTo(1);
      assertThat(logs.text()).contains("PostgreSQL error 08006").doesNotContain("faulty@example.com");
    } finally {
      logs.stop();
      app.close();
    }
  }

  @Test
  @DisplayName("a write refused for its data is 400 validation_failed quoting the SQLSTATE, never a 503 to retry")
  void refused(Vertx vertx) {
    TestApp app = start(vertx, FaultyEventWriter.refusesData());
    try {
      JsonObject error = assertError(app.postEvent(TestApp.KEY_A, EVENT), 400, "validation_failed");
      assertThat(error.getString("message")).contains("SQLSTATE 22P05").contains("not stored");
    } finally {
      app.close();
    }
  }

  private static TestApp start(Vertx vertx, EventWriter writer) {
    LiveConfig live = new LiveConfig(new ConfigLoader(Map.of()).resolve(TestApp.config(TestDatabase.freshDatabaseUrl())));
    return TestApp.start(vertx, live, database -> writer);
  }
}
