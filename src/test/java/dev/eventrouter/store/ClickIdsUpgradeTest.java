package dev.eventrouter.store;

import dev.eventrouter.config.DatabaseConfig;
import dev.eventrouter.config.Network;
import dev.eventrouter.db.Database;
import dev.eventrouter.db.PostgresServer;
import dev.eventrouter.event.ClickIds;
import dev.eventrouter.event.ClickSession;
import dev.eventrouter.event.EventIds;
import dev.eventrouter.support.TestDatabase;
import io.vertx.core.Vertx;
import io.vertx.junit5.VertxExtension;
import io.vertx.pgclient.PgConnectOptions;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Instant;
import java.util.List;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The upgrade to Google's and Snapchat's click ids (V31) from V30: a click captured before keeps every field and has
 * none of the new ids; its pending delivery is claimed once with its click; a capture after fills the new ids.
 */
@ExtendWith(VertxExtension.class)
class ClickIdsUpgradeTest {

  private static final UUID WS = UUID.fromString("31313131-3131-4131-8131-313131313131");

  @Test
  @DisplayName("a V30 click keeps its ids, its delivery is claimed with them, and a repeated capture adds gclid")
  void v30ClickKept(Vertx vertx) throws Exception {
    String url = TestDatabase.freshDatabaseUrl();
    var dataSource = PostgresServer.dataSource(PgConnectOptions.fromUri(url));
    Flyway.configure().dataSource(dataSource).locations("classpath:db/migration").target("30").load().migrate();
    long id = EventIds.firstIdAt(Instant.now().minusSeconds(600));
    try (Connection c = dataSource.getConnection(); Statement s = c.createStatement()) {
      s.execute("""
          INSERT INTO click_sessions (workspace_id, session_id, fbclid, ttclid, client_ip, clicked_at)
          VALUES ('%1$s', 's30', 'IwAR-30', 'E.C.P.30', '203.0.113.30', now() - interval '1 hour');
          INSERT INTO events (event_id, workspace_id, event_name, telegram_id, session_id, session_source, value,
                              currency, status, received_at)
          VALUES (%2$d, '%1$s', 'FTD', 30, 's30', 'supplied', 10, 'EUR', 'processed', now() - interval '10 minutes');
          INSERT INTO deliveries (event_id, workspace_id, integration_id, network, mapped_event, status, attempts,
                                  next_attempt_at)
          VALUES (%2$d, '%1$s', 'pixel', 'meta', 'Purchase', 'pending', 0, now() - interval '1 second')"""
          .formatted(WS, id));
    }

    DatabaseConfig config = new DatabaseConfig(url, Path.of("unused"), 4, 100, 2, 100, 30);
    Database database = Database.open(vertx, config, 10_000, 200).await();
    try {
      DeliveryStore store = new DeliveryStore(database.pool(), database.readPool(), Database.EVENT_FREE);
      store.follow(Network.META, List.of(WS), List.of("pixel")).await();
      List<ClaimedDelivery> claimed = store.claim(Network.META, 100, 60_000).await().jobs();
      assertThat(claimed).singleElement().satisfies(job -> {
        assertThat(job.eventId()).isEqualTo(id);
        assertThat(job.click().fbclid()).isEqualTo("IwAR-30");
        assertThat(job.click().ttclid()).isEqualTo("E.C.P.30");
        assertThat(job.click().clientIp()).isEqualTo("203.0.113.30");
        assertThat(job.click().ids()).isEqualTo(ClickIds.NONE);
      });

      new SessionStore(database.pool()).save(new ClickSession(WS, "s30", "IwAR-later", null, null, null, null,
          null, null, null, Instant.now(), null).withIds(new ClickIds("Cj0-later", null, null, "snap", null)))
          .await();
      var row = database.pool().query("SELECT fbclid, gclid, sccid FROM click_sessions WHERE session_id = 's30'")
          .execute().await().iterator().next();
      assertThat(row.getString("fbclid")).as("the first capture's id kept").isEqualTo("IwAR-30");
      assertThat(row.getString("gclid")).isEqualTo("Cj0-later");
      assertThat(row.getString("sccid")).isEqualTo("snap");
    } finally {
      database.close().await();
    }
  }
}
