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
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.WebClient;
import io.vertx.ext.web.client.WebClientOptions;
import io.vertx.pgclient.PgBuilder;
import io.vertx.pgclient.PgConnectOptions;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.PoolOptions;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.Tuple;

import java.math.BigDecimal;
import java.security.MessageDigest;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
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
 *   [FAKES_PORT BATCH LINGER_MS]
 *
 * <p>With FAKES_PORT it is also the benchmark's "ceiling-forward": the physical limit of "store durably, then deliver
 * each event once" on this machine. Beside the ingest, a forwarder per network (Meta, TikTok) reads the workspace's
 * stored events in event_id order past a cursor kept in one row per network, sends them BATCH a request (the
 * service's delivery.batch_size) to bench/FakeNetworks.java on FAKES_PORT, and advances its cursor after the answer;
 * when a read finds less than a batch, the next waits LINGER_MS (the service's delivery.linger_ms). No outbox rows,
 * no claims, no kept payloads, no router, no bus.
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
  /** Every ingest verticle, for the forwarders' commit horizon. */
  private static final List<Server> SERVERS = new CopyOnWriteArrayList<>();

  private record Event(long eventId, String name, long telegramId, String sessionId, String value, String currency,
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
    if (args.length > 5) {
      Pool forwardPool = PgBuilder.pool().with(new PoolOptions().setMaxSize(2))
          .connectingTo(PgConnectOptions.fromUri(args[1]).setCachePreparedStatements(true)).using(vertx).build();
      forwardPool.query(Forwarder.CURSORS).execute().await();
      for (String network : List.of("meta", "tiktok")) {
        vertx.deployVerticle(new Forwarder(network, workspace, forwardPool, Integer.parseInt(args[5]),
            Integer.parseInt(args[6]), Long.parseLong(args[7]))).await();
      }
    }
    System.out.println("durable ceiling on " + port + (args.length > 5 ? ", forwarding" : ""));
  }

  /**
   * The highest event id a forwarder may read up to: below every id an ingest verticle assigned and has not seen
   * committed, and assigned at least 100 ms ago (an id is entered in its verticle's floor in the event-loop turn that
   * assigns it; the margin covers a reader that looked between the two). Event ids are taken in one process here, so
   * this is exact; the service, with several nodes, needs a horizon of its own (issue 45).
   */
  static long horizon() {
    long bound = EventIds.firstIdAt(Instant.now().minusMillis(100)) - 1;
    for (Server server : SERVERS) {
      bound = Math.min(bound, server.floor - 1);
    }
    return bound;
  }

  /** One per event loop, as the service's HTTP verticles; each gathers its own group commits. */
  private static final class Server extends AbstractVerticle {
    private final int port;
    private final UUID workspace;
    private final String workspaceText;
    private final byte[] keyDigest;
    private final Pool pool;
    private final int maxInFlight;
    private List<Event> pending = new ArrayList<>();
    private int inFlight;
    private boolean scheduled;
    /** The first id of each batch in flight (ids only grow, so no two batches share one). */
    private final TreeSet<Long> inFlightFirsts = new TreeSet<>();
    /** The lowest id this verticle assigned that is not committed yet (Long.MAX_VALUE: none). */
    volatile long floor = Long.MAX_VALUE;

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
      SERVERS.add(this);
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
      pending.add(new Event(IDS.next(), (String) name, ((Number) telegramId).longValue(), (String) sessionId,
          value == null ? null : new BigDecimal(value.toString()).toPlainString(),
          currency == null ? "USD" : (String) currency, userData == null ? null : ((JsonObject) userData).encode(),
          OffsetDateTime.now(ZoneOffset.UTC), request));
      if (pending.size() == 1) {
        floor = Math.min(floor, pending.get(0).eventId());
      }
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
        List<Event> batch = pending.size() <= MAX_BATCH ? pending : new ArrayList<>(pending.subList(0, MAX_BATCH));
        pending = pending.size() <= MAX_BATCH ? new ArrayList<>() : new ArrayList<>(pending.subList(MAX_BATCH,
            pending.size()));
        inFlight++;
        inFlightFirsts.add(batch.get(0).eventId());
        insert(batch).onComplete(done -> {
          inFlight--;
          inFlightFirsts.remove(batch.get(0).eventId());
          floor = Math.min(pending.isEmpty() ? Long.MAX_VALUE : pending.get(0).eventId(),
              inFlightFirsts.isEmpty() ? Long.MAX_VALUE : inFlightFirsts.first());
          for (Event row : batch) {
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

    private Future<Void> insert(List<Event> batch) {
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
        Event row = batch.get(i);
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

  /**
   * ceiling-forward's forwarder of one network: one request in flight, as the service's channel of an integration
   * has. The payloads carry what the service's do for these events: the mapped name, time, event id, the e-mail's
   * SHA-256 (https://developers.facebook.com/docs/marketing-api/conversions-api/parameters/customer-information-parameters),
   * the IP, and value and currency.
   */
  private static final class Forwarder extends AbstractVerticle {
    static final String CURSORS = "CREATE TABLE IF NOT EXISTS bench_forward_cursors (network text PRIMARY KEY, "
        + "upto bigint NOT NULL)";
    private static final String START = """
        INSERT INTO bench_forward_cursors (network, upto)
        VALUES ($1, (SELECT coalesce(max(event_id), 0) FROM events WHERE workspace_id = $2))
        ON CONFLICT (network) DO UPDATE SET upto = EXCLUDED.upto RETURNING upto""";
    private static final String READ = """
        SELECT event_id, event_name, value, currency, user_data, received_at FROM events
         WHERE workspace_id = $1 AND event_id > $2 AND event_id <= $3 ORDER BY event_id LIMIT $4""";
    private static final String ADVANCE = "UPDATE bench_forward_cursors SET upto = $2 WHERE network = $1";

    private final String network;
    private final UUID workspace;
    private final Pool pool;
    private final int fakesPort;
    private final int batch;
    private final long lingerMs;
    private WebClient client;
    private long upto;

    Forwarder(String network, UUID workspace, Pool pool, int fakesPort, int batch, long lingerMs) {
      this.network = network;
      this.workspace = workspace;
      this.pool = pool;
      this.fakesPort = fakesPort;
      this.batch = batch;
      this.lingerMs = lingerMs;
    }

    @Override
    public void start(Promise<Void> started) {
      client = WebClient.create(vertx, new WebClientOptions().setFollowRedirects(false));
      // Starts past what the workspace holds: the events of runs before this one are not its to send.
      pool.preparedQuery(START).execute(Tuple.of(network, workspace)).onSuccess(rows -> {
        upto = rows.iterator().next().getLong(0);
        next();
      }).<Void>mapEmpty().onComplete(started);
    }

    private void next() {
      long horizon = horizon();
      if (horizon <= upto) {
        vertx.setTimer(lingerMs, t -> next());
        return;
      }
      pool.preparedQuery(READ).execute(Tuple.of(workspace, upto, horizon, batch)).onComplete(read -> {
        if (read.failed()) {
          System.err.println(network + ": read failed: " + read.cause());
          vertx.setTimer(1000, t -> next());
          return;
        }
        JsonArray data = new JsonArray();
        long last = upto;
        for (Row row : read.result()) {
          data.add(payload(row));
          last = row.getLong("event_id");
        }
        if (data.isEmpty()) {
          vertx.setTimer(lingerMs, t -> next());
          return;
        }
        long through = last;
        boolean full = data.size() == batch;
        send(data).compose(v -> pool.preparedQuery(ADVANCE).execute(Tuple.of(network, through))).onComplete(done -> {
          if (done.succeeded()) {
            upto = through;
          } else { // sent again from the same cursor: the fakes count it as duplicated
            System.err.println(network + ": send or advance failed: " + done.cause());
          }
          if (full) {
            next();
          } else {
            vertx.setTimer(lingerMs, t -> next());
          }
        });
      });
    }

    private Future<Void> send(JsonArray data) {
      JsonObject body = network.equals("meta") ? new JsonObject().put("data", data)
          : new JsonObject().put("event_source", "web").put("event_source_id", "BENCH").put("data", data);
      String path = network.equals("meta") ? "/v25.0/1234567890/events" : "/open_api/v1.3/event/track/";
      return client.post(fakesPort, "127.0.0.1", path).putHeader("Content-Type", "application/json")
          .sendBuffer(body.toBuffer()).compose(response -> response.statusCode() == 200 ? Future.succeededFuture()
              : Future.failedFuture(network + " answered " + response.statusCode()));
    }

    private JsonObject payload(Row row) {
      String id = EventIds.format(row.getLong("event_id"));
      long time = row.getOffsetDateTime("received_at").toEpochSecond();
      Object userData = row.getJson("user_data");
      JsonObject user = userData instanceof JsonObject json ? json : new JsonObject();
      String email = user.getString("email");
      String hashed = email == null ? null : sha256(email.trim().toLowerCase(Locale.ROOT));
      String ip = user.getString("client_ip");
      JsonObject values = new JsonObject();
      if (row.getBigDecimal("value") != null) {
        values.put("value", row.getBigDecimal("value")).put("currency", row.getString("currency"));
      }
      if (network.equals("meta")) {
        return new JsonObject().put("event_name", row.getString("event_name")).put("event_time", time)
            .put("event_id", id).put("action_source", "chat")
            .put("user_data", new JsonObject().put("em", hashed == null ? null : new JsonArray().add(hashed))
                .put("client_ip_address", ip))
            .put("custom_data", values);
      }
      return new JsonObject().put("event", row.getString("event_name")).put("event_time", time).put("event_id", id)
          .put("user", new JsonObject().put("email", hashed).put("ip", ip)).put("properties", values)
          .put("page", new JsonObject().put("url", "https://bench.example/"));
    }

    private static String sha256(String text) {
      try {
        return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256")
            .digest(text.getBytes(StandardCharsets.UTF_8)));
      } catch (java.security.NoSuchAlgorithmException e) {
        throw new IllegalStateException(e);
      }
    }
  }
}
