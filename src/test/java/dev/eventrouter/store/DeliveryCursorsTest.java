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
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import io.vertx.pgclient.PgConnectOptions;
import io.vertx.pgclient.PgConnection;
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
 * The cursors the forwarders find new events past (DeliveryCursors), on a real PostgreSQL: every stored event taken
 * once, in commit order, none passed over by a transaction that commits late, none held back by one that never stores
 * events; a cursor held by one take until its settle, taken over after its lease; a delivery's row written once, by
 * its outcome.
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

  private static List<Long> eventIds(Claim claim) {
    return eventIds(claim.jobs());
  }

  private Claim take(int limit, int rounds) {
    return cursors.take(Network.META, limit, LEASE_MS, rounds).await();
  }

  /** The network accepted them all: their outcome, then the settle, as a forwarder's cycle ends. */
  private void deliver(Claim claim) {
    deliver(cursors, claim);
  }

  private void deliver(DeliveryCursors node, Claim claim) {
    store.delivered(claim.jobs(), claim.jobs().stream().map(j -> new JsonObject().put("id", j.eventId())).toList(),
        new int[claim.jobs().size()]).await();
    store.settle(Network.META, claim).await();
  }

  private long count(String sql) {
    return rows(sql).get(0).getLong(0);
  }

  private List<Row> rows(String sql) {
    List<Row> rows = new ArrayList<>();
    database.pool().query(sql).execute().await().forEach(rows::add);
    return rows;
  }

  @Test
  @DisplayName("a take holds the cursor and makes no row; the outcome makes each row once, in its state; the settle "
      + "moves the cursor past them")
  void takeHoldsTheCursorAndTheOutcomeWritesOnce() {
    List<Long> stored = stored(3, BOTH);
    List<Long> unnamed = stored(2, List.of()); // for no integration: read past, never sent

    Claim meta = take(100, 1);

    assertThat(eventIds(meta)).containsExactlyElementsOf(stored);
    assertThat(meta.jobs()).allSatisfy(job -> {
      assertThat(job.rowless()).isTrue();
      assertThat(job.integrationId()).isEqualTo("pixel");
      assertThat(job.network()).isEqualTo("meta");
      assertThat(job.mappedEvent()).isEqualTo("Purchase");
      assertThat(job.value()).isEqualByComparingTo("25");
      assertThat(job.attempts()).isZero();
    });
    assertThat(meta.leases()).extracting(Claim.Lease::integrationId).containsExactly("pixel");
    assertThat(count("SELECT count(*) FROM deliveries")).isZero();
    // Held: no other take (another node's) reads past it meanwhile.
    assertThat(take(100, 1).jobs()).isEmpty();
    assertThat(store.claim(Network.META, 100, LEASE_MS).await().jobs()).isEmpty();

    deliver(meta);

    assertThat(count("SELECT count(*) FROM deliveries WHERE status = 'delivered' AND attempts = 1 AND claims = 0"
        + " AND payload IS NOT NULL AND delivered_at IS NOT NULL")).isEqualTo(3);
    assertThat(count("SELECT count(*) FROM delivery_cursors WHERE integration_id = 'pixel' AND lease_until IS NULL"
        + " AND event_id = " + unnamed.get(1))).isEqualTo(1);
    assertThat(take(100, 8).jobs()).isEmpty();
    assertThat(store.claim(Network.META, 100, LEASE_MS).await().jobs()).isEmpty();
    // The other network's cursor is its own.
    Claim tiktok = store.claim(Network.TIKTOK, 100, LEASE_MS).await();
    assertThat(eventIds(tiktok)).containsExactlyElementsOf(stored);
    assertThat(tiktok.jobs()).extracting(ClaimedDelivery::mappedEvent).containsOnly("CompletePayment");
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

      assertThat(take(100, 1).jobs()).isEmpty();

      tx.commit().await();
      List<Long> expected = new ArrayList<>(List.of(early.eventId()));
      expected.addAll(later);
      assertThat(eventIds(take(100, 1))).containsExactlyElementsOf(expected);
    } finally {
      held.close().await();
    }
  }

  @Test
  @DisplayName("a long transaction of a session that never stores events (a rollup's) does not hold the take back")
  void eventFreeSessionsDoNotHoldIt() {
    takesPastATransactionOf(database.backgroundPool().getConnection().await());
  }

  @Test
  @DisplayName("a transaction open in another database of the same server does not hold the take back")
  void otherDatabasesDoNotHoldIt(Vertx vertx) {
    takesPastATransactionOf(PgConnection.connect(vertx, PgConnectOptions.fromUri(TestDatabase.freshDatabaseUrl())
        .addProperty("application_name", "event-router")).await());
  }

  /** While {@code session} holds a transaction id open, two events are stored: one take reads them both. */
  private void takesPastATransactionOf(SqlConnection session) {
    try {
      Transaction tx = session.begin().await();
      session.query("SELECT pg_current_xact_id()").execute().await(); // it now holds a transaction id
      List<Long> stored = stored(2, BOTH);

      assertThat(eventIds(take(100, 1))).containsExactlyElementsOf(stored);
      tx.rollback().await();
    } finally {
      session.close().await();
    }
  }

  @Test
  @DisplayName("takes at once on four connections (four nodes) take every event once between them")
  void concurrentTakesTakeEachEventOnce() {
    List<Long> stored = stored(600, BOTH);
    List<Long> taken = new ArrayList<>();
    long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
    while (taken.size() < stored.size() && System.nanoTime() < deadline) {
      List<DeliveryCursors> nodes = new ArrayList<>();
      List<Future<Claim>> takes = new ArrayList<>();
      for (int i = 0; i < 4; i++) {
        nodes.add(new DeliveryCursors(database.pool(), Database.EVENT_FREE));
        takes.add(nodes.get(i).take(Network.META, 200, LEASE_MS, 8));
      }
      for (int i = 0; i < 4; i++) {
        Claim claim = takes.get(i).await();
        taken.addAll(eventIds(claim));
        deliver(nodes.get(i), claim);
      }
    }
    assertThat(taken).containsExactlyInAnyOrderElementsOf(stored);
    assertThat(count("SELECT count(*) FROM deliveries WHERE status = 'delivered'")).isEqualTo(600);
  }

  @Test
  @DisplayName("a cursor that reads full pages of events for no integration of it reads on within one claim")
  void fullPagesReadOn() {
    stored(250, List.of()); // a workspace busy with events for no integration
    List<Long> named = stored(5, BOTH);

    assertThat(take(100, 2).jobs()).isEmpty();
    assertThat(eventIds(take(100, 8))).containsExactlyElementsOf(named);
  }

  @Test
  @DisplayName("a node killed while it holds a cursor: after the lease the next claim, on any node, settles the "
      + "cursor for it and claims the events it took as rows, under the same event ids; the node's late settle, "
      + "had it only stalled, moves nothing")
  void aCursorOfADeadNodeIsTakenOver() {
    List<Long> stored = stored(3, BOTH);
    DeliveryCursors dead = new DeliveryCursors(database.pool(), Database.EVENT_FREE);
    Claim lost = dead.take(Network.META, 100, 1, 1).await(); // a 1 ms lease; the node stops before any outcome
    assertThat(eventIds(lost)).containsExactlyElementsOf(stored);

    Claim again = reclaimed();
    assertThat(eventIds(again)).containsExactlyElementsOf(stored);
    assertThat(again.jobs()).noneMatch(ClaimedDelivery::rowless);
    assertThat(count("SELECT count(*) FROM deliveries WHERE claims = 2")).as("two claims counted").isEqualTo(3);

    stored(1, BOTH);
    Claim next = take(100, 1); // the cursor moved past the lost claim's events, and is taken anew
    assertThat(next.jobs()).hasSize(1);
    store.settle(Network.META, lost).await(); // it was only stalled (SIGSTOP), and wakes: fenced out
    assertThat(count("SELECT count(*) FROM delivery_cursors WHERE integration_id = 'pixel'"
        + " AND lease_until IS NOT NULL")).as("still held by the live take").isEqualTo(1);

    deliver(next);
    store.delivered(again.jobs(), again.jobs().stream().map(j -> new JsonObject()).toList(), new int[3]).await();
    assertThat(count("SELECT count(*) FROM deliveries WHERE status = 'delivered'")).isEqualTo(4);
    assertThat(store.claim(Network.META, 100, LEASE_MS).await().jobs()).isEmpty();
  }

  /** Claims until something comes (a lease runs out first), polling with a deadline. */
  private Claim reclaimed() {
    Claim again = new Claim(List.of(), List.of(), false);
    long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
    while (again.jobs().isEmpty() && System.nanoTime() < deadline) {
      again = store.claim(Network.META, 100, LEASE_MS).await();
    }
    return again;
  }

  @Test
  @DisplayName("a crash between the send and the settle: the events with an outcome are not sent again, the others "
      + "are, under the same event ids")
  void crashBetweenSendAndSettle() {
    List<Long> stored = stored(4, BOTH);
    Claim first = cursors.take(Network.META, 100, 1, 1).await();
    List<ClaimedDelivery> answered = first.jobs().subList(0, 2);
    store.delivered(answered, answered.stream().map(j -> new JsonObject().put("id", j.eventId())).toList(),
        new int[2]).await();
    // The node dies here: the other two were sent, but their answer was never stored.

    Claim again = reclaimed();
    assertThat(eventIds(again)).containsExactlyElementsOf(stored.subList(2, 4));
    store.delivered(again.jobs(), again.jobs().stream().map(j -> new JsonObject()).toList(), new int[2]).await();
    assertThat(count("SELECT count(*) FROM deliveries WHERE status = 'delivered'")).isEqualTo(4);
    assertThat(count("SELECT count(DISTINCT event_id) FROM deliveries")).isEqualTo(4);
  }

  @Test
  @DisplayName("a taken event whose processing ended without an outcome gets its row at the settle, due, one claim "
      + "counted, and the claims try it again")
  void settleMakesTheRowsOfEventsWithoutAnOutcome() {
    List<Long> stored = stored(2, BOTH);
    Claim claim = take(100, 1);
    ClaimedDelivery done = claim.jobs().get(0);
    store.delivered(List.of(done), List.of(new JsonObject()), new int[1]).await();

    store.settle(Network.META, claim).await();

    assertThat(count("SELECT count(*) FROM deliveries WHERE status = 'pending' AND claims = 1 AND event_id = "
        + stored.get(1))).isEqualTo(1);
    Claim retried = store.claim(Network.META, 100, LEASE_MS).await();
    assertThat(eventIds(retried)).containsExactly(stored.get(1));
    assertThat(retried.jobs().get(0).rowless()).isFalse();
    assertThat(retried.leases()).isEmpty();
  }

  @Test
  @DisplayName("a pause holds the events taken with the cursor: their rows are made paused, a probe finds one, and "
      + "the resume releases them")
  void pauseHoldsTakenEvents() {
    List<Long> stored = stored(3, BOTH);
    Claim claim = take(100, 1);
    Pause pause = new Pause("meta", WS, "pixel", "token refused", "digest", Instant.now());

    assertThat(store.pause(pause, claim.jobs().subList(0, 1)).await()).isTrue();
    store.hold(claim.jobs().subList(1, 3), "token refused").await();
    store.settle(Network.META, claim).await();

    assertThat(count("SELECT count(*) FROM deliveries WHERE status = 'paused' AND last_error = 'token refused'"))
        .isEqualTo(3);
    assertThat(store.claim(Network.META, 100, LEASE_MS).await().jobs()).isEmpty();
    assertThat(store.claimHeld(pause, LEASE_MS).await()).extracting(ClaimedDelivery::eventId)
        .containsExactly(stored.get(0));
    assertThat(store.resume(pause, false).await()).isTrue();
    assertThat(eventIds(store.claim(Network.META, 100, LEASE_MS).await()))
        .containsExactlyInAnyOrderElementsOf(stored);
  }

  @Test
  @DisplayName("each outcome makes the rows of taken events in its state")
  void everyOutcomeMakesRows() {
    stored(7, BOTH);
    List<ClaimedDelivery> jobs = take(100, 1).jobs();
    JsonObject body = new JsonObject().put("data", "x");
    Instant later = Instant.now().plus(Duration.ofHours(1));
    store.retry(jobs.subList(0, 1), List.of(body), "503", later).await();
    store.failed(jobs.subList(1, 2), List.of(body), "refused").await();
    store.unconfirmed(jobs.subList(2, 3), List.of(body), "2 of 3").await();
    store.end(jobs.subList(3, 4), "expired", "too old").await();
    store.dryRun(java.util.Map.of(jobs.get(4), body)).await();
    store.defer(jobs.subList(5, 6), later).await();
    store.delivered(jobs.subList(6, 7), List.of(body), new int[] {5}).await();

    List<String> states = new ArrayList<>();
    rows("SELECT status, attempts, last_error, payload IS NOT NULL AS kept, match_keys,"
        + " next_attempt_at > now() + interval '50 minutes' AS later FROM deliveries ORDER BY event_id")
        .forEach(r -> states.add(r.getString(0) + " " + r.getInteger(1) + " " + r.getString(2) + " "
            + r.getBoolean(3) + " " + r.getInteger(4) + " " + r.getBoolean(5)));
    assertThat(states).containsExactly(
        "retrying 1 503 true null true",
        "failed 1 refused true null false",
        "unconfirmed 1 2 of 3 true null false",
        "expired 0 too old false null false",
        "dry_run 0 null true null false",
        "pending 0 null false null true",
        "delivered 1 null true 5 false");
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

    Claim claim = take(100, 1);
    assertThat(eventIds(claim)).containsExactlyElementsOf(recent);
    deliver(claim);
    Row cursor = rows("SELECT floor_id, event_id FROM delivery_cursors WHERE integration_id = 'pixel'").get(0);
    assertThat(cursor.getLong("event_id")).isEqualTo(recent.get(0));
    assertThat(cursor.getLong("floor_id")).isEqualTo(recent.get(0) - DeliveryCursors.lateCommitIds());
  }

  @Test
  @DisplayName("the backlog counts the events past the cursors as pending, in flight too; the status view shows them "
      + "pending, then delivered")
  void backlogAndViewSeeUnmadeRows() {
    List<Long> stored = stored(3, BOTH);

    DeliveryBacklog backlog = store.backlog(Network.META).await();
    assertThat(backlog.pending()).isEqualTo(3);
    assertThat(backlog.oldestDueSeconds()).isGreaterThanOrEqualTo(0);
    DeliveryViews views = new DeliveryViews(database.pool(), database.readPool());
    var view = views.forEvent(stored.get(0)).await();
    assertThat(view.size()).isEqualTo(2);
    assertThat(view.getJsonObject(0).getString("status")).isEqualTo("pending");
    assertThat(view.getJsonObject(0).getString("event_name")).isEqualTo("Purchase");

    Claim claim = take(100, 1);
    assertThat(store.backlog(Network.META).await().pending()).isEqualTo(3); // in flight: still to send
    assertThat(views.forEvent(stored.get(0)).await().getJsonObject(0).getString("status")).isEqualTo("pending");
    deliver(claim);
    assertThat(store.backlog(Network.META).await().pending()).isZero();
    var delivered = views.forEvent(stored.get(0)).await();
    assertThat(delivered.size()).isEqualTo(2);
    assertThat(delivered.getJsonObject(0).getString("status")).isEqualTo("delivered");
  }

  @Test
  @DisplayName("a status change does not make a second delivery to an integration that sends a conversion once, when "
      + "the event names it and its row is not made yet")
  void changeBeforeTheCursorCountsTheNamedDelivery() {
    long eventId = stored(1, BOTH).get(0);
    Tuple change = Tuple.of(eventId, WS, 1, new String[] {"pixel", "hook"}, new String[] {"meta", "webhook"},
        new String[] {"Purchase", "FTD"}, new Boolean[] {true, true}, new Boolean[] {true, true},
        new Boolean[] {false, false}, false, "RESTATEMENT");

    List<String> made = new ArrayList<>();
    database.pool().preparedQuery(ConversionChanges.CHANGE_DELIVERIES).execute(change).await()
        .forEach(row -> made.add(row.getString(0)));

    assertThat(made).as("the webhook, which the event does not name, gets the change").containsExactly("webhook");
    assertThat(eventIds(take(100, 1))).containsExactly(eventId);
  }

  @Test
  @DisplayName("a redelivery asked while the event is in flight is sent once more under the same event id, and the "
      + "outcome keeps the redelivery's row")
  void rowMadeMeanwhileIsKept() {
    long eventId = stored(1, BOTH).get(0);
    Claim claim = take(100, 1);
    database.pool().preparedQuery("INSERT INTO deliveries (event_id, workspace_id, integration_id, network,"
        + " mapped_event, status, next_attempt_at) VALUES ($1, $2, 'pixel', 'meta', 'Purchase', 'pending', now())")
        .execute(Tuple.of(eventId, WS)).await();

    deliver(claim);

    assertThat(count("SELECT count(*) FROM deliveries WHERE status = 'pending'")).isEqualTo(1);
    assertThat(eventIds(store.claim(Network.META, 100, LEASE_MS).await())).containsExactly(eventId);
  }

  @Test
  @DisplayName("one take returns at most its limit, however many cursors, in commit order; the next ones the rest")
  void takeIsCappedAcrossCursors() {
    UUID other = UUID.fromString("46464646-4646-4646-8646-464646464646");
    database.pool().query("TRUNCATE delivery_cursors").execute().await(); // a cursor reads even what it does not take
    store.follow(Network.META, List.of(WS, other), List.of("pixel", "pixel")).await();
    List<Long> stored = new ArrayList<>(stored(150, BOTH));
    List<NewEvent> others = new ArrayList<>();
    for (int i = 0; i < 150; i++) {
      ConversionEvent event = new ConversionEvent(other, "FTD", 8, null, new BigDecimal("5"), "USD", null, null);
      others.add(new NewEvent(ids.incrementAndGet(), event, Instant.now(), null, null, Resolution.none(), BOTH));
    }
    events.insertBatch(others).await();
    stored.addAll(others.stream().map(NewEvent::eventId).toList());

    Claim first = take(100, 1);
    assertThat(eventIds(first)).containsExactlyElementsOf(stored.subList(0, 100));
    assertThat(first.more()).isTrue();
    deliver(first);
    List<Long> all = new ArrayList<>(eventIds(first));
    for (int i = 0; i < 4; i++) {
      Claim next = take(100, 8);
      all.addAll(eventIds(next));
      deliver(next);
    }
    assertThat(all).containsExactlyInAnyOrderElementsOf(stored);
  }
}
