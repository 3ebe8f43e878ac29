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
      settle(vertx, args);
    } catch (Exception e) { // await() throws the future's failure as it is, checked ones too
      // Said here: the JDK 17 source launcher fails on its own while trimming the stack of an exception thrown by an
      // awaited future ("IllegalArgumentException: 0 > -7"), which hides it.
      System.err.println("bench: Settle failed: " + e);
      System.exit(1);
    } finally {
      vertx.close().await();
    }
  }

  private static void settle(Vertx vertx, String[] args) throws InterruptedException {
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
    } catch (Exception e) { // an external database's user may not checkpoint (pg_checkpoint, superuser)
      System.err.println("bench: no checkpoint before the run: " + e.getMessage());
    }
    conn.close().await();
  }
}
