import dev.eventrouter.config.ApiKeys;
import dev.eventrouter.event.EventIds;
import io.vertx.core.AbstractVerticle;
import io.vertx.core.DeploymentOptions;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.json.JsonObject;
import io.vertx.pgclient.PgBuilder;
import io.vertx.pgclient.PgConnectOptions;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.PoolOptions;
import io.vertx.sqlclient.Tuple;

import java.math.BigDecimal;
import java.security.MessageDigest;
import java.time.Clock;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.atomic.LongAdder;
import java.util.regex.Pattern;

/**
 * The physical limit of a durable ingest on this machine: the benchmark's "ceiling-durable" row. Vert.x core HTTP
 * (no router, no event bus, no metrics), the same key check (SHA-256 of x-api-key against the configured digest)
 * and field checks as the service, and an adaptive group commit: what the event loop read in one turn goes together
 * when a connection is free, else waits for one and goes with all that waited, through the service's unnest statement into the service's own events table
 * (same partitions, indexes, fsync and synchronous_commit) on the same PostgreSQL. The answer is sent after the
 * commit. What it leaves out is what the service adds: sessions, the outbox, idempotency keys, metrics.
 * Run from the shaded jar's classpath (the JDK's source launcher):
 * java -cp target/event-router.jar bench/DurableCeiling.java PORT DATABASE_URL WORKSPACE_ID KEY_DIGEST_HEX POOL
 *
 * GET /stats answers {"stored": n, "commits": c}.
 */
public final class DurableCeiling {

  private static final String INSERT = """
      INSERT INTO events (event_id, workspace_id, event_name, telegram_id, session_id, session_source, value,
                          currency, user_data, idempotency_key, status, received_at, limited_data_use)
      SELECT event_id, workspace_id, event_name, telegram_id, session_id, 'supplied', value::numeric, currency,
             user_data::jsonb, NULL, 'processed', received_at, NULL
        FROM unnest($1::bigint[], $2::uuid[], $3::text[], $4::bigint[], $5::text[], $6::text[], $7::text[],
                    $8::text[], $9::timestamptz[])
             AS t(event_id, workspace_id, event_name, telegram_id, session_id, value, currency, user_data,
                  received_at)""";
  private static final Pattern EVENT_NAME = Pattern.compile("[A-Za-z0-9_-](?:[A-Za-z0-9_ -]{0,48}[A-Za-z0-9_-])?");
  private static final int MAX_BATCH = 500;
  // The service's own ids carry the node number it leased (from 1 up); this one takes the last, so no id collides.
  private static final EventIds IDS = new EventIds(EventIds.MAX_NODES - 1, Clock.systemUTC());
  private static final LongAdder STORED = new LongAdder();
  private static final LongAdder COMMITS = new LongAdder();

  private record Row(long eventId, String name, long telegramId, String sessionId, String value, String currency,
                     String userData, OffsetDateTime receivedAt, HttpServerRequest request) {}

  public static void main(String[] args) {
    int port = Integer.parseInt(args[0]);
    UUID workspace = UUID.fromString(args[2]);
    byte[] keyDigest = HexFormat.of().parseHex(args[3]);
    int poolSize = Integer.parseInt(args[4]);
    Vertx vertx = Vertx.vertx();
    Pool pool = PgBuilder.pool().with(new PoolOptions().setMaxSize(poolSize))
        .connectingTo(PgConnectOptions.fromUri(args[1]).setCachePreparedStatements(true)).using(vertx).build();
    int instances = Runtime.getRuntime().availableProcessors();
    vertx.deployVerticle(() -> new Server(port, workspace, keyDigest, pool, Math.max(1, poolSize / instances)),
        new DeploymentOptions().setInstances(instances)).await();
    System.out.println("durable ceiling on " + port);
  }

  /** One per event loop, as the service's HTTP verticles; each gathers its own group commits. */
  private static final class Server extends AbstractVerticle {
    private final int port;
    private final UUID workspace;
    private final String workspaceText;
    private final byte[] keyDigest;
    private final Pool pool;
    private final int maxInFlight;
    private List<Row> pending = new ArrayList<>();
    private int inFlight;
    private boolean scheduled;

    Server(int port, UUID workspace, byte[] keyDigest, Pool pool, int maxInFlight) {
      this.port = port;
      this.workspace = workspace;
      this.workspaceText = workspace.toString();
      this.keyDigest = keyDigest;
      this.pool = pool;
      this.maxInFlight = maxInFlight;
    }

    @Override
    public void start(Promise<Void> started) {
      vertx.createHttpServer(new HttpServerOptions().setHttp2ClearTextEnabled(false))
          .requestHandler(this::handle).listen(port, "127.0.0.1").<Void>mapEmpty().onComplete(started);
    }

    private void handle(HttpServerRequest request) {
      if (request.path().equals("/stats")) {
        request.response().end(new JsonObject().put("stored", STORED.sum()).put("commits", COMMITS.sum())
            .encode());
        return;
      }
      String key = request.getHeader("x-api-key");
      if (key == null || !MessageDigest.isEqual(ApiKeys.digest(key), keyDigest)) {
        request.response().setStatusCode(401).end("{\"ok\":false,\"error\":{\"code\":\"unauthorized\"}}");
        return;
      }
      request.body().onSuccess(body -> accept(request, body));
    }

    /** The field checks of the service's validator, on the fields the benchmark sends. */
    private void accept(HttpServerRequest request, Buffer body) {
      JsonObject event;
      try {
        event = body.toJsonObject();
      } catch (RuntimeException e) {
        refuse(request);
        return;
      }
      Object name = event.getValue("event_name");
      Object telegramId = event.getValue("telegram_id");
      Object sessionId = event.getValue("session_id");
      Object value = event.getValue("value");
      Object currency = event.getValue("currency");
      Object userData = event.getValue("user_data");
      boolean valid = workspaceText.equals(event.getValue("workspace_id"))
          && name instanceof String text && EVENT_NAME.matcher(text).matches()
          && telegramId instanceof Number id && id.longValue() > 0
          && (sessionId == null || sessionId instanceof String s && s.length() <= 128)
          && (value == null || value instanceof Number n && n.doubleValue() >= 0 && n.doubleValue() <= 1e9)
          && (currency == null || currency instanceof String c && c.length() == 3)
          && (userData == null || userData instanceof JsonObject);
      if (!valid) {
        refuse(request);
        return;
      }
      pending.add(new Row(IDS.next(), (String) name, ((Number) telegramId).longValue(), (String) sessionId,
          value == null ? null : new BigDecimal(value.toString()).toPlainString(),
          currency == null ? "USD" : (String) currency, userData == null ? null : ((JsonObject) userData).encode(),
          OffsetDateTime.now(ZoneOffset.UTC), request));
      if (!scheduled) { // at the end of this event-loop turn, with every request it read
        scheduled = true;
        context.runOnContext(v -> {
          scheduled = false;
          flush();
        });
      }
    }

    private static void refuse(HttpServerRequest request) {
      request.response().setStatusCode(400).end("{\"ok\":false,\"error\":{\"code\":\"validation_failed\"}}");
    }

    /** Adaptive group commit: what waits goes as soon as a connection is free, all of it in one statement. */
    private void flush() {
      while (inFlight < maxInFlight && !pending.isEmpty()) {
        List<Row> batch = pending.size() <= MAX_BATCH ? pending : new ArrayList<>(pending.subList(0, MAX_BATCH));
        pending = pending.size() <= MAX_BATCH ? new ArrayList<>() : new ArrayList<>(pending.subList(MAX_BATCH,
            pending.size()));
        inFlight++;
        insert(batch).onComplete(done -> {
          inFlight--;
          for (Row row : batch) {
            if (done.succeeded()) {
              row.request().response().putHeader("Content-Type", "application/json; charset=utf-8")
                  .end("{\"ok\":true,\"data\":{\"event_id\":\"evt_" + row.eventId() + "\",\"session_id\":"
                      + (row.sessionId() == null ? "null" : "\"" + row.sessionId() + "\"")
                      + ",\"status\":\"processed\"}}");
            } else {
              row.request().response().setStatusCode(503).end("{\"ok\":false,\"error\":{\"code\":\"unavailable\"}}");
            }
          }
          if (done.succeeded()) {
            STORED.add(batch.size());
            COMMITS.increment();
          } else {
            System.err.println("insert failed: " + done.cause());
          }
          flush();
        });
      }
    }

    private Future<Void> insert(List<Row> batch) {
      int n = batch.size();
      Long[] ids = new Long[n];
      UUID[] workspaces = new UUID[n];
      String[] names = new String[n];
      Long[] telegramIds = new Long[n];
      String[] sessions = new String[n];
      String[] values = new String[n];
      String[] currencies = new String[n];
      String[] userData = new String[n];
      OffsetDateTime[] receivedAt = new OffsetDateTime[n];
      for (int i = 0; i < n; i++) {
        Row row = batch.get(i);
        ids[i] = row.eventId();
        workspaces[i] = workspace;
        names[i] = row.name();
        telegramIds[i] = row.telegramId();
        sessions[i] = row.sessionId();
        values[i] = row.value();
        currencies[i] = row.currency();
        userData[i] = row.userData();
        receivedAt[i] = row.receivedAt();
      }
      return pool.preparedQuery(INSERT).execute(Tuple.tuple().addArrayOfLong(ids).addArrayOfUUID(workspaces)
          .addArrayOfString(names).addArrayOfLong(telegramIds).addArrayOfString(sessions).addArrayOfString(values)
          .addArrayOfString(currencies).addArrayOfString(userData).addArrayOfOffsetDateTime(receivedAt)).mapEmpty();
    }
  }
}
