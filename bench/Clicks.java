import io.vertx.core.Vertx;
import io.vertx.pgclient.PgConnectOptions;
import io.vertx.pgclient.PgConnection;
import io.vertx.sqlclient.Tuple;

import java.util.UUID;

/**
 * The captured clicks of (c) with four integrations: sessions s1 to sN of a workspace, each with a gclid and a
 * Snapchat click id (and the cookie), as the prelanding script stores them, so every event of that run is sent to
 * Google Ads and Snapchat with its click, as to Meta and TikTok. Run from the shaded jar's classpath:
 * java -cp target/event-router.jar bench/Clicks.java DATABASE_URL WORKSPACE N
 */
public final class Clicks {

  public static void main(String[] args) {
    Vertx vertx = Vertx.vertx();
    try {
      PgConnection conn = PgConnection.connect(vertx, PgConnectOptions.fromUri(args[0])).await();
      int rows = conn.preparedQuery("""
          INSERT INTO click_sessions (workspace_id, session_id, gclid, sccid, scid, client_ip, user_agent, clicked_at)
          SELECT $1, 's' || n, 'Cj0KCQiA' || n, 'sc-' || n, 'scid-' || n, '203.0.113.7', 'Mozilla/5.0 (bench)', now()
            FROM generate_series(1, $2) AS n
          ON CONFLICT DO NOTHING""")
          .execute(Tuple.of(UUID.fromString(args[1]), Integer.parseInt(args[2]))).await().rowCount();
      System.out.println("clicks stored: " + rows);
      conn.close().await();
    } finally {
      vertx.close().await();
    }
  }
}
