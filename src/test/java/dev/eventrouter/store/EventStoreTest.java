package dev.eventrouter.store;

import dev.eventrouter.config.DatabaseConfig;
import dev.eventrouter.db.Database;
import dev.eventrouter.event.ConversionEvent;
import dev.eventrouter.event.Resolution;
import dev.eventrouter.support.TestDatabase;
import io.vertx.core.Vertx;
import io.vertx.junit5.VertxExtension;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;

import java.math.BigDecimal;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/** The batch write itself, where several requests with one Idempotency-Key can meet in a single group commit. */
@ExtendWith(VertxExtension.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class EventStoreTest {

  private static final UUID WS = UUID.fromString("44444444-4444-4444-8444-444444444444");

  private Database database;
  private EventStore store;

  @BeforeAll
  void open(Vertx vertx) {
    DatabaseConfig config = new DatabaseConfig(TestDatabase.freshDatabaseUrl(), Path.of("unused"), 4, 100, 2, 100, 30);
    database = Database.open(vertx, config, 10_000, 200).await();
    store = new EventStore(database.pool());
  }

  @AfterAll
  void close() {
    database.close().await();
  }

  @BeforeEach
  void empty() {
    database.pool().query("TRUNCATE events, idempotency_keys, deliveries").execute().await();
  }

  private static NewEvent pending(long id, String key, long telegramId) {
    ConversionEvent event = new ConversionEvent(WS, "DEP", telegramId, null, new BigDecimal("10.50"), "EUR", null, null);
    return new NewEvent(id, event, Instant.now(), key, key == null ? null : event.contentHash(), Resolution.none(),
        List.of());
  }

  private long count(String table) {
    return database.pool().query("SELECT count(*) FROM " + table).execute().await().iterator().next().getLong(0);
  }

  @Test
  @DisplayName("one batch stores every event without a key in one statement")
  void keylessBatch() {
    List<WriteResult> outcomes = store.insertBatch(List.of(pending(1, null, 1), pending(2, null, 2)))
        .await();

    assertThat(outcomes).containsExactly(new WriteResult.Stored(1, null, false), new WriteResult.Stored(2, null, false));
    assertThat(count("events")).isEqualTo(2);
  }

  @Test
  @DisplayName("two requests with one key in the same batch: the first is stored, the second replays it")
  void sameKeyInOneBatch() {
    List<WriteResult> outcomes = store.insertBatch(List.of(
        pending(1, "k", 1), pending(2, null, 2), pending(3, "k", 1))).await();

    assertThat(outcomes).containsExactly(new WriteResult.Stored(1, null, false), new WriteResult.Stored(2, null, false),
        new WriteResult.Stored(1, null, true));
    assertThat(count("events")).isEqualTo(2);
    assertThat(count("idempotency_keys")).isEqualTo(1);
  }

  @Test
  @DisplayName("one key with two different bodies in the same batch: the second is a conflict")
  void conflictInOneBatch() {
    List<WriteResult> outcomes = store.insertBatch(List.of(pending(1, "k", 1), pending(2, "k", 2))).await();

    assertThat(outcomes).containsExactly(new WriteResult.Stored(1, null, false), new WriteResult.Conflict());
    assertThat(count("events")).isEqualTo(1);
  }

  @Test
  @DisplayName("a key claimed by an earlier batch makes a later one replay or conflict, and a conflict does not block the rest")
  void keyFromEarlierBatch() {
    store.insertBatch(List.of(pending(1, "k", 1))).await();

    List<WriteResult> outcomes = store.insertBatch(List.of(
        pending(2, "k", 1), pending(3, "k", 9), pending(4, "other", 4))).await();

    assertThat(outcomes).containsExactly(new WriteResult.Stored(1, null, true), new WriteResult.Conflict(),
        new WriteResult.Stored(4, null, false));
    assertThat(count("events")).isEqualTo(2);
  }

  @Test
  @DisplayName("the integrations each event is for are stored with it, for the forwarders' cursors; no outbox row yet")
  void deliveriesNamedWithStoredEvents() {
    List<NewEvent.Delivery> outbox = List.of(new NewEvent.Delivery("meta-main", "meta", "Purchase"),
        new NewEvent.Delivery("tiktok-main", "tiktok", "CompletePayment"));
    NewEvent first = pending(1, "k", 1);
    NewEvent replay = pending(2, "k", 1);

    store.insertBatch(List.of(withOutbox(first, outbox), withOutbox(replay, outbox), withOutbox(pending(3, null, 3),
        outbox), pending(5, null, 5))).await();
    store.insertBatch(List.of(withOutbox(pending(4, "k", 1), outbox))).await();

    assertThat(database.pool().query("SELECT event_id, deliver_to -> 'meta-main' ->> 0, deliver_to -> 'meta-main' ->> 1,"
        + " deliver_to -> 'tiktok-main' ->> 0, deliver_to -> 'tiktok-main' ->> 1, tx IS NOT NULL FROM events"
        + " ORDER BY event_id").execute().await()).extracting(r -> r.getLong(0) + " " + r.getString(1) + " "
        + r.getString(2) + " " + r.getString(3) + " " + r.getString(4) + " " + r.getBoolean(5))
        .containsExactly("1 meta Purchase tiktok CompletePayment true", "3 meta Purchase tiktok CompletePayment true",
            "5 null null null null true");
    assertThat(count("deliveries")).isZero();
  }

  private static NewEvent withOutbox(NewEvent e, List<NewEvent.Delivery> outbox) {
    return new NewEvent(e.eventId(), e.event(), e.receivedAt(), e.idempotencyKey(), e.requestHash(), e.session(),
        outbox);
  }

  @Test
  @DisplayName("purging removes only keys older than 24 hours")
  void purge() {
    store.insertBatch(List.of(pending(1, "old", 1), pending(2, "new", 2))).await();
    database.pool().query("UPDATE idempotency_keys SET created_at = now() - interval '25 hours' "
        + "WHERE idempotency_key = 'old'").execute().await();

    assertThat(store.purgeExpiredKeys().await()).isEqualTo(1);
    assertThat(count("idempotency_keys")).isEqualTo(1);
    assertThat(count("events")).isEqualTo(2);
  }
}
