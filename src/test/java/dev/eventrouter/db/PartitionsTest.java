package dev.eventrouter.db;

import dev.eventrouter.config.DatabaseConfig;
import dev.eventrouter.config.Network;
import dev.eventrouter.event.ConversionEvent;
import dev.eventrouter.event.EventIds;
import dev.eventrouter.event.Resolution;
import dev.eventrouter.store.Claim;
import dev.eventrouter.store.ClaimedDelivery;
import dev.eventrouter.store.DeliveryStore;
import dev.eventrouter.store.DeliveryViews;
import dev.eventrouter.store.EventStore;
import dev.eventrouter.store.EventViews;
import dev.eventrouter.store.NewEvent;
import dev.eventrouter.support.TestDatabase;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import io.vertx.pgclient.PgConnectOptions;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.SqlConnection;
import io.vertx.sqlclient.Tuple;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.math.BigDecimal;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Day partitions of events and deliveries: created ahead, dropped whole past the retention, and migrated into. */
@ExtendWith(VertxExtension.class)
class PartitionsTest {

  private static final UUID WS = UUID.fromString("55555555-5555-4555-8555-555555555555");
  private static final LocalDate TODAY = LocalDate.now(ZoneOffset.UTC);

  private Database database;

  @AfterEach
  void close() {
    if (database != null) {
      database.close().await();
    }
  }

  private Database open(Vertx vertx, String url) {
    database = Database.open(vertx, new DatabaseConfig(url, Path.of("unused"), 2, 100, 0, 100, 30), 10_000, 200)
        .await();
    return database;
  }

  /** An event with an id of the given day, at noon UTC, with one delivery. */
  private static NewEvent eventOn(LocalDate day, long telegramId) {
    Instant at = day.atTime(12, 0).toInstant(ZoneOffset.UTC);
    ConversionEvent event = new ConversionEvent(WS, "DEP", telegramId, "s" + telegramId, BigDecimal.TEN, "EUR", null, null);
    return new NewEvent(EventIds.firstIdAt(at) + telegramId, event, at, null, null, Resolution.supplied("s" + telegramId),
        List.of(new NewEvent.Delivery("meta-main", "meta", "Purchase")));
  }

  /**
   * A forwarder's claim whose processing ended without an outcome: the events stored so far taken past the cursor
   * (DeliveryCursors), and their rows made by the settle, due again.
   */
  private List<ClaimedDelivery> claimed() {
    DeliveryStore deliveries = new DeliveryStore(database.pool(), database.readPool(), Database.EVENT_FREE);
    deliveries.follow(Network.META, List.of(WS), List.of("meta-main")).await();
    Claim claim = deliveries.claim(Network.META, 10, 60_000).await();
    deliveries.settle(Network.META, claim).await();
    return claim.jobs();
  }

  private List<String> partitions(String table) {
    List<String> names = new ArrayList<>();
    database.pool().query("""
            SELECT c.relname FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
             WHERE i.inhparent = '%s'::regclass ORDER BY 1""".formatted(table)).execute().await()
        .forEach(row -> names.add(row.getString(0)));
    return names;
  }

  private long count(String sql, Object... params) {
    return database.pool().preparedQuery(sql).execute(Tuple.from(params)).await().iterator().next().getLong(0);
  }

  @Test
  @DisplayName("a new database has today's partitions and those of the days ahead, for both tables")
  void createdAhead(Vertx vertx) {
    open(vertx, TestDatabase.freshDatabaseUrl());

    for (String table : Partitions.TABLES) {
      List<String> expected = new ArrayList<>();
      for (int d = 0; d <= Partitions.DAYS_AHEAD; d++) {
        expected.add(Partitions.name(table, TODAY.plusDays(d)));
      }
      assertThat(partitions(table)).as(table).containsExactlyElementsOf(expected);
    }
    Partitions.Round again = database.maintainPartitions().await();
    assertThat(again.ran()).isTrue();
    assertThat(again.created()).as("a second round within the day has nothing to do").isEmpty();
    assertThat(again.dropped()).isEmpty();
  }

  @Test
  @DisplayName("events of different days land in their own partitions and are found by id, with their deliveries")
  void acrossDays(Vertx vertx) {
    open(vertx, TestDatabase.freshDatabaseUrl());
    EventStore events = new EventStore(database.pool());
    EventViews views = new EventViews(database.readPool());
    DeliveryViews deliveries = new DeliveryViews(database.pool(), database.readPool());
    NewEvent today = eventOn(TODAY, 1);
    NewEvent later = eventOn(TODAY.plusDays(2), 2);

    events.insertBatch(List.of(today, later)).await();
    assertThat(claimed()).hasSize(2);

    assertThat(count("SELECT count(*) FROM " + Partitions.name("events", TODAY.plusDays(2)))).isEqualTo(1);
    assertThat(count("SELECT count(*) FROM " + Partitions.name("deliveries", TODAY.plusDays(2)))).isEqualTo(1);
    for (NewEvent e : List.of(today, later)) {
      assertThat(views.find(WS, e.eventId(), null).await()).get()
          .satisfies(json -> assertThat(json.getLong("telegram_id")).isEqualTo(e.event().telegramId()));
      assertThat(deliveries.forEvent(e.eventId()).await().getJsonObject(0).getString("status"))
          .isEqualTo("pending");
    }
  }

  @Test
  @DisplayName("outcomes reach deliveries in every partition: a claim and its outcome address both ids")
  void outcomesAcrossDays(Vertx vertx) {
    open(vertx, TestDatabase.freshDatabaseUrl());
    new EventStore(database.pool())
        .insertBatch(List.of(eventOn(TODAY, 1), eventOn(TODAY.plusDays(1), 2))).await();
    DeliveryStore deliveries = new DeliveryStore(database.pool(), database.readPool(), Database.EVENT_FREE);

    assertThat(claimed()).hasSize(2);
    List<ClaimedDelivery> claimed = deliveries.claim(Network.META, 10, 60_000).await().jobs();
    assertThat(claimed).hasSize(2).noneMatch(ClaimedDelivery::rowless);
    deliveries.delivered(claimed, claimed.stream().map(c -> new JsonObject()).toList(), new int[claimed.size()]).await();

    assertThat(count("SELECT count(*) FROM deliveries WHERE status = 'delivered' AND attempts = 1")).isEqualTo(2);
  }

  @Test
  @DisplayName("days wholly older than the retention are dropped whole, events and deliveries alike; younger stay")
  void retention(Vertx vertx) {
    open(vertx, TestDatabase.freshDatabaseUrl());
    LocalDate future = TODAY.plusDays(40);
    // The days up to "future" exist, as they would have had the service run all along.
    assertThat(Partitions.maintain(database.pool(), future.minusDays(Partitions.DAYS_AHEAD), 3650).await().created())
        .isNotEmpty();
    EventStore events = new EventStore(database.pool());
    EventViews views = new EventViews(database.readPool());
    NewEvent old = eventOn(TODAY.plusDays(2), 1);
    NewEvent edge = eventOn(future.minusDays(30), 2);
    NewEvent young = eventOn(future.minusDays(29), 3);
    events.insertBatch(List.of(old, edge, young)).await();
    assertThat(claimed()).hasSize(3);

    Partitions.Round round = Partitions.maintain(database.pool(), future, 30).await();

    LocalDate cutoff = future.minusDays(30);
    assertThat(round.dropped()).contains(Partitions.name("events", TODAY), Partitions.name("deliveries", TODAY),
        Partitions.name("events", cutoff.minusDays(1)), Partitions.name("deliveries", cutoff.minusDays(1)));
    for (String table : Partitions.TABLES) {
      assertThat(partitions(table)).as(table).first().isEqualTo(Partitions.name(table, cutoff));
      assertThat(partitions(table)).as(table).last()
          .isEqualTo(Partitions.name(table, future.plusDays(Partitions.DAYS_AHEAD)));
    }
    assertThat(count("SELECT count(*) FROM pg_class WHERE relname = $1", Partitions.name("events", TODAY)))
        .as("dropped, not merely detached").isZero();
    assertThat(views.find(WS, old.eventId(), null).await()).isEmpty();
    assertThat(views.find(WS, edge.eventId(), null).await()).as("its day ends exactly at the cutoff: kept").isPresent();
    assertThat(views.find(WS, young.eventId(), null).await()).isPresent();
    assertThat(count("SELECT count(*) FROM deliveries")).isEqualTo(2);
  }

  @Test
  @DisplayName("a partition left detached by an interrupted round is dropped by the next")
  void leftDetached(Vertx vertx) {
    open(vertx, TestDatabase.freshDatabaseUrl());
    String stray = Partitions.name("events", TODAY.plusDays(1));
    database.pool().query("ALTER TABLE events DETACH PARTITION " + stray).execute().await();

    Partitions.Round round = Partitions.maintain(database.pool(), TODAY.plusDays(40), 30).await();

    assertThat(round.dropped()).contains(stray);
    assertThat(count("SELECT count(*) FROM pg_class WHERE relname = $1", stray)).isZero();
  }

  @Test
  @DisplayName("while another node holds the upkeep lock, a round does nothing")
  void oneNodeAtATime(Vertx vertx) {
    open(vertx, TestDatabase.freshDatabaseUrl());
    SqlConnection other = database.pool().getConnection().await();
    try {
      Row locked = other.query("SELECT pg_try_advisory_lock(" + Partitions.LOCK_KEY + ")").execute().await()
          .iterator().next();
      assertThat(locked.getBoolean(0)).isTrue();

      Partitions.Round round = Partitions.maintain(database.pool(), TODAY.plusDays(10), 30).await();

      assertThat(round.ran()).isFalse();
      assertThat(partitions("events")).doesNotContain(Partitions.name("events", TODAY.plusDays(10)));
    } finally {
      other.close().await();
    }
  }

  @Test
  @DisplayName("a round releases the upkeep lock, so another node's next round can run")
  void releasesTheLock(Vertx vertx) throws Exception {
    String url = TestDatabase.freshDatabaseUrl();
    open(vertx, url);
    assertThat(Partitions.maintain(database.pool(), TODAY, 30).await().ran()).isTrue();

    // A session outside the pool, as another node's would be: a lock left held by a pool connection stops it.
    try (Connection c = PostgresServer.dataSource(PgConnectOptions.fromUri(url)).getConnection();
         Statement s = c.createStatement();
         var rs = s.executeQuery("SELECT pg_try_advisory_lock(" + Partitions.LOCK_KEY + ")")) {
      rs.next();
      assertThat(rs.getBoolean(1)).isTrue();
    }
  }

  @Test
  @DisplayName("an event whose day has no partition is a server failure, never the event's fault")
  void noPartition(Vertx vertx) {
    open(vertx, TestDatabase.freshDatabaseUrl());
    EventStore events = new EventStore(database.pool());

    assertThatThrownBy(() -> events.insertBatch(List.of(eventOn(TODAY.plusDays(30), 1))).await())
        .satisfies(e -> assertThat(EventStore.isDataError(e)).isFalse())
        .hasMessageContaining("no partition");
  }

  @Test
  @DisplayName("a database from before partitioning keeps its rows: they become today's partition, and work on")
  void migratesExistingTables(Vertx vertx) throws Exception {
    String url = TestDatabase.freshDatabaseUrl();
    var dataSource = PostgresServer.dataSource(PgConnectOptions.fromUri(url));
    Flyway.configure().dataSource(dataSource).locations("classpath:db/migration").target("3").load().migrate();
    long eventId = EventIds.firstIdAt(Instant.now().minusSeconds(3_600)) + 7;
    try (Connection c = dataSource.getConnection(); Statement s = c.createStatement()) {
      s.execute("""
          INSERT INTO events (event_id, workspace_id, event_name, telegram_id, session_id, session_source, value,
                              currency, status, received_at)
          VALUES (%d, '%s', 'DEP', 7, 's7', 'supplied', 10, 'EUR', 'processed', now() - interval '1 hour');
          INSERT INTO deliveries (event_id, workspace_id, integration_id, network, mapped_event, status,
                                  next_attempt_at)
          VALUES (%d, '%s', 'meta-main', 'meta', 'Purchase', 'pending', now());
          INSERT INTO idempotency_keys (workspace_id, idempotency_key, request_hash, event_id, created_at)
          VALUES ('%s', 'k7', 'h', %d, now())""".formatted(eventId, WS, eventId, WS, WS, eventId));
    }

    open(vertx, url);

    assertThat(partitions("events")).first().isEqualTo(Partitions.name("events", TODAY));
    assertThat(new EventViews(database.readPool()).find(WS, eventId, null).await()).isPresent();
    DeliveryStore deliveries = new DeliveryStore(database.pool(), database.readPool(), Database.EVENT_FREE);
    DeliveryViews views = new DeliveryViews(database.pool(), database.readPool());
    List<ClaimedDelivery> claimed = deliveries.claim(Network.META, 10, 60_000).await().jobs();
    assertThat(claimed).extracting(ClaimedDelivery::eventId).containsExactly(eventId);
    deliveries.delivered(claimed, claimed.stream().map(c -> new JsonObject()).toList(), new int[claimed.size()]).await();
    assertThat(views.forEvent(eventId).await().getJsonObject(0).getString("status")).isEqualTo("delivered");
    // The id sequence went over to the partitioned table: new deliveries number on after the migrated one.
    new EventStore(database.pool()).insertBatch(List.of(eventOn(TODAY, 8))).await();
    assertThat(claimed()).hasSize(1);
    assertThat(count("SELECT max(delivery_id) FROM deliveries")).isEqualTo(claimed.get(0).deliveryId() + 1);
    assertThat(count("SELECT count(*) FROM idempotency_keys WHERE event_id = $1", eventId)).isEqualTo(1);
    // And the migrated day is dropped like any other once it is past the retention.
    assertThat(Partitions.maintain(database.pool(), TODAY.plusDays(31), 30).await().dropped())
        .contains(Partitions.name("events", TODAY), Partitions.name("deliveries", TODAY));
    assertThat(new EventViews(database.readPool()).find(WS, eventId, null).await()).isEmpty();
  }
}
