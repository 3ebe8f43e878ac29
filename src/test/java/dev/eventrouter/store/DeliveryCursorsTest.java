package dev.eventrouter.store;

import dev.eventrouter.config.DatabaseConfig;
import dev.eventrouter.config.Network;
import dev.eventrouter.db.Database;
import dev.eventrouter.event.ConversionEvent;
import dev.eventrouter.event.EventIds;
import dev.eventrouter.event.Resolution;
import dev.eventrouter.support.TestDatabase;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.junit5.VertxExtension;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.SqlConnection;
import io.vertx.sqlclient.Transaction;
import io.vertx.sqlclient.Tuple;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;

import java.math.BigDecimal;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The cursors the forwarders find new events past (DeliveryCursors), on a real PostgreSQL: every stored event's rows
 * made once, in commit order, none passed over by a transaction that commits late, none held back by one that never
 * stores events.
 */
@ExtendWith(VertxExtension.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class DeliveryCursorsTest {

  private static final UUID WS = UUID.fromString("45454545-4545-4545-8545-454545454545");
  private static final long LEASE_MS = 60_000;
  private static final List<NewEvent.Delivery> BOTH = List.of(
      new NewEvent.Delivery("pixel", "meta", "Purchase"), new NewEvent.Delivery("tt", "tiktok", "CompletePayment"));

  private final AtomicLong ids = new AtomicLong(EventIds.firstIdAt(Instant.now()));
  private Database database;
  private EventStore events;
  private DeliveryStore store;
  private DeliveryCursors cursors;

  @BeforeAll
  void open(Vertx vertx) {
    DatabaseConfig config = new DatabaseConfig(TestDatabase.freshDatabaseUrl(), Path.of("unused"), 4, 100, 2, 100, 30);
    database = Database.open(vertx, config, 10_000, 200).await();
    events = new EventStore(database.pool());
    store = new DeliveryStore(database.pool(), database.readPool(), Database.EVENT_FREE);
    cursors = new DeliveryCursors(database.pool(), Database.EVENT_FREE);
  }

  @AfterAll
  void close() {
    database.close().await();
  }

  @BeforeEach
  void empty() {
    database.pool().query("TRUNCATE events, deliveries, delivery_cursors").execute().await();
    store.follow(Network.META, List.of(WS, WS), List.of("pixel", "gone")).await();
    store.follow(Network.TIKTOK, List.of(WS), List.of("tt")).await();
  }

  private NewEvent event(List<NewEvent.Delivery> deliveries) {
    ConversionEvent event = new ConversionEvent(WS, "FTD", 7, null, new BigDecimal("25"), "USD", null, null);
    return new NewEvent(ids.incrementAndGet(), event, Instant.now(), null, null, Resolution.none(), deliveries);
  }

  private List<Long> stored(int n, List<NewEvent.Delivery> deliveries) {
    List<NewEvent> batch = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      batch.add(event(deliveries));
    }
    events.insertBatch(batch).await();
    return batch.stream().map(NewEvent::eventId).toList();
  }

  private static List<Long> eventIds(List<ClaimedDelivery> jobs) {
    return jobs.stream().map(ClaimedDelivery::eventId).toList();
  }

  private List<Row> rows(String sql) {
    List<Row> rows = new ArrayList<>();
    database.pool().query(sql).execute().await().forEach(rows::add);
    return rows;
  }

  @Test
  @DisplayName("a take makes, already claimed, the rows of the new events that name the network's integrations, once")
  void takeMakesClaimedRows() {
    List<Long> stored = stored(3, BOTH);
    stored(2, List.of()); // for no integration: read past, no row

    List<ClaimedDelivery> meta = cursors.take(Network.META, 100, LEASE_MS, 1).await();

    assertThat(eventIds(meta)).containsExactlyInAnyOrderElementsOf(stored);
    assertThat(meta).allSatisfy(job -> {
      assertThat(job.integrationId()).isEqualTo("pixel");
      assertThat(job.mappedEvent()).isEqualTo("Purchase");
      assertThat(job.value()).isEqualByComparingTo("25");
      assertThat(job.attempts()).isZero();
    });
    // Leased as a claim leaves a row: not due again before the lease ends, not taken again.
    assertThat(rows("SELECT count(*) FROM deliveries WHERE status = 'pending' AND claims = 1"
        + " AND next_attempt_at > now() + interval '50 seconds'").get(0).getLong(0)).isEqualTo(3);
    assertThat(cursors.take(Network.META, 100, LEASE_MS, 1).await()).isEmpty();
    assertThat(store.claim(Network.META, 100, LEASE_MS).await()).isEmpty();
    // The other network's cursor is its own.
    List<ClaimedDelivery> tiktok = store.claim(Network.TIKTOK, 100, LEASE_MS).await();
    assertThat(eventIds(tiktok)).containsExactlyInAnyOrderElementsOf(stored);
    assertThat(tiktok).extracting(ClaimedDelivery::mappedEvent).containsOnly("CompletePayment");
    assertThat(rows("SELECT count(*) FROM deliveries").get(0).getLong(0)).isEqualTo(6);
  }

  @Test
  @DisplayName("an event whose transaction commits after a later one's is not passed over: the take waits for it")
  void lateCommitNotPassedOver() {
    SqlConnection held = database.pool().getConnection().await();
    try {
      Transaction tx = held.begin().await();
      NewEvent early = event(BOTH);
      EventStore.insert(held, List.of(early)).await(); // its transaction has the lower id, and is still open
      List<Long> later = stored(2, BOTH);

      assertThat(cursors.take(Network.META, 100, LEASE_MS, 1).await()).isEmpty();

      tx.commit().await();
      List<Long> expected = new ArrayList<>(List.of(early.eventId()));
      expected.addAll(later);
      assertThat(eventIds(cursors.take(Network.META, 100, LEASE_MS, 1).await()))
          .containsExactlyInAnyOrderElementsOf(expected);
    } finally {
      held.close().await();
    }
  }

  @Test
  @DisplayName("a long transaction of a session that never stores events (a rollup's) does not hold the take back")
  void eventFreeSessionsDoNotHoldIt() {
    SqlConnection background = database.backgroundPool().getConnection().await();
    try {
      Transaction tx = background.begin().await();
      background.query("SELECT pg_current_xact_id()").execute().await(); // it now holds a transaction id
      List<Long> stored = stored(2, BOTH);

      assertThat(eventIds(cursors.take(Network.META, 100, LEASE_MS, 1).await())).containsExactlyInAnyOrderElementsOf(stored);
      tx.rollback().await();
    } finally {
      background.close().await();
    }
  }

  @Test
  @DisplayName("takes at once on two connections (two nodes) make every row once between them")
  void concurrentTakesMakeEachRowOnce() {
    List<Long> stored = stored(600, BOTH);
    List<Future<List<ClaimedDelivery>>> takes = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      takes.add(new DeliveryCursors(database.pool(), Database.EVENT_FREE).take(Network.META, 200, LEASE_MS, 8));
    }
    List<Long> taken = new ArrayList<>();
    for (Future<List<ClaimedDelivery>> take : takes) {
      taken.addAll(eventIds(take.await()));
    }
    taken.addAll(eventIds(cursors.take(Network.META, 1000, LEASE_MS, 8).await()));

    assertThat(taken).containsExactlyInAnyOrderElementsOf(stored);
  }

  @Test
  @DisplayName("a cursor that reads full pages reads on within one claim, up to its rounds")
  void fullPagesReadOn() {
    stored(250, List.of()); // a workspace busy with events for no integration
    List<Long> named = stored(5, BOTH);

    assertThat(cursors.take(Network.META, 100, LEASE_MS, 2).await()).isEmpty();
    assertThat(eventIds(cursors.take(Network.META, 100, LEASE_MS, 8).await())).containsExactlyInAnyOrderElementsOf(named);
  }

  @Test
  @DisplayName("rows taken by a node that died come due after their lease, for any node's claim")
  void takenRowsOfADeadNodeComeDue() {
    List<Long> stored = stored(2, BOTH);
    assertThat(cursors.take(Network.META, 100, 1, 1).await()).hasSize(2); // a 1 ms lease, and no outcome

    List<ClaimedDelivery> reclaimed = new ArrayList<>();
    long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
    while (reclaimed.size() < 2 && System.nanoTime() < deadline) { // polling with a deadline
      reclaimed.addAll(store.claim(Network.META, 100, LEASE_MS).await());
    }
    assertThat(eventIds(reclaimed)).containsExactlyInAnyOrderElementsOf(stored);
  }

  @Test
  @DisplayName("events stored before the last 8 days are not read by a new cursor; a cursor's floor follows its reads")
  void newCursorReach() {
    database.pool().query("TRUNCATE delivery_cursors").execute().await();
    long old = EventIds.firstIdAt(Instant.now().minus(Duration.ofDays(9)));
    ConversionEvent event = new ConversionEvent(WS, "FTD", 7, null, new BigDecimal("25"), "USD", null, null);
    events.insertBatch(List.of(new NewEvent(old, event, Instant.now().minus(Duration.ofDays(9)), null, null,
        Resolution.none(), BOTH))).await();
    List<Long> recent = stored(1, BOTH);
    store.follow(Network.META, List.of(WS), List.of("pixel")).await();

    assertThat(eventIds(cursors.take(Network.META, 100, LEASE_MS, 1).await())).containsExactlyInAnyOrderElementsOf(recent);
    Row cursor = rows("SELECT floor_id, event_id FROM delivery_cursors WHERE integration_id = 'pixel'").get(0);
    assertThat(cursor.getLong("event_id")).isEqualTo(recent.get(0));
    assertThat(cursor.getLong("floor_id")).isEqualTo(recent.get(0) - DeliveryCursors.lateCommitIds());
  }

  @Test
  @DisplayName("the backlog counts the events past the cursors as pending; the status view shows them pending")
  void backlogAndViewSeeUnmadeRows() {
    List<Long> stored = stored(3, BOTH);

    DeliveryBacklog backlog = store.backlog(Network.META).await();
    assertThat(backlog.pending()).isEqualTo(3);
    assertThat(backlog.oldestDueSeconds()).isGreaterThanOrEqualTo(0);
    var view = new DeliveryViews(database.pool(), database.readPool()).forEvent(stored.get(0)).await();
    assertThat(view.size()).isEqualTo(2);
    assertThat(view.getJsonObject(0).getString("status")).isEqualTo("pending");
    assertThat(view.getJsonObject(0).getString("event_name")).isEqualTo("Purchase");

    cursors.take(Network.META, 100, LEASE_MS, 1).await();
    assertThat(store.backlog(Network.META).await().pending()).isEqualTo(3); // made, claimed: still to send
    database.pool().preparedQuery("UPDATE deliveries SET status = 'delivered' WHERE network = $1")
        .execute(Tuple.of("meta")).await();
    assertThat(store.backlog(Network.META).await().pending()).isZero();
    assertThat(new DeliveryViews(database.pool(), database.readPool()).forEvent(stored.get(0)).await().size())
        .isEqualTo(2);
  }

  @Test
  @DisplayName("a status change does not make a second delivery to an integration that sends a conversion once, when "
      + "the event names it and its row is not made yet")
  void changeBeforeTheCursorCountsTheNamedDelivery() {
    long eventId = stored(1, BOTH).get(0);
    Tuple change = Tuple.of(eventId, WS, 1, new String[] {"pixel", "hook"}, new String[] {"meta", "webhook"},
        new String[] {"Purchase", "FTD"}, new Boolean[] {true, true});

    List<String> made = new ArrayList<>();
    database.pool().preparedQuery(ConversionChanges.CHANGE_DELIVERIES).execute(change).await()
        .forEach(row -> made.add(row.getString(0)));

    assertThat(made).as("the webhook, which the event does not name, gets the change").containsExactly("webhook");
    assertThat(eventIds(cursors.take(Network.META, 100, LEASE_MS, 1).await())).containsExactly(eventId);
  }

  @Test
  @DisplayName("one take makes at most its limit of rows, however many cursors, in commit order; the next makes the rest")
  void takeIsCappedAcrossCursors() {
    UUID other = UUID.fromString("46464646-4646-4646-8646-464646464646");
    database.pool().query("TRUNCATE delivery_cursors").execute().await(); // a cursor reads even what it does not make
    store.follow(Network.META, List.of(WS, other), List.of("pixel", "pixel")).await();
    List<Long> stored = new ArrayList<>(stored(150, BOTH));
    List<NewEvent> others = new ArrayList<>();
    for (int i = 0; i < 150; i++) {
      ConversionEvent event = new ConversionEvent(other, "FTD", 8, null, new BigDecimal("5"), "USD", null, null);
      others.add(new NewEvent(ids.incrementAndGet(), event, Instant.now(), null, null, Resolution.none(), BOTH));
    }
    events.insertBatch(others).await();
    stored.addAll(others.stream().map(NewEvent::eventId).toList());

    List<ClaimedDelivery> first = cursors.take(Network.META, 100, LEASE_MS, 1).await();
    assertThat(first).hasSize(100);
    assertThat(eventIds(first)).containsExactlyInAnyOrderElementsOf(stored.subList(0, 100));
    List<Long> all = new ArrayList<>(eventIds(first));
    all.addAll(eventIds(cursors.take(Network.META, 100, LEASE_MS, 8).await()));
    all.addAll(eventIds(cursors.take(Network.META, 100, LEASE_MS, 8).await()));
    all.addAll(eventIds(cursors.take(Network.META, 100, LEASE_MS, 8).await()));
    assertThat(all).containsExactlyInAnyOrderElementsOf(stored);
  }
}
