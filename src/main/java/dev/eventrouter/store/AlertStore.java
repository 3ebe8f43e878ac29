package dev.eventrouter.store;

import dev.eventrouter.event.ReconcileQuery;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.RowSet;
import io.vertx.sqlclient.SqlConnection;
import io.vertx.sqlclient.Tuple;

import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Function;

/**
 * SQL for the alert rounds that evaluate every workspace's conditions (one node's at a time, under the cursor row's
 * lock): the facts they read, the conditions' states they keep, and the messages they queue for {@link AlertOutbox}.
 */
public final class AlertStore {

  /** How many things happened in a window, how many of them since the last round, and the latest words on them. */
  public record Tally(String subject, long inWindow, long fresh, String detail) {}

  /** A cost source that fails ({@code paused}: its token was refused) since a time, in the platform's words. */
  public record CostTrouble(String sourceId, boolean paused, Instant since, String detail) {}

  /** A message for one target, to queue. */
  public record NewAlert(UUID workspaceId, String target, JsonObject message) {}

  /** What a round leaves: every condition's state (those left out are done with), and the messages to send. */
  public record Plan(List<AlertState> states, List<NewAlert> alerts) {}

  static final String LOCK = "SELECT last_at, now() AS now FROM alert_rounds WHERE id = 1 FOR UPDATE SKIP LOCKED";

  /**
   * Up to the round's own time ($4) only: a row stamped after it (its transaction began later, yet committed before
   * this read) is the next round's, as new, and never counted twice.
   */
  static final String ENDED_BADLY = """
      SELECT network || '/' || integration_id AS subject, count(*) AS in_window,
             count(*) FILTER (WHERE updated_at > $3) AS fresh,
             (array_agg(last_error ORDER BY updated_at DESC))[1] AS detail
        FROM deliveries
       WHERE status IN ('failed', 'expired') AND updated_at > $2 AND updated_at <= $4 AND workspace_id = $1
       GROUP BY network, integration_id""";

  /** Up to the round's own time ($5), as {@link #ENDED_BADLY}. */
  static final String POSTBACKS = """
      SELECT source_id AS subject, count(*) AS in_window, count(*) FILTER (WHERE received_at > $4) AS fresh,
             (array_agg(detail ORDER BY received_at DESC))[1] AS detail
        FROM postbacks
       WHERE workspace_id = $1 AND outcome = $2 AND received_at > $3 AND received_at <= $5
       GROUP BY source_id""";

  /** Whether the workspace has an event in the last $3 hours (d = 0), and in the same hours d days before. */
  static final String EVENTS_IN_HOURS = """
      SELECT d, EXISTS (
                 SELECT 1 FROM events e
                  WHERE e.workspace_id = $1
                    AND e.event_id >= event_id_floor($2::timestamptz - make_interval(days => d, hours => $3::int))
                    AND e.event_id < event_id_floor($2::timestamptz - make_interval(days => d))) AS seen
        FROM generate_series(0, $4::int) AS d ORDER BY d""";

  /** As the invite-link pool counts them: not handed out, and not about to expire. */
  static final String FREE_LINKS = """
      SELECT chat_id, count(*) AS free FROM telegram_invite_links
       WHERE workspace_id = $1 AND session_id IS NULL AND expires_at > now() + interval '1 hour'
       GROUP BY chat_id""";

  static final String SAVE_STATE = """
      INSERT INTO alert_states (workspace_id, condition, subject, active_since, firing, told, last_sent_at, pending,
                                detail)
      VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)""";

  private final Pool pool;

  public AlertStore(Pool pool) {
    this.pool = pool;
  }

  /**
   * Runs {@code work} as the cluster's round, unless another node's round holds the cursor or one ran less than
   * {@code minGapMs} ago; saves what it plans in the same transaction. Completes with whether it ran.
   */
  public Future<Boolean> round(long minGapMs, Function<Round, Future<Plan>> work) {
    return pool.withTransaction(conn -> conn.query(LOCK).execute().compose(rows -> {
      if (rows.size() == 0) {
        return Future.succeededFuture(false); // another node's round is running
      }
      Row row = rows.iterator().next();
      Instant last = row.getOffsetDateTime("last_at").toInstant();
      Instant now = row.getOffsetDateTime("now").toInstant();
      if (now.isBefore(last.plusMillis(minGapMs))) {
        return Future.succeededFuture(false); // another node's round ran just now
      }
      return work.apply(new Round(conn, last, now)).compose(plan -> save(conn, plan, now)).map(true);
    }));
  }

  /** The reads of one round, on its connection. */
  public static final class Round {
    private final SqlConnection conn;
    private final Instant last;
    private final Instant now;

    private Round(SqlConnection conn, Instant last, Instant now) {
      this.conn = conn;
      this.last = last;
      this.now = now;
    }

    /** The database's time of this round: every condition is judged by it. */
    public Instant now() {
      return now;
    }

    /** When the round before ran: what happened since is new to this one. */
    public Instant last() {
      return last;
    }

    public Future<List<AlertState>> states() {
      return conn.query("SELECT * FROM alert_states").execute().map(rows -> {
        List<AlertState> states = new ArrayList<>();
        for (Row row : rows) {
          states.add(new AlertState(row.getUUID("workspace_id"), row.getString("condition"), row.getString("subject"),
              instant(row.getOffsetDateTime("active_since")), row.getBoolean("firing"), row.getString("told"),
              instant(row.getOffsetDateTime("last_sent_at")), row.getLong("pending"), row.getString("detail")));
        }
        return states;
      });
    }

    /** The workspace's cost sources that fail or are paused, with when it began and the platform's words. */
    /** What was delivered to a network beside its own counts ({@link ReconcileReports}). */
    public Future<ReconcileReports.Sides> reconcile(ReconcileQuery query) {
      return ReconcileReports.sides(conn, query);
    }

    public Future<List<CostTrouble>> costTroubles(UUID workspaceId) {
      return conn.preparedQuery("SELECT source_id, state, failing_since, last_error FROM cost_sources "
          + "WHERE workspace_id = $1 AND state IN ('failing', 'paused') ORDER BY source_id")
          .execute(Tuple.of(workspaceId)).map(rows -> {
            List<CostTrouble> troubles = new ArrayList<>();
            for (Row row : rows) {
              troubles.add(new CostTrouble(row.getString("source_id"), "paused".equals(row.getString("state")),
                  instant(row.getOffsetDateTime("failing_since")), row.getString("last_error")));
            }
            return troubles;
          });
    }

    /** Every paused integration, with the network's words (token redacted when it was stored). */
    public Future<List<Pause>> pauses() {
      return conn.query("SELECT * FROM integration_pauses").execute().map(Pause::of);
    }

    /** The workspace's deliveries that ended failed or expired since {@code since}, per "network/integration". */
    public Future<List<Tally>> endedBadly(UUID workspaceId, Instant since) {
      return conn.preparedQuery(ENDED_BADLY).execute(Tuple.of(workspaceId, at(since), at(last), at(now)))
          .map(AlertStore::tallies);
    }

    /** The workspace's postbacks of one outcome received since {@code since}, per postback source. */
    public Future<List<Tally>> postbacks(UUID workspaceId, String outcome, Instant since) {
      return conn.preparedQuery(POSTBACKS).execute(Tuple.of(workspaceId, outcome, at(since), at(last), at(now)))
          .map(AlertStore::tallies);
    }

    /**
     * Whether the workspace had an event in the last {@code hours} (index 0), and in the same hours 1 to
     * {@code days} days before (index d).
     */
    public Future<boolean[]> eventsInHours(UUID workspaceId, int hours, int days) {
      return conn.preparedQuery(EVENTS_IN_HOURS).execute(Tuple.of(workspaceId, at(now), hours, days)).map(rows -> {
        boolean[] seen = new boolean[days + 1];
        for (Row row : rows) {
          seen[row.getInteger("d")] = row.getBoolean("seen");
        }
        return seen;
      });
    }

    /** The free invite links of the workspace's channels that have any. */
    public Future<Map<String, Long>> freeLinks(UUID workspaceId) {
      return conn.preparedQuery(FREE_LINKS).execute(Tuple.of(workspaceId)).map(rows -> {
        Map<String, Long> free = new HashMap<>();
        rows.forEach(row -> free.put(row.getString("chat_id"), row.getLong("free")));
        return free;
      });
    }
  }

  private static List<Tally> tallies(RowSet<Row> rows) {
    List<Tally> tallies = new ArrayList<>();
    for (Row row : rows) {
      tallies.add(new Tally(row.getString("subject"), row.getLong("in_window"), row.getLong("fresh"),
          row.getString("detail")));
    }
    return tallies;
  }

  private static Future<Void> save(SqlConnection conn, Plan plan, Instant now) {
    List<Tuple> states = plan.states().stream().map(s -> Tuple.from(new Object[] {s.workspaceId(), s.condition(),
        s.subject(), at(s.activeSince()), s.firing(), s.told(), at(s.lastSentAt()), s.pending(), s.detail()}))
        .toList();
    List<Tuple> alerts = plan.alerts().stream().map(a -> Tuple.of(a.workspaceId(), a.target(), a.message()))
        .toList();
    Future<?> saved = conn.query("DELETE FROM alert_states").execute();
    if (!states.isEmpty()) {
      saved = saved.compose(v -> conn.preparedQuery(SAVE_STATE).executeBatch(states));
    }
    if (!alerts.isEmpty()) {
      saved = saved.compose(v -> conn.preparedQuery(
          "INSERT INTO alert_outbox (workspace_id, target, message) VALUES ($1, $2, $3)").executeBatch(alerts));
    }
    return saved.compose(v -> conn.preparedQuery("UPDATE alert_rounds SET last_at = $1 WHERE id = 1")
        .execute(Tuple.of(at(now)))).mapEmpty();
  }

  private static OffsetDateTime at(Instant instant) {
    return instant == null ? null : instant.atOffset(ZoneOffset.UTC);
  }

  private static Instant instant(OffsetDateTime at) {
    return at == null ? null : at.toInstant();
  }
}
