package dev.eventrouter.db;

import dev.eventrouter.support.TestApp;
import dev.eventrouter.support.TestDatabase;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.junit5.VertxExtension;
import io.vertx.pgclient.PgConnectOptions;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import javax.sql.DataSource;

import static org.assertj.core.api.Assertions.assertThat;

@ExtendWith(VertxExtension.class)
class GracefulStopTest {

  @Test
  @DisplayName("stopping the service lets a request under way commit its event and get its 200")
  void inFlightRequestCompletes(Vertx vertx) throws Exception {
    String url = TestDatabase.freshDatabaseUrl();
    DataSource db = PostgresServer.dataSource(PgConnectOptions.fromUri(url));
    TestApp app = TestApp.start(vertx, TestApp.config(url));
    JsonObject event = new JsonObject().put("event_name", "REG").put("telegram_id", 9)
        .put("workspace_id", TestApp.WS_A);

    Future<HttpResponse<Buffer>> response;
    Future<Void> stopped;
    try (Connection lock = db.getConnection()) {
      // Hold the table so the request's insert waits, provably in flight, while the service is told to stop.
      lock.setAutoCommit(false);
      lock.createStatement().execute("LOCK TABLE events IN EXCLUSIVE MODE");
      response = app.client().post(app.port(), "127.0.0.1", "/api/v1/events/custom")
          .putHeaders(TestApp.jsonHeaders(TestApp.KEY_A)).sendBuffer(event.toBuffer());
      awaitBlockedInsert(db);
      // Stop only the service: the test's client must stay open to read the answer.
      stopped = app.router().close();
      lock.commit();
    }

    assertThat(response.await().statusCode()).isEqualTo(200);
    stopped.await();
    app.client().close();
    try (Connection c = db.getConnection(); Statement s = c.createStatement();
         ResultSet rs = s.executeQuery("SELECT count(*) FROM events")) {
      rs.next();
      assertThat(rs.getLong(1)).isEqualTo(1);
    }
  }

  /** Polls, with a deadline, until an insert into events waits on the lock. */
  private static void awaitBlockedInsert(DataSource db) throws Exception {
    Instant deadline = Instant.now().plus(Duration.ofSeconds(10));
    try (Connection c = db.getConnection(); Statement s = c.createStatement()) {
      while (Instant.now().isBefore(deadline)) {
        try (ResultSet rs = s.executeQuery("SELECT count(*) FROM pg_stat_activity "
            + "WHERE wait_event_type = 'Lock' AND query LIKE '%INSERT INTO events%' AND pid <> pg_backend_pid()")) {
          rs.next();
          if (rs.getLong(1) > 0) {
            return;
          }
        }
        Thread.onSpinWait();
      }
    }
    throw new AssertionError("the insert never reached the lock");
  }
}
