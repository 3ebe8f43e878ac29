package dev.eventrouter.store;

import dev.eventrouter.config.DatabaseConfig;
import dev.eventrouter.config.Network;
import dev.eventrouter.db.Database;
import dev.eventrouter.db.PostgresServer;
import dev.eventrouter.event.ConversionEvent;
import dev.eventrouter.event.EventIds;
import dev.eventrouter.event.Resolution;
import dev.eventrouter.support.TestDatabase;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import io.vertx.pgclient.PgConnectOptions;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.math.BigDecimal;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import javax.sql.DataSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The upgrade to the cursors (V29) from a database whose outbox rows were written with their events: every delivery
 * kept in its state, what was due still sent once through the claims, nothing a cursor sends again.
 */
@ExtendWith(VertxExtension.class)
class DeliveryUpgradeTest {

  private static final UUID WS = UUID.fromString("29292929-2929-4929-8929-292929292929");

  /** The database at {@code url}, migrated as the release of that version left it. */
  private static DataSource migratedTo(String url, String version) {
    var dataSource = PostgresServer.dataSource(PgConnectOptions.fromUri(url));
    Flyway.configure().dataSource(dataSource).locations("classpath:db/migration").target(version).load().migrate();
    return dataSource;
  }

  @Test
  @DisplayName("pending, retrying, paused, failed and delivered rows of V28 keep their states; the due ones are "
      + "claimed once, the paused one stays held for its probe, and the cursors read only what is stored after")
  void upgradeKeepsEveryDelivery(Vertx vertx) throws Exception {
    String url = TestDatabase.freshDatabaseUrl();
    var dataSource = migratedTo(url, "28");
    long first = EventIds.firstIdAt(Instant.now().minusSeconds(600));
    String[] states = {"pending", "retrying", "paused", "failed", "delivered"};
    try (Connection c = dataSource.getConnection(); Statement s = c.createStatement()) {
      for (int i = 0; i < states.length; i++) {
        long id = first + i;
        s.execute("""
            INSERT INTO events (event_id, workspace_id, event_name, telegram_id, session_id, session_source, value,
                                currency, status, received_at)
            VALUES (%d, '%s', 'FTD', %d, NULL, 'none', 10, 'EUR', 'processed', now() - interval '10 minutes');
            INSERT INTO deliveries (event_id, workspace_id, integration_id, network, mapped_event, status, attempts,
                                    next_attempt_at)
            VALUES (%d, '%s', 'pixel', 'meta', 'Purchase', '%s', %d, now() - interval '1 second')"""
            .formatted(id, WS, 100 + i, id, WS, states[i], i == 0 ? 0 : 1));
      }
      s.execute("INSERT INTO integration_pauses (network, workspace_id, integration_id, reason, token_sha256) "
          + "VALUES ('meta', '" + WS + "', 'pixel', 'code 190', 'x')");
    }

    DatabaseConfig config = new DatabaseConfig(url, Path.of("unused"), 4, 100, 2, 100, 30);
    Database database = Database.open(vertx, config, 10_000, 200).await();
    try {
      DeliveryStore store = new DeliveryStore(database.pool(), database.readPool(), Database.EVENT_FREE);
      store.follow(Network.META, List.of(WS), List.of("pixel")).await();

      List<ClaimedDelivery> claimed = store.claim(Network.META, 100, 60_000).await().jobs();
      assertThat(claimed).extracting(ClaimedDelivery::eventId).containsExactlyInAnyOrder(first, first + 1);
      assertThat(store.claim(Network.META, 100, 60_000).await().jobs()).as("claimed once").isEmpty();
      List<String> kept = new ArrayList<>();
      database.pool().query("SELECT status FROM deliveries ORDER BY event_id").execute().await()
          .forEach(row -> kept.add(row.getString(0)));
      assertThat(kept).containsExactly(states);
      Pause pause = store.pauses(Network.META).await().get(0);
      assertThat(store.claimHeld(pause, 60_000).await()).extracting(ClaimedDelivery::eventId)
          .containsExactly(first + 2);

      // An event stored after the upgrade is found past the cursor; none of before is read again.
      ConversionEvent event = new ConversionEvent(WS, "FTD", 9, null, new BigDecimal("10"), "EUR", null, null);
      long after = EventIds.firstIdAt(Instant.now());
      new EventStore(database.pool()).insertBatch(List.of(new NewEvent(after, event, Instant.now(), null, null,
          Resolution.none(), List.of(new NewEvent.Delivery("pixel", "meta", "Purchase"))))).await();
      List<ClaimedDelivery> taken = store.claim(Network.META, 100, 60_000).await().jobs();
      assertThat(taken).extracting(ClaimedDelivery::eventId).containsExactly(after);
      store.delivered(taken, List.of(new JsonObject()), new int[1]).await();
      assertThat(database.pool().query("SELECT count(*) FROM deliveries").execute().await().iterator().next()
          .getLong(0)).isEqualTo(states.length + 1);
    } finally {
      database.close().await();
    }
  }

  @Test
  @DisplayName("from V29 (rows made claimed by a take, the cursor past them): the delivered row stays, the claimed "
      + "one comes due after its lease and is sent once, the event past the cursor is taken once")
  void upgradeFromRowsMadeByATake(Vertx vertx) throws Exception {
    String url = TestDatabase.freshDatabaseUrl();
    var dataSource = migratedTo(url, "29");
    long first = EventIds.firstIdAt(Instant.now().minusSeconds(600));
    try (Connection c = dataSource.getConnection(); Statement s = c.createStatement()) {
      for (int i = 0; i < 3; i++) {
        s.execute("""
            INSERT INTO events (event_id, workspace_id, event_name, telegram_id, session_id, session_source, value,
                                currency, status, received_at, deliver_to)
            VALUES (%d, '%s', 'FTD', %d, NULL, 'none', 10, 'EUR', 'processed', now() - interval '10 minutes',
                    '{"pixel": ["meta", "Purchase"]}')""".formatted(first + i, WS, 100 + i));
      }
      // V29's take made the rows of the first two, claimed, and moved the cursor past them; the first was sent.
      s.execute("""
          INSERT INTO deliveries (event_id, workspace_id, integration_id, network, mapped_event, status, attempts,
                                  next_attempt_at, claims)
          VALUES (%d, '%s', 'pixel', 'meta', 'Purchase', 'delivered', 1, now(), 0),
                 (%d, '%s', 'pixel', 'meta', 'Purchase', 'pending', 0, now() - interval '1 second', 1);
          INSERT INTO delivery_cursors (network, workspace_id, integration_id, tx, event_id, floor_id)
          SELECT 'meta', workspace_id, 'pixel', tx, event_id, event_id - 1000 FROM events WHERE event_id = %d"""
          .formatted(first, WS, first + 1, WS, first + 1));
    }

    DatabaseConfig config = new DatabaseConfig(url, Path.of("unused"), 4, 100, 2, 100, 30);
    Database database = Database.open(vertx, config, 10_000, 200).await();
    try {
      DeliveryStore store = new DeliveryStore(database.pool(), database.readPool(), Database.EVENT_FREE);
      store.follow(Network.META, List.of(WS), List.of("pixel")).await();

      Claim claim = store.claim(Network.META, 100, 60_000).await();
      assertThat(claim.jobs()).extracting(ClaimedDelivery::eventId).containsExactly(first + 1, first + 2);
      assertThat(claim.jobs()).extracting(ClaimedDelivery::rowless).containsExactly(false, true);
      store.delivered(claim.jobs(), List.of(new JsonObject(), new JsonObject()), new int[2]).await();
      store.settle(Network.META, claim).await();

      assertThat(store.claim(Network.META, 100, 60_000).await().jobs()).as("each sent once").isEmpty();
      List<String> rows = new ArrayList<>();
      database.pool().query("SELECT event_id, status FROM deliveries ORDER BY event_id").execute().await()
          .forEach(row -> rows.add((row.getLong(0) - first) + " " + row.getString(1)));
      assertThat(rows).containsExactly("0 delivered", "1 delivered", "2 delivered");
    } finally {
      database.close().await();
    }
  }
}
