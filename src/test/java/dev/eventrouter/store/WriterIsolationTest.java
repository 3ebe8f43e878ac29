package dev.eventrouter.store;

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

import java.util.List;

import static dev.eventrouter.support.ApiAssertions.assertError;
import static org.assertj.core.api.Assertions.assertThat;

/** One client's event that PostgreSQL refuses never fails the other events committed with it. */
@ExtendWith(VertxExtension.class)
class WriterIsolationTest {

  private static final int GOOD = 40;
  private static final int POISON_AT = 17;

  @Test
  @DisplayName("a poison event in a batch with good events of two workspaces: only it fails, with 400")
  void poisonEventFailsAlone(Vertx vertx) {
    JsonObject config = TestApp.config(TestDatabase.freshDatabaseUrl());
    // A long linger gathers all the concurrent requests into one group commit.
    config.getJsonObject("database").put("write_linger_ms", 200);
    TestApp app = TestApp.start(vertx, config);
    try {
      // What PostgreSQL refuses once our validation let it through: a real constraint, so a real SQLSTATE 23514.
      app.pool().query("ALTER TABLE events ADD CONSTRAINT no_poison CHECK (event_name <> 'POISON')").execute().await();
      List<Future<HttpResponse<Buffer>>> responses = app.postConcurrently(GOOD + 1,
          i -> TestApp.jsonHeaders(i % 2 == 0 ? TestApp.KEY_A : TestApp.KEY_B),
          i -> new JsonObject().put("event_name", i == POISON_AT ? "POISON" : "REG").put("telegram_id", i + 1)
              .put("workspace_id", i % 2 == 0 ? TestApp.WS_A : TestApp.WS_B));

      for (int i = 0; i <= GOOD; i++) {
        HttpResponse<Buffer> response = responses.get(i).result();
        if (i == POISON_AT) {
          JsonObject error = assertError(response, 400, "validation_failed");
          assertThat(error.getString("message")).contains("SQLSTATE 23514").contains("not stored");
        } else {
          assertThat(response.statusCode()).as("good event %d", i).isEqualTo(200);
        }
      }
      assertThat(app.count("events")).isEqualTo(GOOD);
      assertThat(app.rows("SELECT count(*) FROM events WHERE event_name = 'POISON'").get(0).getLong(0)).isZero();
      assertThat(app.rows("SELECT count(DISTINCT workspace_id) FROM events").get(0).getLong(0)).isEqualTo(2);
    } finally {
      app.close();
    }
  }

  @Test
  @DisplayName("a click session PostgreSQL refuses gets 400 saying so, not a 503 that invites endless retries")
  void refusedSessionIs400(Vertx vertx) {
    TestApp app = TestApp.start(vertx, TestApp.config(TestDatabase.freshDatabaseUrl()));
    try {
      app.pool().query("ALTER TABLE click_sessions ADD CONSTRAINT no_poison CHECK (session_id <> 'poison')")
          .execute().await();
      HttpResponse<Buffer> response = app.postJson("/api/v1/sessions", TestApp.KEY_A,
          new JsonObject().put("workspace_id", TestApp.WS_A).put("session_id", "poison"));
      JsonObject error = assertError(response, 400, "validation_failed");
      assertThat(error.getString("message")).contains("SQLSTATE 23514");
      assertThat(app.postJson("/api/v1/sessions", TestApp.KEY_A, new JsonObject().put("workspace_id", TestApp.WS_A)
          .put("session_id", "fine")).statusCode()).isEqualTo(200);
    } finally {
      app.close();
    }
  }
}
