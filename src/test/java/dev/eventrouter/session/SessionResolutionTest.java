package dev.eventrouter.session;

import dev.eventrouter.db.PostgresServer;
import dev.eventrouter.support.ServiceTest;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.pgclient.PgConnectOptions;
import io.vertx.sqlclient.Row;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.sql.Connection;

import static dev.eventrouter.support.TestApp.KEY_A;
import static dev.eventrouter.support.TestApp.KEY_B;
import static dev.eventrouter.support.TestApp.WS_A;
import static dev.eventrouter.support.TestApp.WS_B;
import static org.assertj.core.api.Assertions.assertThat;

/** One test per branch of the documented order: supplied, invite, analytics, last known, none. */
class SessionResolutionTest extends ServiceTest {

  private static final long USER = 4242;

  private static JsonObject event(String workspace, String sessionId) {
    return new JsonObject().put("event_name", "REG").put("telegram_id", USER).put("workspace_id", workspace)
        .put("session_id", sessionId);
  }

  /** Posts an event without a session and returns what it resolved to: [session_id, session_source]. */
  private String[] resolveFor(String apiKey, String workspace) {
    HttpResponse<Buffer> response = app.postEvent(apiKey, event(workspace, null));
    assertThat(response.statusCode()).as(response.bodyAsString()).isEqualTo(200);
    JsonObject data = response.bodyAsJsonObject().getJsonObject("data");
    Row row = app.rows("SELECT session_id, session_source FROM events WHERE event_id = $1",
        Long.parseLong(data.getString("event_id").substring(4))).get(0);
    assertThat(row.getString("session_id")).isEqualTo(data.getString("session_id"));
    return new String[] {data.getString("session_id"), row.getString("session_source")};
  }

  private void invite(String apiKey, String workspace, String sessionId) {
    assertThat(app.postJson("/api/v1/sessions/invites", apiKey, new JsonObject().put("workspace_id", workspace)
        .put("telegram_id", USER).put("session_id", sessionId)).statusCode()).isEqualTo(200);
  }

  /**
   * An earlier event that carried a session (what the analytics and last known sources read), received
   * {@code daysAgo}: its time and its time-ordered id moved back together, so it lies in that day's partition.
   */
  private void pastEventWithSession(String apiKey, String workspace, String sessionId, int daysAgo) {
    assertThat(app.postEvent(apiKey, event(workspace, sessionId)).statusCode()).isEqualTo(200);
    app.rows("UPDATE events SET received_at = received_at - make_interval(days => $1), "
        + "event_id = event_id - (($1::bigint * 86400000) << 22) WHERE session_id = $2", daysAgo, sessionId);
  }

  /** A session only the last known source finds: carried by an event from before the 28-day window. */
  private void lastKnown(String apiKey, String workspace, String sessionId) {
    pastEventWithSession(apiKey, workspace, sessionId, 40);
  }

  @Test
  @DisplayName("a supplied session_id wins over every source and is used as is, even with no click captured")
  void suppliedWins() {
    invite(KEY_A, WS_A, "inv_1");
    pastEventWithSession(KEY_A, WS_A, "ana_1", 1);
    lastKnown(KEY_A, WS_A, "last_1");

    HttpResponse<Buffer> response = app.postEvent(KEY_A, event(WS_A, "sup_1"));

    assertThat(response.bodyAsJsonObject().getJsonObject("data").getString("session_id")).isEqualTo("sup_1");
    assertThat(app.rows("SELECT session_source FROM events WHERE session_id = 'sup_1'").get(0).getString(0))
        .isEqualTo("supplied");
  }

  @Test
  @DisplayName("the invite source beats analytics, and the newest invite wins")
  void inviteBeatsAnalytics() {
    pastEventWithSession(KEY_A, WS_A, "ana_1", 1);
    invite(KEY_A, WS_A, "inv_old");
    invite(KEY_A, WS_A, "inv_new");
    app.rows("UPDATE invite_sessions SET created_at = now() - interval '1 day' WHERE session_id = 'inv_old'");

    assertThat(resolveFor(KEY_A, WS_A)).containsExactly("inv_new", "invite");
  }

  @Test
  @DisplayName("the analytics source beats the last known session")
  void analyticsBeatsLastKnown() {
    pastEventWithSession(KEY_A, WS_A, "ana_1", 3);
    lastKnown(KEY_A, WS_A, "last_1");

    assertThat(resolveFor(KEY_A, WS_A)).containsExactly("ana_1", "analytics");
  }

  @Test
  @DisplayName("an event older than the attribution window is not used by analytics, but last known still finds it")
  void windowExcludesOldAnalytics() {
    pastEventWithSession(KEY_A, WS_A, "old_1", 40);

    assertThat(resolveFor(KEY_A, WS_A)).containsExactly("old_1", "last_known");
  }

  @Test
  @DisplayName("with nothing found the event is accepted with a null session and counted as unattributed")
  void nothingFound() {
    assertThat(resolveFor(KEY_A, WS_A)).containsExactly(null, "none");
    assertThat(app.metrics())
        .containsPattern("event_router_events_stored_total\\{session_source=\"none\"} [1-9]")
        .containsPattern("event_router_write_commits_total [1-9]")
        .containsPattern("event_router_write_batch_size_count [1-9]");
  }

  @ParameterizedTest
  @ValueSource(strings = {"invite", "analytics", "last_known"})
  @DisplayName("a workspace never sees another workspace's sessions, from any source")
  void workspaceIsolation(String source) {
    switch (source) {
      case "invite" -> invite(KEY_B, WS_B, "b_inv");
      case "analytics" -> pastEventWithSession(KEY_B, WS_B, "b_ana", 1);
      default -> lastKnown(KEY_B, WS_B, "b_last");
    }

    assertThat(resolveFor(KEY_A, WS_A)).containsExactly(null, "none");
  }

  @Test
  @DisplayName("a source whose table is locked exceeds its budget and is skipped: the next source answers")
  void failingSourceFallsThrough() throws Exception {
    // The invite would win if its source answered; behind the lock it cannot.
    invite(KEY_A, WS_A, "inv_1");
    pastEventWithSession(KEY_A, WS_A, "ana_1", 1);
    try (Connection lock = PostgresServer.dataSource(PgConnectOptions.fromUri(databaseUrl)).getConnection()) {
      lock.setAutoCommit(false);
      lock.createStatement().execute("LOCK TABLE invite_sessions IN ACCESS EXCLUSIVE MODE");

      assertThat(resolveFor(KEY_A, WS_A)).containsExactly("ana_1", "analytics");

      lock.rollback();
    }
    assertThat(resolveFor(KEY_A, WS_A)).containsExactly("inv_1", "invite");
  }

  @Test
  @DisplayName("the last known session is the newest any earlier event of the user carried, however old, while "
      + "events are kept")
  void lastKnownFollowsEvents() {
    lastKnown(KEY_A, WS_A, "first");
    app.rows("UPDATE events SET received_at = received_at - interval '10 days', "
        + "event_id = event_id - ((10::bigint * 86400000) << 22) WHERE session_id = 'first'");
    lastKnown(KEY_A, WS_A, "second");

    assertThat(resolveFor(KEY_A, WS_A)).containsExactly("second", "last_known");
  }
}
