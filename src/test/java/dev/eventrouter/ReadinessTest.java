package dev.eventrouter;

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

import static org.assertj.core.api.Assertions.assertThat;

/** Readiness against a real PostgreSQL whose schema is changed under the running node. */
@ExtendWith(VertxExtension.class)
class ReadinessTest {

  private static String downChecks(HttpResponse<Buffer> response) {
    return String.join(",", response.bodyAsJsonObject().getJsonArray("checks").stream().map(c -> (JsonObject) c)
        .filter(c -> c.getString("status").equals("DOWN")).map(c -> c.getString("id")).toList());
  }

  @Test
  @DisplayName("a database whose schema lacks this node's migration makes the node unready, naming migrations")
  void schemaMissing(Vertx vertx) {
    TestApp app = TestApp.start(vertx, TestApp.config(TestDatabase.freshDatabaseUrl()));
    try {
      String version = app.router().database().schemaVersion();
      assertThat(app.management("/health/ready").statusCode()).isEqualTo(200);

      app.rows("UPDATE flyway_schema_history SET success = false WHERE version = $1", version);
      HttpResponse<Buffer> unready = app.management("/health/ready");
      assertThat(unready.statusCode()).isEqualTo(503);
      assertThat(downChecks(unready)).isEqualTo("migrations");

      app.rows("UPDATE flyway_schema_history SET success = true WHERE version = $1", version);
      assertThat(app.management("/health/ready").statusCode()).isEqualTo(200);
    } finally {
      app.close();
    }
  }
}
