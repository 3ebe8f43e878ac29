package dev.eventrouter.store;

import dev.eventrouter.config.DatabaseConfig;
import dev.eventrouter.db.Database;
import dev.eventrouter.support.TestDatabase;
import io.vertx.core.Vertx;
import io.vertx.junit5.VertxExtension;
import io.vertx.sqlclient.Tuple;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The purge of click, invite and last sessions: a row older than its workspace's attribution window plus the 7-day
 * delivery window is deleted, a younger one is kept, each workspace by its own window.
 */
@ExtendWith(VertxExtension.class)
class SessionPurgeTest {

  /** A 1-day window: kept 8 days. */
  private static final UUID SHORT = UUID.fromString("11111111-1111-4111-8111-111111111111");
  /** A 30-day window: kept 37 days. */
  private static final UUID LONG = UUID.fromString("22222222-2222-4222-8222-222222222222");
  /** No longer configured: kept as long as the longest, 37 days. */
  private static final UUID GONE = UUID.fromString("33333333-3333-4333-8333-333333333333");
  private static final SessionStore.Retention RETENTION = SessionStore.Retention.of(Map.of(SHORT, 1, LONG, 30), 28);

  private Database database;

  @AfterEach
  void close() {
    if (database != null) {
      database.close().await();
    }
  }

  private void open(Vertx vertx) {
    database = Database.open(vertx, new DatabaseConfig(TestDatabase.freshDatabaseUrl(), Path.of("unused"), 2, 100, 0,
        100, 30), 10_000, 200).await();
  }

  /** One row in each session table for the workspace, {@code hours} old, named by them. */
  private void sessionsAged(UUID workspace, long hours) {
    String session = workspace.toString().substring(0, 4) + "-" + hours;
    Tuple row = Tuple.of(workspace, session, hours, hours + 1);
    database.pool().preparedQuery("""
        INSERT INTO click_sessions (workspace_id, session_id, clicked_at, created_at, user_agent)
        VALUES ($1, $2, now() - make_interval(hours => $3), now() - make_interval(hours => $3), 'ua')""")
        .execute(Tuple.of(workspace, session, (int) hours)).await();
    database.pool().preparedQuery("""
        INSERT INTO invite_sessions (workspace_id, telegram_id, session_id, created_at)
        VALUES ($1, $4, $2, now() - make_interval(hours => $3))""").execute(row).await();
  }

  private List<String> left(String table) {
    List<String> sessions = new ArrayList<>();
    database.pool().query("SELECT session_id FROM " + table + " ORDER BY session_id").execute().await()
        .forEach(r -> sessions.add(r.getString(0)));
    return sessions;
  }

  @Test
  @DisplayName("each workspace keeps its sessions for its window plus 7 days; older ones go, in batches, from all "
      + "both tables; an unconfigured workspace's are kept as long as the longest")
  void purgedPastTheWindows(Vertx vertx) {
    open(vertx);
    SessionStore sessions = new SessionStore(database.pool());
    int day = 24;
    // Kept: inside the window, or past it but inside the 7 days its deliveries may still be retried.
    sessionsAged(SHORT, 1);
    sessionsAged(SHORT, 5 * day);
    sessionsAged(SHORT, 8 * day - 1);
    sessionsAged(LONG, 9 * day);
    sessionsAged(LONG, 37 * day - 1);
    sessionsAged(GONE, 36 * day);
    // Purged.
    sessionsAged(SHORT, 8 * day + 1);
    sessionsAged(SHORT, 20 * day);
    sessionsAged(SHORT, 400 * day);
    sessionsAged(LONG, 37 * day + 1);
    sessionsAged(GONE, 38 * day);
    List<String> kept = List.of("1111-1", "1111-120", "1111-191", "2222-216", "2222-887", "3333-864");

    assertThat(sessions.purge(RETENTION, 2).await()).as("5 rows in each of 2 tables").isEqualTo(10);
    for (String table : SessionStore.AGED.keySet()) {
      assertThat(left(table)).as(table).containsExactlyElementsOf(kept);
    }
    assertThat(sessions.purge(RETENTION).await()).as("nothing left to purge").isZero();
    assertThat(left("click_sessions")).containsExactlyElementsOf(kept);
  }

  @Test
  @DisplayName("the retention: each window plus 7 days; any other workspace the longest window or the default, "
      + "plus 7")
  void retention() {
    assertThat(RETENTION.keepDays()).isEqualTo(Map.of(SHORT, 8, LONG, 37));
    assertThat(RETENTION.otherDays()).isEqualTo(37);
    assertThat(RETENTION.fewestDays()).isEqualTo(8);
    SessionStore.Retention none = SessionStore.Retention.of(Map.of(), 28);
    assertThat(none.otherDays()).isEqualTo(35);
    assertThat(none.fewestDays()).isEqualTo(35);
    assertThat(SessionStore.Retention.of(Map.of(SHORT, 1), 28).otherDays()).as("the default when longer")
        .isEqualTo(35);
  }
}
