import io.vertx.core.Vertx;
import io.vertx.pgclient.PgConnectOptions;
import io.vertx.pgclient.PgConnection;

/**
 * Leaves PostgreSQL quiet before a measured run, so no run pays for the work the one before it left behind: a
 * checkpoint (the dirty pages written now, not during the run) and no autovacuum worker running (each run's inserts
 * make the tables they grew due for one). Arguments: the database URL, the most seconds to wait.
 */
public class Settle {

  public static void main(String[] args) throws Exception {
    Vertx vertx = Vertx.vertx();
    try {
      PgConnection conn = PgConnection.connect(vertx, PgConnectOptions.fromUri(args[0])).await();
      long deadline = System.nanoTime() + Long.parseLong(args[1]) * 1_000_000_000L;
      String workers = "SELECT count(*) FROM pg_stat_activity WHERE backend_type = 'autovacuum worker'";
      while (conn.query(workers).execute().await().iterator().next().getLong(0) > 0) {
        if (System.nanoTime() > deadline) {
          System.err.println("bench: autovacuum still running after " + args[1] + " s; measuring anyway");
          break;
        }
        Thread.sleep(500); // polling a worker list with a deadline, in a bench helper (no event loop here)
      }
      try {
        conn.query("CHECKPOINT").execute().await();
      } catch (RuntimeException e) { // an external database's user may not checkpoint (pg_checkpoint, superuser)
        System.err.println("bench: no checkpoint before the run: " + e.getMessage());
      }
      conn.close().await();
    } finally {
      vertx.close().await();
    }
  }
}
