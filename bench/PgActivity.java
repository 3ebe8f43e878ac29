import io.vertx.core.Vertx;
import io.vertx.pgclient.PgConnectOptions;
import io.vertx.pgclient.PgConnection;
import io.vertx.sqlclient.Row;

import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/**
 * PostgreSQL's time by statement, sampled: every few milliseconds for the given seconds, the statements of the other
 * client backends that are running (pg_stat_activity, state 'active'), each counted under its first words, and how
 * many of those samples were waiting (on I/O, the WAL, a lock) rather than on the CPU. A sampling profiler of the
 * database side, beside JFR's of the JVM (bench/run.sh --profile). Arguments: the database URL, seconds, the output
 * file, which gets one line per statement: samples, waiting samples, the statement's start; and a last line
 * "samples N" with the number of looks.
 * https://www.postgresql.org/docs/current/monitoring-stats.html#MONITORING-PG-STAT-ACTIVITY-VIEW
 */
public class PgActivity {

  private static final String ACTIVE = """
      SELECT left(regexp_replace(query, '\\s+', ' ', 'g'), 64) AS statement, wait_event_type IS NOT NULL AS waiting
        FROM pg_stat_activity
       WHERE state = 'active' AND backend_type = 'client backend' AND pid <> pg_backend_pid()""";

  public static void main(String[] args) throws Exception {
    Vertx vertx = Vertx.vertx();
    try {
      PgConnection conn = PgConnection.connect(vertx, PgConnectOptions.fromUri(args[0])).await();
      long end = System.nanoTime() + Long.parseLong(args[1]) * 1_000_000_000L;
      Map<String, long[]> counts = new HashMap<>();
      long looks = 0;
      while (System.nanoTime() < end) {
        for (Row row : conn.query(ACTIVE).execute().await()) {
          long[] c = counts.computeIfAbsent(row.getString("statement").trim(), k -> new long[2]);
          c[0]++;
          c[1] += row.getBoolean("waiting") ? 1 : 0;
        }
        looks++;
        Thread.sleep(4); // a sampling interval, not a synchronisation
      }
      conn.close().await();
      try (PrintWriter out = new PrintWriter(Files.newBufferedWriter(Path.of(args[2])))) {
        counts.forEach((statement, c) -> out.println(c[0] + "\t" + c[1] + "\t" + statement));
        out.println("samples\t" + looks);
      }
    } catch (Exception e) { // see Settle: the source launcher would hide an awaited future's failure
      System.err.println("bench: PgActivity failed: " + e);
      System.exit(1);
    } finally {
      vertx.close().await();
    }
  }
}
