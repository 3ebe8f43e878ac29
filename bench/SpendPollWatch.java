import io.vertx.core.Vertx;
import io.vertx.pgclient.PgBuilder;
import io.vertx.pgclient.PgConnectOptions;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.PoolOptions;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;

/**
 * The cost import's benchmark helper. {@code reset PG_URL}: forgets every imported row and source state, so the next
 * start polls its first 30 days again. {@code wait PORT KEY SOURCE ROWS SECONDS}: waits until the source's last poll
 * succeeded with ROWS rows, then prints how long the poll took (from its start to its success, as the service
 * recorded them): {@code RESULT rows=... poll_seconds=...}.
 */
public class SpendPollWatch {

  public static void main(String[] args) throws Exception {
    try {
      if (args[0].equals("reset")) {
        reset(args[1]);
      } else {
        await(Integer.parseInt(args[1]), args[2], args[3], Long.parseLong(args[4]), Integer.parseInt(args[5]));
      }
    } catch (Exception e) { // said here: the JDK 17 source launcher hides an awaited future's failure (see Settle)
      System.err.println("bench: SpendPollWatch failed: " + e);
      System.exit(1);
    }
  }

  private static void reset(String url) {
    Vertx vertx = Vertx.vertx();
    Pool pool = PgBuilder.pool().connectingTo(PgConnectOptions.fromUri(url)).with(new PoolOptions().setMaxSize(1))
        .using(vertx).build();
    try {
      pool.query("DELETE FROM ad_spend").execute().await();
      pool.query("DELETE FROM cost_sources").execute().await();
      pool.query("VACUUM ANALYZE ad_spend").execute().await();
    } finally {
      pool.close().await();
      vertx.close().await();
    }
  }

  private static void await(int port, String key, String source, long rows, int seconds) throws Exception {
    HttpClient http = HttpClient.newHttpClient();
    Instant deadline = Instant.now().plusSeconds(seconds);
    String seen = "";
    while (Instant.now().isBefore(deadline)) {
      HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port
          + "/api/v1/cost-sources")).header("x-api-key", key).GET().build(), HttpResponse.BodyHandlers.ofString());
      io.vertx.core.json.JsonArray sources = new io.vertx.core.json.JsonObject(r.body()).getJsonObject("data")
          .getJsonArray("sources");
      for (Object item : sources) {
        io.vertx.core.json.JsonObject s = (io.vertx.core.json.JsonObject) item;
        if (source.equals(s.getString("source_id"))) {
          seen = s.encode();
          if ("ok".equals(s.getString("state")) && s.getLong("rows") == rows
              && s.getString("last_success_at") != null && !Instant.parse(s.getString("last_success_at"))
                  .isBefore(Instant.parse(s.getString("last_poll_at")))) {
            double took = Duration.between(Instant.parse(s.getString("last_poll_at")),
                Instant.parse(s.getString("last_success_at"))).toMillis() / 1000.0;
            System.out.printf("RESULT rows=%d poll_seconds=%.1f%n", rows, took);
            return;
          }
          if ("paused".equals(s.getString("state"))) {
            throw new IllegalStateException("the source paused: " + seen);
          }
        }
      }
      Thread.sleep(500); // a poll of the service's API from outside it: no checkpoint to wait on
    }
    throw new IllegalStateException("no successful poll of " + rows + " rows within " + seconds + " s: " + seen);
  }
}
