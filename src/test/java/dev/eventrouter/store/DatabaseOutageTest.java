package dev.eventrouter.store;

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

import static dev.eventrouter.support.ApiAssertions.assertError;
import static org.assertj.core.api.Assertions.assertThat;

@ExtendWith(VertxExtension.class)
class DatabaseOutageTest {

  @Test
  @DisplayName("with PostgreSQL stopped every event gets 503 unavailable with Retry-After, never a 200")
  void stoppedDatabaseGives503(Vertx vertx) {
    TestDatabase.Server server = TestDatabase.dedicatedServer();
    TestApp app = TestApp.start(vertx, TestApp.config(server.url("postgres")));
    LogCapture logs = LogCapture.start();
    try {
      JsonObject event = new JsonObject().put("event_name", "REG").put("telegram_id", 1)
          .put("workspace_id", TestApp.WS_A).put("user_data", new JsonObject().put("email", "outage@example.com"));
      assertThat(app.postEvent(TestApp.KEY_A, event).statusCode()).isEqualTo(200);

      server.stop();

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
}
