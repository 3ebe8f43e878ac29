package dev.eventrouter.store;

import dev.eventrouter.event.FunnelQuery;
import io.vertx.core.Future;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.SqlConnection;
import io.vertx.sqlclient.Tuple;

import java.math.BigDecimal;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static dev.eventrouter.store.FunnelRollups.SUMMED;
import static dev.eventrouter.store.FunnelRollups.SUMS;

/** SQL of the funnel report: its sums, read from the rollups alone ({@link FunnelRollups}), and their reach. */
public final class FunnelReports {

  /** Whether any sum of a group is not 0. */
  private static final String ANY_SUM = String.join(" OR ", SUMS.stream().map(sum -> "sum(" + sum + ") <> 0")
      .toList());

  /** A report reads one snapshot and writes nothing. */
  static final String SNAPSHOT = "SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY";

  /** A report's memory to group in (PostgreSQL's own default is 4MB). */
  private static final String REPORT_WORK_MEM = "16MB";

  /**
   * A report's second statement: the zone the workspace's day rows are in (null before its first round), and the
   * report's settings for this transaction only. A report groups a few thousand groups out of up to a hundred
   * thousand rows: with the default work_mem PostgreSQL sorts them on disk, with a little more it hashes them in
   * memory, twice as fast; each report is planned for its own range (a generic plan cannot know how many rows a
   * range holds); and a report's statements get no parallel workers: a report already reads its sums and its cost
   * side by side, and on a small host the workers only took turns with them (the benchmark's p95 fell by a fifth
   * without them). The read pool's few connections bound what this can hold.
   */
  static final String READ_SETTINGS = """
      SELECT set_config('work_mem', '%s', true), set_config('plan_cache_mode', 'force_custom_plan', true),
             set_config('max_parallel_workers_per_gather', '0', true),
             (SELECT zone FROM funnel_day_zone WHERE workspace_id = $1) AS zone""".formatted(REPORT_WORK_MEM);

  /** The sums of one group and step of a report. */
  public record Sums(List<String> group, String step, long n, long users, BigDecimal revenue, long unconverted,
                     long pending, long approved, long rejected, long chargeback) {}

  private final Pool readPool;

  public FunnelReports(Pool readPool) {
    this.readPool = readPool;
  }

  /** The instant the rollups reach: what was written before it is in the report. */
  public Future<OffsetDateTime> rolledUpTo() {
    return readPool.query("SELECT upto FROM funnel_cursor WHERE id = 1").execute()
        .map(rows -> rows.iterator().next().getOffsetDateTime("upto"));
  }

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
    String source = FunnelLayers.source(query, groupBy, dayLayer, params);
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

  /** A dimension's expression over the rows of a {@link FunnelLayers#source}: its column (the day's a date). */
  private static String expression(String dimension) {
    if (!FunnelQuery.DAY.equals(dimension) && !FunnelQuery.DIMENSIONS.contains(dimension)) {
      throw new IllegalArgumentException("not a dimension: " + dimension);
    }
    return dimension;
  }
}
