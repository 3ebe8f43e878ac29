package dev.eventrouter.http;

import dev.eventrouter.support.LogCapture;
import dev.eventrouter.support.TestApp;
import dev.eventrouter.support.TestDatabase;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import static org.assertj.core.api.Assertions.assertThat;

@ExtendWith(VertxExtension.class)
class SecretsNotLoggedTest {

  private static final String SECRET_EMAIL = "very-private-4821@example.com";
  private static final String SECRET_PHONE = "+44 7700 900461";
  private static final String WRONG_KEY = "leaked-wrong-key-9931";
  private static final long TELEGRAM_ID = 7_310_554_298_117L;

  @Test
  @DisplayName("API keys, user_data and Telegram ids never reach the logs, on success or on any error")
  void noSecretsInLogs(Vertx vertx) {
    LogCapture logs = LogCapture.start();
    TestApp app = TestApp.start(vertx, TestApp.config(TestDatabase.freshDatabaseUrl()));
    try {
      JsonObject userData = new JsonObject().put("email", SECRET_EMAIL).put("phone", SECRET_PHONE);
      JsonObject event = new JsonObject().put("event_name", "Purchase").put("telegram_id", TELEGRAM_ID).put("value", 9.5)
          .put("workspace_id", TestApp.WS_A).put("user_data", userData);

      assertThat(app.postEvent(TestApp.KEY_A, event).statusCode()).isEqualTo(200);
      assertThat(app.postEvent(WRONG_KEY, event).statusCode()).isEqualTo(401);
      assertThat(app.postEvent(TestApp.KEY_B, event).statusCode()).isEqualTo(403);
      assertThat(app.postEvent(TestApp.KEY_A, event.copy().put("currency", "nope")).statusCode()).isEqualTo(400);
      assertThat(app.post("/api/v1/events/custom", TestApp.jsonHeaders(TestApp.KEY_A),
          Buffer.buffer("{\"user_data\": {\"email\": \"" + SECRET_EMAIL + "\"")).statusCode()).isEqualTo(400);
    } finally {
      app.close();
      logs.stop();
    }

    assertThat(logs.size()).as("the service logged something to check").isPositive();
    assertThat(logs.text())
        .doesNotContain(TestApp.KEY_A, TestApp.KEY_B, WRONG_KEY, SECRET_EMAIL, SECRET_PHONE,
            String.valueOf(TELEGRAM_ID));
  }
}
