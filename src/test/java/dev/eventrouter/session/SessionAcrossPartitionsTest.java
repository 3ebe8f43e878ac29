package dev.eventrouter.session;

import dev.eventrouter.config.DatabaseConfig;
import dev.eventrouter.db.Database;
import dev.eventrouter.event.ConversionEvent;
import dev.eventrouter.event.EventIds;
import dev.eventrouter.event.Resolution;
import dev.eventrouter.store.EventStore;
import dev.eventrouter.store.NewEvent;
import dev.eventrouter.support.TestDatabase;
import io.vertx.core.Vertx;
import io.vertx.junit5.VertxExtension;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/** The analytics source reads the user's events in every day partition within the window, and none before it. */
@ExtendWith(VertxExtension.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SessionAcrossPartitionsTest {

  private static final UUID WS = UUID.fromString("66666666-6666-4666-8666-666666666666");
  private static final int WINDOW_DAYS = 7;

  private Database database;
  private EventStore events;
  private SessionSource analytics;

  @BeforeAll
  void open(Vertx vertx) {
    database = Database.open(vertx, new DatabaseConfig(TestDatabase.freshDatabaseUrl(), Path.of("unused"), 2, 100, 0,
        100, 30), 10_000, 200).await();
    events = new EventStore(database.pool());
    analytics = SessionSources.inOrder(vertx, database.readPool(), ws -> WINDOW_DAYS).stream()
        .filter(s -> s.name().equals("analytics")).findFirst().orElseThrow();
  }

  @AfterAll
  void close() {
    database.close().await();
  }

  /** An event of the user at the given time, its id of that time (so of that day's partition). */
  private void store(long telegramId, String sessionId, Instant at) {
    ConversionEvent event = new ConversionEvent(WS, "REG", telegramId, sessionId, null, "USD", null, null);
    Resolution session = sessionId == null ? Resolution.none() : Resolution.supplied(sessionId);
    events.insertBatch(List.of(new NewEvent(EventIds.firstIdAt(at) + telegramId, event, at, null, null, session,
        List.of()))).await();
  }

  private Optional<String> lookup(long telegramId) {
    return analytics.lookup(WS, telegramId).await();
  }

  @Test
  @DisplayName("the newest event with a session wins, whichever day's partition holds it")
  void newestAcrossDays() {
    Instant now = Instant.now();
    store(1, "s-today", now.minus(Duration.ofHours(1)));
    store(1, null, now.plus(Duration.ofDays(1)));
    assertThat(lookup(1)).as("a later event without a session in tomorrow's partition").contains("s-today");

    store(1, "s-tomorrow", now.plus(Duration.ofDays(1)).plusSeconds(60));
    assertThat(lookup(1)).contains("s-tomorrow");
  }

  @Test
  @DisplayName("an event older than the attribution window is not used, though its partition still exists")
  void windowStillApplies() {
    store(2, "s-old", Instant.now().minus(Duration.ofDays(WINDOW_DAYS + 1)));

    assertThat(lookup(2)).isEmpty();
  }
}
