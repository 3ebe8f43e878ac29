package dev.eventrouter.db;

import dev.eventrouter.event.EventIds;
import io.vertx.core.Future;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.SqlConnection;

import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The day partitions of events and deliveries (laid out by {@code V4__partitions.sql}): each day's pair is created
 * {@link #DAYS_AHEAD} days before it starts, and dropped whole once the whole day is older than the retention, so
 * nothing is ever deleted row by row from the hot tables.
 *
 * <p>A partition is named for its day ({@code events_20261122}) and covers the event ids of that UTC day. Dropping
 * detaches first with {@code CONCURRENTLY}, which waits for running queries instead of blocking new inserts behind an
 * exclusive lock (https://www.postgresql.org/docs/current/sql-altertable.html#SQL-ALTERTABLE-DETACH-PARTITION); a
 * detach cut short is finished on the next round. One node at a time does this, under an advisory lock.
 */
public final class Partitions {

  /** Days created ahead: a node whose maintenance keeps failing has this long before inserts find no partition. */
  public static final int DAYS_AHEAD = 3;
  /** Dropped first: a day's deliveries are never left without their events. */
  static final List<String> TABLES = List.of("deliveries", "events");
  private static final DateTimeFormatter DAY = DateTimeFormatter.BASIC_ISO_DATE;
  static final long LOCK_KEY = 0x6576_7472_7061_7274L; // "evtrpart"

  /** The day partitions of both tables, detached ones included, and whether a detach is pending. */
  static final String LIST = """
      SELECT c.relname, i.inhrelid IS NOT NULL AS attached, coalesce(i.inhdetachpending, false) AS pending
        FROM pg_class c LEFT JOIN pg_inherits i ON i.inhrelid = c.oid
       WHERE c.relkind = 'r' AND c.relnamespace = current_schema()::regnamespace
         AND c.relname ~ '^(events|deliveries)_[0-9]{8}$'""";

  /** What one round did. */
  public record Round(boolean ran, List<String> created, List<String> dropped) {}

  private record Partition(String name, boolean attached, boolean pending) {}

  private Partitions() {}

  /**
   * Creates the partitions up to {@code today + DAYS_AHEAD} and drops the days wholly older than
   * {@code retentionDays}; does nothing when another node is at it.
   */
  public static Future<Round> maintain(Pool pool, LocalDate today, int retentionDays) {
    return pool.withConnection(conn -> conn.query("SELECT pg_try_advisory_lock(" + LOCK_KEY + ")").execute()
        .compose(rows -> {
          if (!rows.iterator().next().getBoolean(0)) {
            return Future.succeededFuture(new Round(false, List.of(), List.of()));
          }
          return conn.query("SET lock_timeout = '5s'").execute()
              .compose(v -> list(conn))
              .compose(existing -> create(conn, existing, today)
                  .compose(created -> drop(conn, existing, today.minusDays(retentionDays))
                      .map(dropped -> new Round(true, created, dropped))))
              .eventually(() -> conn.query("RESET lock_timeout; SELECT pg_advisory_unlock(" + LOCK_KEY + ")")
                  .execute());
        }));
  }

  /** The first event id of a UTC day. */
  static long firstId(LocalDate day) {
    return EventIds.firstIdAt(day.atStartOfDay(ZoneOffset.UTC).toInstant());
  }

  static String name(String table, LocalDate day) {
    return table + "_" + DAY.format(day);
  }

  private static Future<Map<String, TreeMap<LocalDate, Partition>>> list(SqlConnection conn) {
    return conn.query(LIST).execute().map(rows -> {
      Map<String, TreeMap<LocalDate, Partition>> byTable = new TreeMap<>();
      TABLES.forEach(t -> byTable.put(t, new TreeMap<>()));
      for (Row row : rows) {
        String name = row.getString("relname");
        int cut = name.lastIndexOf('_');
        byTable.get(name.substring(0, cut)).put(LocalDate.parse(name.substring(cut + 1), DAY),
            new Partition(name, row.getBoolean("attached"), row.getBoolean("pending")));
      }
      return byTable;
    });
  }

  /** Every day after the newest existing one, through today + DAYS_AHEAD: contiguous, so no id is left uncovered. */
  private static Future<List<String>> create(SqlConnection conn, Map<String, TreeMap<LocalDate, Partition>> existing,
                                             LocalDate today) {
    List<String> statements = new ArrayList<>();
    List<String> created = new ArrayList<>();
    for (String table : TABLES) {
      TreeMap<LocalDate, Partition> days = existing.get(table);
      LocalDate from = days.isEmpty() ? today : days.lastKey().plusDays(1);
      for (LocalDate day = from; !day.isAfter(today.plusDays(DAYS_AHEAD)); day = day.plusDays(1)) {
        statements.add("CREATE TABLE " + name(table, day) + " PARTITION OF " + table
            + " FOR VALUES FROM (" + firstId(day) + ") TO (" + firstId(day.plusDays(1)) + ")");
        created.add(name(table, day));
      }
    }
    return run(conn, statements).map(v -> created);
  }

  /** The days whose last moment is before the cutoff: a partition named D holds ids up to the start of D + 1. */
  private static Future<List<String>> drop(SqlConnection conn, Map<String, TreeMap<LocalDate, Partition>> existing,
                                           LocalDate cutoff) {
    List<String> statements = new ArrayList<>();
    List<String> dropped = new ArrayList<>();
    for (String table : TABLES) {
      for (Partition p : existing.get(table).headMap(cutoff).values()) {
        if (p.pending()) {
          statements.add("ALTER TABLE " + table + " DETACH PARTITION " + p.name() + " FINALIZE");
        } else if (p.attached()) {
          statements.add("ALTER TABLE " + table + " DETACH PARTITION " + p.name() + " CONCURRENTLY");
        }
        statements.add("DROP TABLE " + p.name());
        dropped.add(p.name());
      }
    }
    return run(conn, statements).map(v -> dropped);
  }

  /** One at a time, each its own transaction: DETACH ... CONCURRENTLY may not run inside a transaction block. */
  private static Future<Void> run(SqlConnection conn, List<String> statements) {
    Future<Void> chain = Future.succeededFuture();
    for (String sql : statements) {
      chain = chain.compose(v -> conn.query(sql).execute().mapEmpty());
    }
    return chain;
  }
}
