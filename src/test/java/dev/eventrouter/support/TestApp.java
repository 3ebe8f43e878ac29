package dev.eventrouter.support;

import dev.eventrouter.EventRouter;
import dev.eventrouter.config.ApiKeys;
import dev.eventrouter.config.ConfigLoader;
import dev.eventrouter.config.LiveConfig;
import dev.eventrouter.db.Database;
import dev.eventrouter.db.PostgresServer;
import dev.eventrouter.store.EventStore;
import dev.eventrouter.store.EventWriter;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.vertx.core.Future;
import io.vertx.core.MultiMap;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.ext.web.client.WebClient;
import io.vertx.pgclient.PgConnectOptions;
import io.vertx.pgclient.PgException;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.Tuple;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.function.IntFunction;
import java.util.stream.StreamSupport;

/**
 * The real service on a random port against a real PostgreSQL, with a web client and the service's own pool for
 * seeding and checking rows. Blocking helpers: call them from the test thread, never from an event loop.
 */
public final class TestApp {

  public static final String WS_A = "11111111-1111-4111-8111-111111111111";
  public static final String WS_B = "22222222-2222-4222-8222-222222222222";
  public static final String WS_LIMITED = "33333333-3333-4333-8333-333333333333";
  public static final String KEY_A = "test-key-a-5f2c";
  public static final String KEY_B = "test-key-b-91d0";
  public static final String KEY_LIMITED = "test-key-limited-77aa";
  public static final int MAX_BODY_BYTES = 8192;
  public static final String BOT_A = "router_test_bot";

  private final EventRouter router;
  private final WebClient client;

  private TestApp(EventRouter router, WebClient client) {
    this.router = router;
    this.client = client;
  }

  /** Three workspaces: A and B with generous limits, LIMITED with a burst of 2 and almost no refill. */
  public static JsonObject config(String databaseUrl) {
    return new JsonObject()
        .put("http", new JsonObject().put("host", "127.0.0.1").put("port", 0).put("max_body_bytes", MAX_BODY_BYTES)
            .put("instances", 2))
        .put("management", new JsonObject().put("host", "127.0.0.1").put("port", 0))
        .put("database", new JsonObject().put("url", databaseUrl))
        .put("workspaces", new JsonArray()
            .add(workspace(WS_A, KEY_A, 100_000, 100_000).put("bot_name", "@" + BOT_A))
            .add(workspace(WS_B, KEY_B, 100_000, 100_000))
            .add(workspace(WS_LIMITED, KEY_LIMITED, 0.01, 2)));
  }

  private static JsonObject workspace(String id, String key, double perSecond, double burst) {
    return new JsonObject().put("id", id).put("name", "ws-" + id.charAt(0))
        .put("api_keys", new JsonArray().add(ApiKeys.configValue(key)))
        .put("rate_limit", new JsonObject().put("per_second", perSecond).put("burst", burst))
        .put("integrations", new JsonArray());
  }

  public static TestApp start(Vertx vertx, JsonObject config) {
    return start(vertx, new LiveConfig(new ConfigLoader(Map.of()).resolve(config)));
  }

  public static TestApp start(Vertx vertx, LiveConfig live) {
    return start(vertx, live, database -> new EventStore(database.pool()));
  }

  /** The service with its events written by the given writer (a faulty double, for the failure answers). */
  public static TestApp start(Vertx vertx, LiveConfig live, Function<Database, EventWriter> writers) {
    return start(vertx, live, writers, new PrometheusMeterRegistry(PrometheusConfig.DEFAULT));
  }

  /** With the given registry: the one a Vert.x built with metrics (ServiceMetrics.builder) reports to. */
  public static TestApp start(Vertx vertx, JsonObject config, PrometheusMeterRegistry metrics) {
    return start(vertx, new LiveConfig(new ConfigLoader(Map.of()).resolve(config)),
        database -> new EventStore(database.pool()), metrics);
  }

  private static TestApp start(Vertx vertx, LiveConfig live, Function<Database, EventWriter> writers,
                               PrometheusMeterRegistry metrics) {
    EventRouter router = EventRouter.start(vertx, live, metrics, null, writers).await();
    WebClient client = WebClient.create(vertx);
    return new TestApp(router, client);
  }

  public void close() {
    client.close();
    router.close().await();
  }

  public EventRouter router() {
    return router;
  }

  public Pool pool() {
    return router.database().pool();
  }

  public WebClient client() {
    return client;
  }

  public int port() {
    return router.httpPort();
  }

  /** The management listener's port: /metrics and the detailed /health/ready. */
  public int managementPort() {
    return router.managementPort();
  }

  /** The Prometheus scrape, from the management listener. */
  public String metrics() {
    return management("/metrics").bodyAsString();
  }

  /** A GET on the management listener. */
  public HttpResponse<Buffer> management(String path) {
    return client.get(managementPort(), "127.0.0.1", path).send().await();
  }

  /** POSTs raw bytes with the given headers. */
  public HttpResponse<Buffer> post(String path, MultiMap headers, Buffer body) {
    return client.post(port(), "127.0.0.1", path).putHeaders(headers).sendBuffer(body).await();
  }

  /** POSTs a JSON event to the events endpoint with the given API key. */
  public HttpResponse<Buffer> postEvent(String apiKey, JsonObject event) {
    return postJson("/api/v1/events/custom", apiKey, event);
  }

  public HttpResponse<Buffer> postJson(String path, String apiKey, JsonObject body) {
    return post(path, jsonHeaders(apiKey), body.toBuffer());
  }

  public HttpResponse<Buffer> get(String path, String apiKey) {
    var request = client.get(port(), "127.0.0.1", path);
    if (apiKey != null) {
      request.putHeader("x-api-key", apiKey);
    }
    return request.send().await();
  }

  /** Sends n events at once, without waiting for any answer in between, and waits for all. */
  public List<Future<HttpResponse<Buffer>>> postConcurrently(int n, IntFunction<MultiMap> headers,
                                                             IntFunction<JsonObject> body) {
    List<Future<HttpResponse<Buffer>>> responses = sendEvents(n, headers, body);
    Future.join(responses).await();
    return responses;
  }

  /** Sends n events at once and returns their answers to come, without waiting for any. */
  public List<Future<HttpResponse<Buffer>>> sendEvents(int n, IntFunction<MultiMap> headers,
                                                       IntFunction<JsonObject> body) {
    List<Future<HttpResponse<Buffer>>> responses = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      responses.add(client.post(port(), "127.0.0.1", "/api/v1/events/custom")
          .putHeaders(headers.apply(i)).sendBuffer(body.apply(i).toBuffer()));
    }
    return responses;
  }

  public static MultiMap jsonHeaders(String apiKey) {
    MultiMap headers = MultiMap.caseInsensitiveMultiMap().add("Content-Type", "application/json");
    if (apiKey != null) {
      headers.add("x-api-key", apiKey);
    }
    return headers;
  }

  public List<Row> rows(String sql, Object... params) {
    return StreamSupport.stream(pool().preparedQuery(sql).execute(Tuple.from(params)).await().spliterator(), false)
        .toList();
  }

  public long count(String table) {
    return rows("SELECT count(*) FROM " + table).get(0).getLong(0);
  }

  /** What a test leaves in the tables the next test of its class reads. */
  private static final String TRUNCATE = "TRUNCATE events, idempotency_keys, click_sessions, invite_sessions, "
      + "deliveries, delivery_cursors, integration_pauses, telegram_invite_links, telegram_outbox, conversions, "
      + "conversion_changes, postbacks, alert_states, alert_outbox, ad_spend, ad_spend_days, ad_spend_zones, "
      + "cost_sources, delivered_counts";

  /**
   * Empties the tables of a database no service uses any more: a forwarder still running would write the outcome
   * rows of a claim in flight after the truncate.
   */
  public static void truncate(String databaseUrl) {
    sql(databaseUrl, TRUNCATE);
  }

  /** Runs statements on a database no service uses at the moment (to age events between two runs). */
  public static void sql(String databaseUrl, String statements) {
    try (var c = PostgresServer.dataSource(PgConnectOptions.fromUri(databaseUrl)).getConnection();
         var s = c.createStatement()) {
      s.execute(statements);
    } catch (java.sql.SQLException e) {
      throw new IllegalStateException(e);
    }
  }

  /** Empties every table; the forwarders' scan can deadlock with the TRUNCATE's locks, so that is tried again. */
  public void truncate() {
    for (int attempt = 1; ; attempt++) {
      try {
        pool().query(TRUNCATE).execute().await();
        return;
      } catch (PgException e) {
        if (!"40P01".equals(e.getSqlState()) || attempt == 10) {
          throw e;
        }
      }
    }
  }
}
