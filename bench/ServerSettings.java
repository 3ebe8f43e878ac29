import io.vertx.core.Vertx;
import io.vertx.pgclient.PgConnectOptions;
import io.vertx.pgclient.PgConnection;
import io.vertx.sqlclient.Row;

/**
 * Prints the PostgreSQL settings a run's figures depend on (memory, durability, WAL and checkpoints), one line, so a
 * result can be read beside the server it ran on. Argument: the database URL.
 */
public class ServerSettings {

  private static final String SETTINGS = """
      SELECT string_agg(name || ' ' || current_setting(name), ', ' ORDER BY name) FROM pg_settings
       WHERE name IN ('shared_buffers', 'fsync', 'synchronous_commit', 'wal_compression', 'full_page_writes',
                      'min_wal_size', 'max_wal_size', 'checkpoint_timeout', 'checkpoint_completion_target',
                      'wal_buffers')""";

  public static void main(String[] args) throws Exception {
    Vertx vertx = Vertx.vertx();
    try {
      PgConnection conn = PgConnection.connect(vertx, PgConnectOptions.fromUri(args[0])).await();
      Row row = conn.query("SELECT current_setting('server_version') AS version, (" + SETTINGS + ") AS settings")
          .execute().await().iterator().next();
      System.out.println("postgres " + row.getString("version") + ": " + row.getString("settings"));
      conn.close().await();
    } catch (Exception e) { // see Settle: the source launcher would hide an awaited future's failure
      System.err.println("bench: ServerSettings failed: " + e);
      System.exit(1);
    } finally {
      vertx.close().await();
    }
  }
}
