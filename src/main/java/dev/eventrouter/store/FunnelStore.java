package dev.eventrouter.store;

import dev.eventrouter.event.FunnelQuery;
import io.vertx.core.Future;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.SqlConnection;
import io.vertx.sqlclient.Tuple;

import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Collectors;

/**
 * SQL of the funnel report: the hourly rollups, kept by rounds that each add what was written in a span of time
 * (clicks, invite sessions, events, status changes) under one lock, and the report read from them alone.
 *
 * <p>A round takes rows written before {@code now() - lag}: a row's time (its event id, its created_at) is taken
 * before its transaction commits, so the lag must exceed the longest a write may take to commit. Anything later
 * would be skipped for good.
 */
public final class FunnelStore {

  private static final List<String> DIMENSIONS = FunnelQuery.DIMENSIONS;

  /** The span a round adds: from the cursor, up to $1 (the lag) before now, at most $2 (the span) long. */
  static final String CLAIM = """
      SELECT upto, least(now() - make_interval(secs => $1::float8 / 1000),
                         upto + make_interval(secs => $2::float8 / 1000)) AS hi
        FROM funnel_cursor WHERE id = 1 FOR UPDATE SKIP LOCKED""";

  static final String ADVANCE = "UPDATE funnel_cursor SET upto = $1 WHERE id = 1";

  /** A value in the workspace's report currency ($3, $4: workspaces and their currencies) on the day of {@code e}. */
  private static final String CONVERTED = """
      CASE WHEN %1$s.currency = w.cur THEN %1$s.value
           ELSE round(%1$s.value * fx_per_eur(w.cur, (e.received_at AT TIME ZONE 'UTC')::date)
                      / fx_per_eur(%1$s.currency, (e.received_at AT TIME ZONE 'UTC')::date), 6) END""";

  private static final String EVENTS_IN_SPAN = "e.event_id >= event_id_floor($1) AND e.event_id < event_id_floor($2)";

  /**
   * The report values of the span's conversions in another currency than their workspace's report currency. One in
   * the report currency gets no row: its value is its report value, which no rate changes (most conversions, and a
   * row each would be a random-order index insert per conversion).
   */
  static final String VALUES_OF_EVENTS = """
      INSERT INTO conversion_values (event_id, seq, report_value, report_currency)
      SELECT e.event_id, 0, %s, w.cur
        FROM events e JOIN unnest($3::uuid[], $4::text[]) AS w(workspace_id, cur) ON w.workspace_id = e.workspace_id
       WHERE %s AND e.value IS NOT NULL AND e.currency IS DISTINCT FROM w.cur
      ON CONFLICT DO NOTHING""".formatted(CONVERTED.formatted("e"), EVENTS_IN_SPAN);

  static final String VALUES_OF_CHANGES = """
      INSERT INTO conversion_values (event_id, seq, report_value, report_currency)
      SELECT h.event_id, h.seq, %s, w.cur
        FROM conversion_changes h JOIN events e ON e.event_id = h.event_id
        JOIN unnest($3::uuid[], $4::text[]) AS w(workspace_id, cur) ON w.workspace_id = e.workspace_id
       WHERE h.changed_at >= $1 AND h.changed_at < $2 AND h.value IS NOT NULL
      ON CONFLICT DO NOTHING""".formatted(CONVERTED.formatted("h"));

  /** The dimensions of a fact through its click session {@code c} ('' where unknown). */
  private static String dims(String bot, String channel) {
    return """
        coalesce(c.utm->>'utm_source', ''), coalesce(c.utm->>'utm_medium', ''), coalesce(c.utm->>'utm_campaign', ''),
               coalesce(c.utm->>'utm_content', ''), coalesce(c.utm->>'utm_term', ''),
               coalesce(c.ad->>'campaign_id', ''), coalesce(c.ad->>'adset_id', ''), coalesce(c.ad->>'ad_id', ''),
               coalesce(c.ad->>'placement', ''), coalesce(%s, ''), coalesce(%s, ''), coalesce(c.country, '')"""
        .formatted(bot, channel);
  }

  private static final String CLICK_OF = "LEFT JOIN click_sessions c ON c.workspace_id = %1$s.workspace_id"
      + " AND c.session_id = %1$s.session_id";

  private static final String COLUMNS = String.join(", ", DIMENSIONS);
  /** The counts and amounts of a rollup row, which add up across rows, hours and days. */
  private static final List<String> SUMS = List.of("n", "users", "revenue", "unconverted", "pending", "approved",
      "rejected", "chargeback");

  /** The sums of the sums, each named for its column: a rollup row made of finer rows. */
  private static final String SUMMED = String.join(", ", SUMS.stream().map(sum -> "sum(" + sum + ") AS " + sum)
      .toList());

  /** Whether any sum of a group is not 0. */
  private static final String ANY_SUM = String.join(" OR ", SUMS.stream().map(sum -> "sum(" + sum + ") <> 0")
      .toList());

  /** An upsert's SET list adding the new sums to a table's row. */
  private static String addUp(String table) {
    return String.join(", ", SUMS.stream().map(sum -> sum + " = " + table + "." + sum + " + EXCLUDED." + sum)
        .toList());
  }

  /**
   * Adds the span's facts to the rollups. Each fact is a row of counts; a status change moves its conversion's
   * count (and revenue, at approved) from the previous status to the new one, in its event's hour, and an
   * unsubscribe (a JoinRequest rejected for leaving the channel) is a step of its own. A /start, join request or join
   * is counted under its click's bot and channel, as the session's events and unsubscribes are, even when it came
   * through another bot or to another channel; under the bot and channel it came through only when the click names
   * none (a session no capture made).
   */
  static final String ROLL_UP = """
      WITH span_firsts AS (
          SELECT e.workspace_id, e.event_name, e.telegram_id, min(e.event_id) AS event_id FROM events e
           WHERE %1$s AND e.telegram_id IS NOT NULL
           GROUP BY e.workspace_id, e.event_name, e.telegram_id),
      firsts AS (
          INSERT INTO funnel_firsts (workspace_id, event_name, telegram_id)
          SELECT workspace_id, event_name, telegram_id FROM span_firsts
          ON CONFLICT DO NOTHING
          RETURNING workspace_id, event_name, telegram_id),
      new_users AS (
          SELECT s.event_id FROM span_firsts s JOIN firsts f USING (workspace_id, event_name, telegram_id)),
      ev AS (
          SELECT e.*, coalesce(e.conversion_status, 'approved') AS s,
                 CASE WHEN v.event_id IS NULL THEN e.value ELSE v.report_value END AS report_value,
                 v.event_id IS NOT NULL AND v.report_value IS NULL AS unconverted
            FROM events e LEFT JOIN conversion_values v ON v.event_id = e.event_id AND v.seq = 0
           WHERE %1$s),
      facts (workspace_id, at, %2$s, step, n, users, revenue, unconverted, pending, approved, rejected,
             chargeback) AS (
          SELECT c.workspace_id, c.clicked_at, %3$s, '$click', 1, 0, 0::numeric, 0, 0, 0, 0, 0
            FROM click_sessions c WHERE c.created_at >= $1 AND c.created_at < $2
          UNION ALL
          SELECT i.workspace_id, i.created_at, %4$s,
                 CASE i.via WHEN 'api' THEN '$start' ELSE '$' || i.via END, 1, 0, 0, 0, 0, 0, 0, 0
            FROM invite_sessions i %5$s
           WHERE i.created_at >= $1 AND i.created_at < $2
          UNION ALL
          SELECT e.workspace_id, e.received_at, %3$s, e.event_name, 1, (u.event_id IS NOT NULL)::int,
                 CASE WHEN e.s = 'approved' THEN coalesce(e.report_value, 0) ELSE 0 END,
                 (e.s = 'approved' AND e.unconverted)::int,
                 (e.s = 'pending')::int, (e.s = 'approved')::int, (e.s = 'rejected')::int, (e.s = 'chargeback')::int
            FROM ev e %6$s
            LEFT JOIN new_users u ON u.event_id = e.event_id
          UNION ALL
          SELECT e.workspace_id, e.received_at, %3$s, e.event_name, 0, 0,
                 CASE WHEN h.status = 'approved' THEN coalesce(nv.report_value, 0) ELSE 0 END
                   - CASE WHEN h.previous_status <> 'approved' THEN 0
                          WHEN pv.event_id IS NULL AND h.seq = 1 THEN coalesce(e.value, 0) -- the event's own, as in ev
                          ELSE coalesce(pv.report_value, 0) END,
                 (h.status = 'approved' AND nv.event_id IS NOT NULL AND nv.report_value IS NULL)::int
                   - (h.previous_status = 'approved' AND pv.event_id IS NOT NULL AND pv.report_value IS NULL)::int,
                 (h.status = 'pending')::int - (h.previous_status = 'pending')::int,
                 (h.status = 'approved')::int - (h.previous_status = 'approved')::int,
                 (h.status = 'rejected')::int - (h.previous_status = 'rejected')::int,
                 (h.status = 'chargeback')::int - (h.previous_status = 'chargeback')::int
            FROM conversion_changes h JOIN events e ON e.event_id = h.event_id %6$s
            LEFT JOIN conversion_values nv ON nv.event_id = h.event_id AND nv.seq = h.seq
            LEFT JOIN conversion_values pv ON pv.event_id = h.event_id AND pv.seq = h.seq - 1
           WHERE h.changed_at >= $1 AND h.changed_at < $2
          UNION ALL
          SELECT e.workspace_id, e.received_at, %3$s, '$unsubscribe', 1, 0, 0, 0, 0, 0, 0, 0
            FROM conversion_changes h JOIN events e ON e.event_id = h.event_id %6$s
           WHERE h.changed_at >= $1 AND h.changed_at < $2 AND h.reason = 'left_channel'),
      grouped AS (
          SELECT workspace_id, date_trunc('hour', at, 'UTC') AS hour, %2$s, step, SUMMED
            FROM facts
           GROUP BY workspace_id, date_trunc('hour', at, 'UTC'), %2$s, step),
      daily AS (
          INSERT INTO funnel_rollup_day (workspace_id, day, %2$s, step, SUMS)
          SELECT g.workspace_id, (g.hour AT TIME ZONE z.zone)::date, %2$s, step, SUMMED
            FROM grouped g JOIN funnel_day_zone z ON z.workspace_id = g.workspace_id
           GROUP BY g.workspace_id, (g.hour AT TIME ZONE z.zone)::date, %2$s, step
          ON CONFLICT (workspace_id, day, step, %2$s) DO UPDATE SET ADD_UP_DAY),
      total AS (
          INSERT INTO funnel_rollup_total (workspace_id, hour, step, SUMS)
          SELECT workspace_id, hour, step, SUMMED FROM grouped GROUP BY workspace_id, hour, step
          ON CONFLICT (workspace_id, hour, step) DO UPDATE SET ADD_UP_TOTAL)
      INSERT INTO funnel_rollup (workspace_id, hour, %2$s, step, SUMS)
      SELECT workspace_id, hour, %2$s, step, SUMS FROM grouped
      ON CONFLICT (workspace_id, hour, step, %2$s) DO UPDATE SET ADD_UP_HOUR"""
      .formatted(EVENTS_IN_SPAN, COLUMNS, dims("c.bot", "c.channel"),
          dims("coalesce(c.bot, i.bot)", "coalesce(c.channel, i.channel)"), CLICK_OF.formatted("i"),
          CLICK_OF.formatted("e"))
      .replace("SUMMED", SUMMED)
      .replace("SUMS", String.join(", ", SUMS))
      .replace("ADD_UP_DAY", addUp("funnel_rollup_day"))
      .replace("ADD_UP_TOTAL", addUp("funnel_rollup_total"))
      .replace("ADD_UP_HOUR", addUp("funnel_rollup"));

  /** The configured workspaces whose day rows are in another zone than their report_timezone now (or in none). */
  private static final String STALE_ZONES = """
      SELECT c.workspace_id, c.zone FROM unnest($1::uuid[], $2::text[]) AS c(workspace_id, zone)
        LEFT JOIN funnel_day_zone d ON d.workspace_id = c.workspace_id
       WHERE d.zone IS DISTINCT FROM c.zone""";

  /** A workspace's day rows dropped, its day zone set; {@link #REZONE_FILL} makes them again in that zone. */
  static final String REZONE = """
      WITH gone AS (DELETE FROM funnel_rollup_day WHERE workspace_id = $1)
      INSERT INTO funnel_day_zone (workspace_id, zone) VALUES ($1, $2)
      ON CONFLICT (workspace_id) DO UPDATE SET zone = EXCLUDED.zone""";

  /** A workspace's day rows, in the local days of its zone ($2), from its hours. */
  static final String REZONE_FILL = """
      INSERT INTO funnel_rollup_day (workspace_id, day, %1$s, step, %2$s)
      SELECT workspace_id, (hour AT TIME ZONE $2)::date, %1$s, step, %3$s FROM funnel_rollup
       WHERE workspace_id = $1
       GROUP BY workspace_id, (hour AT TIME ZONE $2)::date, %1$s, step""".formatted(COLUMNS, String.join(", ", SUMS),
      SUMMED);

  static final String IMPORT_RATES = """
      INSERT INTO fx_rates (currency, day, per_eur)
      SELECT * FROM unnest($1::text[], $2::date[], $3::numeric[])
      ON CONFLICT (currency, day) DO UPDATE SET per_eur = EXCLUDED.per_eur
       WHERE fx_rates.per_eur IS DISTINCT FROM EXCLUDED.per_eur""";

  static final String PURGE = """
      WITH daily AS (
          DELETE FROM funnel_rollup_day WHERE day < (now() - make_interval(days => $1)) AT TIME ZONE 'UTC'),
      total AS (
          DELETE FROM funnel_rollup_total WHERE hour < now() - make_interval(days => $1))
      DELETE FROM funnel_rollup WHERE hour < now() - make_interval(days => $1)""";

  /** What one round did: the instant the rollups now reach, and whether the backlog goes on past it. */
  public record Round(OffsetDateTime upto, boolean behind) {}

  /** The sums of one group and step of a report. */
  public record Sums(List<String> group, String step, long n, long users, BigDecimal revenue, long unconverted,
                     long pending, long approved, long rejected, long chargeback) {}

  private final Pool pool;
  private final Pool readPool;

  public FunnelStore(Pool pool, Pool readPool) {
    this.pool = pool;
    this.readPool = readPool;
  }

  /**
   * One round: rolls up what was written since the last round and before {@code now() - lagMs} (at most
   * {@code spanMs} of it), or nothing when another node holds the round. Empty when there was nothing to take.
   *
   * @param reportCurrencies each configured workspace's report currency
   * @param reportZones      each configured workspace's report zone (an id java.time and PostgreSQL both read)
   */
  public Future<Round> rollUp(long lagMs, long spanMs, Map<UUID, String> reportCurrencies,
                              Map<UUID, String> reportZones) {
    UUID[] workspaces = reportCurrencies.keySet().toArray(UUID[]::new);
    String[] currencies = valuesOf(workspaces, reportCurrencies);
    return pool.withTransaction(conn -> conn.preparedQuery(CLAIM).execute(Tuple.of(lagMs, spanMs)).compose(rows -> {
      if (rows.size() == 0) {
        return Future.succeededFuture((Round) null); // another node's round is running
      }
      Row row = rows.iterator().next();
      OffsetDateTime from = row.getOffsetDateTime("upto");
      OffsetDateTime to = row.getOffsetDateTime("hi");
      if (!to.isAfter(from)) {
        return Future.succeededFuture(new Round(from, false));
      }
      Tuple span = Tuple.of(from, to, workspaces, currencies);
      return rezone(conn, workspaces, valuesOf(workspaces, reportZones))
          .compose(v -> run(conn, VALUES_OF_EVENTS, span))
          .compose(v -> run(conn, VALUES_OF_CHANGES, span))
          .compose(v -> conn.preparedQuery(ROLL_UP).execute(Tuple.of(from, to)))
          .compose(v -> conn.preparedQuery(ADVANCE).execute(Tuple.of(to)))
          .map(v -> new Round(to, !to.isBefore(from.plus(Duration.ofMillis(spanMs)))));
    }));
  }

  /** Makes the day rows again of each workspace whose report zone is new (its first round, or a changed config). */
  private static Future<Void> rezone(SqlConnection conn, UUID[] workspaces, String[] zones) {
    // Cast: a String[] would be spread as varargs.
    return conn.preparedQuery(STALE_ZONES).execute(Tuple.of(workspaces, (Object) zones)).compose(stale -> {
      Future<Void> done = Future.succeededFuture();
      for (Row row : stale) {
        Tuple workspace = Tuple.of(row.getUUID("workspace_id"), row.getString("zone"));
        done = done.compose(v -> run(conn, REZONE, workspace)).compose(v -> run(conn, REZONE_FILL, workspace));
      }
      return done;
    });
  }

  /** The map's value of each workspace, in the array's order: a column for {@code unnest}. */
  private static String[] valuesOf(UUID[] workspaces, Map<UUID, String> values) {
    return Arrays.stream(workspaces).map(values::get).toArray(String[]::new);
  }

  private static Future<Void> run(SqlConnection conn, String sql, Tuple params) {
    return conn.preparedQuery(sql).execute(params).mapEmpty();
  }

  /** Stores the rates of a rates file (a rate already stored unchanged is not rewritten). */
  public Future<Integer> importRates(List<String> currencies, List<LocalDate> days, List<BigDecimal> perEur) {
    return pool.preparedQuery(IMPORT_RATES).execute(Tuple.of(currencies.toArray(String[]::new),
            days.toArray(LocalDate[]::new), perEur.toArray(BigDecimal[]::new)))
        .map(rows -> rows.rowCount());
  }

  /** The instant the rollups reach: what was written before it is in the report. */
  public Future<OffsetDateTime> rolledUpTo() {
    return readPool.query("SELECT upto FROM funnel_cursor WHERE id = 1").execute()
        .map(rows -> rows.iterator().next().getOffsetDateTime("upto"));
  }

  /** Deletes the rollups of hours older than the days given; how many rows went. */
  public Future<Integer> purge(int days) {
    return pool.preparedQuery(PURGE).execute(Tuple.of(days)).map(rows -> rows.rowCount());
  }

  /**
   * A report's rows carry their day in the report's zone ($4), a date: an hour's is worked out for each hourly row,
   * a day row's is its own (or it is not read).
   */
  private static final String DAY_OF_HOUR = "(hour AT TIME ZONE $4)::date AS day";

  /** A report reads one snapshot and writes nothing. */
  static final String SNAPSHOT = "SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY";

  /** A report's memory to group in (PostgreSQL's own default is 4MB). */
  private static final String REPORT_WORK_MEM = "16MB";

  /**
   * A report's second statement: the zone the workspace's day rows are in (null before its first round), and the
   * report's settings for this transaction only. A report groups a few thousand groups out of up to a hundred
   * thousand rows: with the default work_mem PostgreSQL sorts them on disk, with a little more it hashes them in
   * memory, twice as fast; and each report is planned for its own range (a generic plan cannot know how many rows
   * a range holds). The read pool's few connections bound what this can hold.
   */
  static final String READ_SETTINGS = """
      SELECT set_config('work_mem', '%s', true), set_config('plan_cache_mode', 'force_custom_plan', true),
             (SELECT zone FROM funnel_day_zone WHERE workspace_id = $1) AS zone""".formatted(REPORT_WORK_MEM);

  /**
   * A report's sums per group (the query's dimensions, in order) and step, ordered by group; at most {@code limit}
   * rows. With no dimension, one group: the totals. Read in one snapshot, so the day rows read are in the zone that
   * was read (a round that makes them again in another zone commits wholly before or after it).
   */
  public Future<List<Sums>> sums(FunnelQuery query, List<String> groupBy, int limit) {
    return readPool.withTransaction(conn -> conn.query(SNAPSHOT).execute()
        .compose(v -> conn.preparedQuery(READ_SETTINGS).execute(Tuple.of(query.workspaceId())))
        .compose(settings -> {
          String zone = settings.iterator().next().getString("zone");
          return sums(conn, query, groupBy, query.dayZone().getId().equals(zone), limit);
        }));
  }

  private static Future<List<Sums>> sums(SqlConnection conn, FunnelQuery query, List<String> groupBy,
                                         boolean dayLayer, int limit) {
    List<String> groups = new ArrayList<>();
    for (String dimension : groupBy) {
      groups.add(expression(dimension));
    }
    List<Object> params = new ArrayList<>(List.of(query.workspaceId(), query.from().atOffset(ZoneOffset.UTC),
        query.to().atOffset(ZoneOffset.UTC), query.zone().getId()));
    String source = source(query, Reading.of(query, groupBy), dayLayer, params);
    // The range ($2, $3) and the zone ($4) are always bound, and used here too: a source that reads whole days only
    // (or groups by no day) names none of them, and PostgreSQL refuses a parameter it cannot type.
    StringBuilder where = new StringBuilder("$2::timestamptz < $3::timestamptz AND $4::text IS NOT NULL");
    for (Map.Entry<String, List<String>> filter : query.filters().entrySet()) {
      params.add(filter.getValue().toArray(String[]::new));
      // A day is filtered by its text, so a value that is no date matches nothing.
      String filtered = FunnelQuery.DAY.equals(filter.getKey()) ? "to_char(day, 'YYYY-MM-DD')"
          : expression(filter.getKey());
      where.append(" AND ").append(filtered).append(" = ANY($").append(params.size())
          .append("::text[])");
    }
    params.add(limit);
    String selected = groups.isEmpty() ? "" : String.join(", ", groups) + ", ";
    // A group whose sums are all 0 is no row: the days of another zone take hours away, which can leave one.
    String sql = "SELECT " + selected + "step, " + SUMMED + " FROM (" + source + ") r WHERE " + where
        + " GROUP BY " + selected + "step HAVING " + ANY_SUM + " ORDER BY " + selected + "step LIMIT $"
        + params.size();
    return conn.preparedQuery(sql).execute(Tuple.from(params)).map(rows -> {
      List<Sums> sums = new ArrayList<>();
      for (Row row : rows) {
        List<String> group = new ArrayList<>();
        for (int i = 0; i < groups.size(); i++) {
          group.add(String.valueOf(row.getValue(i))); // a text, or a day: a LocalDate, read as 2026-11-26
        }
        sums.add(new Sums(List.copyOf(group), row.getString("step"), row.getLong("n"), row.getLong("users"),
            row.getBigDecimal("revenue"), row.getLong("unconverted"), row.getLong("pending"),
            row.getLong("approved"), row.getLong("rejected"), row.getLong("chargeback")));
      }
      return sums;
    });
  }

  /**
   * The rows a report adds up, from the coarsest layer that answers it: the hourly totals when it neither groups nor
   * filters by any dimension but the day; else, when the workspace's day rows are in its report zone
   * ({@code dayLayer}), the days wholly inside its range (and the hours at its edges), or, grouped by the days of
   * another zone, those days shifted ({@link #shiftedDays}); else the hours. Each part is summed by what the report
   * reads before the parts are added up. Binds the day layer's bounds into {@code params}.
   */
  private static String source(FunnelQuery query, Reading read, boolean dayLayer, List<Object> params) {
    String hoursFrom = "funnel_rollup WHERE workspace_id = $1 AND ";
    String allHours = read.part(DAY_OF_HOUR, hoursFrom + "hour >= $2 AND hour < $3");
    if (read.dimensions().isEmpty()) {
      return read.part(DAY_OF_HOUR, "funnel_rollup_total WHERE workspace_id = $1 AND hour >= $2 AND hour < $3");
    }
    if (!dayLayer) {
      return allHours; // a changed report_timezone whose day rows the next round makes again
    }
    ZoneId dayZone = query.dayZone();
    boolean sameDays = !read.day() || query.zone().normalized().equals(dayZone.normalized());
    if (!sameDays) {
      String shifted = shiftedDays(query, read, params);
      return shifted != null ? shifted : allHours;
    }
    LocalDate firstDay = LocalDate.ofInstant(query.from(), dayZone);
    if (firstDay.atStartOfDay(dayZone).toInstant().isBefore(query.from())) {
      firstDay = firstDay.plusDays(1);
    }
    LocalDate endDay = LocalDate.ofInstant(query.to(), dayZone);
    if (!firstDay.isBefore(endDay)) {
      return allHours;
    }
    // Each part its own range, so each is an index range (an OR of two ranges would be read as a scan).
    List<String> parts = new ArrayList<>();
    Instant daysStart = firstDay.atStartOfDay(dayZone).toInstant();
    Instant daysEnd = endDay.atStartOfDay(dayZone).toInstant();
    if (query.from().isBefore(daysStart)) {
      parts.add(read.part(DAY_OF_HOUR, hoursFrom + "hour >= $2 AND hour < "
          + bind(params, daysStart.atOffset(ZoneOffset.UTC))));
    }
    if (daysEnd.isBefore(query.to())) {
      parts.add(read.part(DAY_OF_HOUR, hoursFrom + "hour >= " + bind(params, daysEnd.atOffset(ZoneOffset.UTC))
          + " AND hour < $3"));
    }
    // Read by day, these are days of the query's zone (sameDays).
    parts.add(read.part("day", "funnel_rollup_day WHERE workspace_id = $1 AND day >= " + bind(params, firstDay)
        + " AND day < " + bind(params, endDay)));
    return String.join(" UNION ALL ", parts);
  }

  /**
   * What a report reads of its rows: the dimensions it groups or filters by, and whether their day.
   *
   * @param dimensions in the order of {@link FunnelQuery#DIMENSIONS}
   */
  private record Reading(List<String> dimensions, boolean day) {

    static Reading of(FunnelQuery query, List<String> groupBy) {
      return new Reading(DIMENSIONS.stream().filter(d -> groupBy.contains(d) || query.filters().containsKey(d))
          .toList(), groupBy.contains(FunnelQuery.DAY) || query.filters().containsKey(FunnelQuery.DAY));
    }

    /** The dimensions read, each after {@code prefix} and followed by a comma. */
    String columns(String prefix) {
      return dimensions.stream().map(d -> prefix + d + ", ").collect(Collectors.joining());
    }

    /**
     * The rows of {@code from} (a table and its conditions) summed by this reading: its day ({@code day}, an
     * expression; none when the day is not read), the dimensions read (the only ones a report's parts carry), and
     * the step.
     */
    String part(String day, String from) {
      return "SELECT " + (this.day ? day : "NULL::date AS day") + ", " + columns("") + "step, " + SUMMED
          + " FROM " + from + " GROUP BY " + (this.day ? "1, " : "") + columns("") + "step";
    }
  }

  /**
   * The days of a zone other than the day layer's, from the day layer: a day of the query's zone is the layer's day
   * of the same date, plus the hours it begins earlier (or minus those it begins later) and minus the hours it ends
   * earlier (or plus those it ends later), read from the hourly layer. So a month reads its days and a few hours a
   * day (two for Europe/Berlin against UTC), not every hour. Each row carries the date of its day in the query's zone.
   * Null (read the hours) when the range is not whole days of the query's zone, or a day's edge is not a whole hour
   * (a zone offset by a half hour).
   */
  private static String shiftedDays(FunnelQuery query, Reading read, List<Object> params) {
    ZoneId zone = query.zone();
    ZoneId dayZone = query.dayZone();
    LocalDate first = LocalDate.ofInstant(query.from(), zone);
    LocalDate end = LocalDate.ofInstant(query.to(), zone);
    if (!first.atStartOfDay(zone).toInstant().equals(query.from())
        || !end.atStartOfDay(zone).toInstant().equals(query.to())) {
      return null;
    }
    List<OffsetDateTime> edgeHours = new ArrayList<>();
    List<LocalDate> edgeDays = new ArrayList<>();
    List<Integer> signs = new ArrayList<>();
    for (LocalDate day = first; day.isBefore(end); day = day.plusDays(1)) {
      Instant start = day.atStartOfDay(zone).toInstant();
      Instant layerStart = day.atStartOfDay(dayZone).toInstant();
      Instant layerEnd = day.plusDays(1).atStartOfDay(dayZone).toInstant();
      Instant nextStart = day.plusDays(1).atStartOfDay(zone).toInstant();
      if (!wholeHour(start) || !wholeHour(layerStart) || !wholeHour(layerEnd) || !wholeHour(nextStart)) {
        return null;
      }
      // Begins earlier than the layer's day: add those hours; later: take them away. The same at the end, reversed.
      edge(start, layerStart, day, edgeHours, edgeDays, signs);
      edge(layerEnd, nextStart, day, edgeHours, edgeDays, signs);
    }
    String edgeSums = String.join(", ", SUMS.stream().map(sum -> "r." + sum + " * l.sign AS " + sum).toList());
    // An edge hour counts for two days (added to one, taken from the next), so each is summed by what the report
    // reads before it is labelled: a few rows an hour, not one per hour and combination of every dimension, twice.
    // A day row's date is its day's in the query's zone too. The edge hours' own condition (each hour once) lets
    // the planner read them by the key; the join only labels them.
    String dayRows = read.part("day", "funnel_rollup_day WHERE workspace_id = $1 AND day >= " + bind(params, first)
        + " AND day < " + bind(params, end));
    String hourSums = "SELECT hour, " + read.columns("") + "step, " + SUMMED + " FROM funnel_rollup"
        + " WHERE workspace_id = $1 AND hour = ANY(" + bind(params, edgeHours.stream().distinct()
        .toArray(OffsetDateTime[]::new)) + "::timestamptz[]) GROUP BY hour, " + read.columns("") + "step";
    String edges = "SELECT l.day, " + read.columns("r.") + "r.step, " + edgeSums + " FROM (" + hourSums + ") r"
        + " JOIN unnest(" + bind(params, edgeHours.toArray(OffsetDateTime[]::new)) + "::timestamptz[], "
        + bind(params, edgeDays.toArray(LocalDate[]::new)) + "::date[], "
        + bind(params, signs.toArray(Integer[]::new)) + "::int[]) AS l(hour, day, sign) ON r.hour = l.hour";
    return dayRows + " UNION ALL " + edges;
  }

  /**
   * The hours between {@code from} and {@code to} for {@code day}: added (1) when {@code from} comes first, taken
   * away (-1) when {@code to} does.
   */
  private static void edge(Instant from, Instant to, LocalDate day, List<OffsetDateTime> hours,
                           List<LocalDate> days, List<Integer> signs) {
    boolean added = from.isBefore(to);
    for (Instant hour = added ? from : to; hour.isBefore(added ? to : from); hour = hour.plus(Duration.ofHours(1))) {
      hours.add(hour.atOffset(ZoneOffset.UTC));
      days.add(day);
      signs.add(added ? 1 : -1);
    }
  }

  private static boolean wholeHour(Instant instant) {
    return instant.getEpochSecond() % 3600 == 0 && instant.getNano() == 0;
  }

  /** Adds a parameter; its placeholder. */
  private static String bind(List<Object> params, Object value) {
    params.add(value);
    return "$" + params.size();
  }

  /** A dimension's expression over the rows of a {@link #source}: its column (the day's a date). */
  private static String expression(String dimension) {
    if (!FunnelQuery.DAY.equals(dimension) && !DIMENSIONS.contains(dimension)) {
      throw new IllegalArgumentException("not a dimension: " + dimension);
    }
    return dimension;
  }
}
