import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.pgclient.PgBuilder;
import io.vertx.pgclient.PgConnectOptions;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.PoolOptions;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.RowSet;
import io.vertx.sqlclient.Tuple;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;

/**
 * PostgreSQL's own insert ceiling for the rows the service writes: CONNECTIONS connections, each committing batches
 * of BATCH event rows as fast as it can, with the statement shape the service uses (typed arrays through unnest),
 * into scratch copies of its tables with the same columns and indexes. No HTTP, no JSON parsing, no bus: what the
 * database and disk allow at this commit size. Run from the shaded jar's classpath:
 * java -cp target/event-router.jar bench/PgCeiling.java URL CONNECTIONS BATCH WARMUP_S SECONDS [VARIANT [RATE]]
 *
 * VARIANT says what the statement does, so each part of the service's insert can be priced alone:
 * <ul>
 *   <li>{@code plain} (the default): the events rows into an unpartitioned copy of the events table;
 *   <li>{@code partitioned}: into a copy partitioned by event_id as the events table is (partition routing);
 *   <li>{@code partitioned-no-workspace-index}: the same without the (workspace_id, event_id) index;
 *   <li>{@code partitioned} is the service's own statement for a batch without deliveries;
 *   <li>{@code last-sessions}: partitioned, and each user's last session upserted in the same statement (what the
 *       service did before migration V14, priced here);
 *   <li>{@code empty-outbox}: partitioned, with the outbox insert of a batch with deliveries, its arrays empty (what
 *       the service ran before for a batch without any).
 * </ul>
 *
 * <p>The {@code deliver-*} variants price the delivery path's writes (issue 45): the events are inserted at RATE
 * events/s at most (the optional seventh argument; 0 or none: as fast as they go) and two couriers, one per network
 * on a connection of its own, take them BATCH_OUT at a time (the service's delivery.batch_size, 500) and record each
 * request's outcome as delivered, with no HTTP in between:
 * <ul>
 *   <li>{@code deliver-outbox}: today's path: an outbox row per event and network written with the event, a claim
 *       (the lease: an update of each row) and the outcome (an update of each row, with the payload it was sent
 *       with);
 *   <li>{@code deliver-locked}: the outbox row with the event, then in one transaction the rows locked (FOR UPDATE
 *       SKIP LOCKED, no lease written), the request's body stored once in a request row, the rows marked delivered
 *       with its id;
 *   <li>{@code deliver-cursor}: no row per delivery: the events carry the id of the transaction that wrote them
 *       (xid8) and each courier reads past its cursor up to the oldest transaction still running (so one committed
 *       later under a lower id is not passed over), stores the request's body once and moves its cursor, in one
 *       transaction.
 * </ul>
 *
 * Prints "measuring" when the warm-up ends, "measured" when the run ends (so bench/run.sh can read CPU times around
 * it), then RESULT rows=n commits=c duration_us=d p50_us=.. p99_us=.. max_us=.. (commit latency), with the couriers
 * also delivered=n (the slower network's, in the measured seconds) backlog=n (still owed, both networks, at the end).
 */
public final class PgCeiling {

  private static final String ROWS = """
      SELECT event_id, workspace_id, event_name, telegram_id, session_id, 'supplied', value::numeric, currency,
             user_data::jsonb, NULL, 'processed', received_at, NULL::boolean
        FROM unnest($1::bigint[], $2::uuid[], $3::text[], $4::bigint[], $5::text[], $6::text[], $7::text[],
                    $8::text[], $9::timestamptz[])
             AS t(event_id, workspace_id, event_name, telegram_id, session_id, value, currency, user_data,
                  received_at)""";
  private static final String COLUMNS = """
      (event_id, workspace_id, event_name, telegram_id, session_id, session_source, value, currency, user_data,
       idempotency_key, status, received_at, limited_data_use)""";
  /** The last_sessions upsert of the service's statement, on the rows inserted. */
  private static final String LAST_SESSIONS = """
      INSERT INTO bench_last_sessions (workspace_id, telegram_id, session_id, updated_at)
      SELECT DISTINCT ON (workspace_id, telegram_id) workspace_id, telegram_id, session_id, received_at
        FROM inserted WHERE session_id IS NOT NULL
       ORDER BY workspace_id, telegram_id, received_at DESC, event_id DESC
      ON CONFLICT (workspace_id, telegram_id) DO UPDATE
         SET session_id = EXCLUDED.session_id, updated_at = EXCLUDED.updated_at
       WHERE bench_last_sessions.updated_at <= EXCLUDED.updated_at""";
  /** The outbox insert of the service's statement for a batch with deliveries, with none to make. */
  private static final String OUTBOX = """
      INSERT INTO bench_deliveries (event_id, workspace_id, integration_id, network, mapped_event, status,
                                    next_attempt_at)
      SELECT d.event_id, i.workspace_id, d.integration_id, d.network, d.mapped_event, 'pending', now()
        FROM unnest('{}'::bigint[], '{}'::text[], '{}'::text[], '{}'::text[])
             AS d(event_id, integration_id, network, mapped_event)
        JOIN inserted i ON i.event_id = d.event_id""";
  /** A partitioned copy of the events table with the indexes the migrations give it (V4, V9). */
  private static final String PARTITIONED = """
      CREATE TABLE bench_events (LIKE events INCLUDING DEFAULTS INCLUDING CONSTRAINTS) PARTITION BY RANGE (event_id);
      CREATE TABLE bench_events_all PARTITION OF bench_events FOR VALUES FROM (MINVALUE) TO (MAXVALUE);
      ALTER TABLE bench_events ADD PRIMARY KEY (event_id);
      CREATE INDEX ON bench_events (workspace_id, telegram_id, received_at DESC) WHERE session_id IS NOT NULL;
      """;
  private static final String WORKSPACE_INDEX = "CREATE INDEX ON bench_events (workspace_id, event_id);";
  private static final String SCRATCH = "bench_events, bench_last_sessions, bench_deliveries, bench_requests, "
      + "bench_cursors";

  /** The last_sessions table as migration V2 made it (V14 dropped it), with V13's index for its purge. */
  private static final String LAST_SESSIONS_TABLE = """
      CREATE TABLE bench_last_sessions (workspace_id uuid NOT NULL, telegram_id bigint NOT NULL,
                                        session_id text NOT NULL, updated_at timestamptz NOT NULL,
                                        PRIMARY KEY (workspace_id, telegram_id));
      CREATE INDEX ON bench_last_sessions (updated_at);
      """;

  /**
   * One courier's round for its network: takes up to {@link #BATCH_OUT} events owed to it, builds the payloads the
   * service would send, and records them delivered; completes with how many.
   */
  private interface Courier {
    Future<Integer> round(Pool pool, String network);
  }

  private record Variant(String setup, String insert, Courier courier) {
    Variant(String setup, String insert) {
      this(setup, insert, null);
    }
  }

  /** Events a request carries at most: the service's delivery.batch_size. */
  private static final int BATCH_OUT = 500;
  /** The wait after a round that found less than a batch: the service's delivery.linger_ms. */
  private static final long LINGER_MS = 50;
  private static final List<String> NETWORKS = List.of("meta", "tiktok");

  /** The outbox rows of the events inserted, one per network (the service passes them as arrays; same rows). */
  private static final String WITH_OUTBOX = "WITH inserted AS (INSERT INTO bench_events " + COLUMNS + ROWS + """
       RETURNING event_id, workspace_id, event_name)
      INSERT INTO bench_deliveries (event_id, workspace_id, integration_id, network, mapped_event, status,
                                    next_attempt_at)
      SELECT i.event_id, i.workspace_id, n.network, n.network, i.event_name, 'pending', now()
        FROM inserted i CROSS JOIN (VALUES ('meta'), ('tiktok')) AS n(network)""";
  private static final String OUTBOX_TABLES = PARTITIONED + WORKSPACE_INDEX
      + "CREATE TABLE bench_deliveries (LIKE deliveries INCLUDING ALL);"
      + "ALTER TABLE bench_deliveries ADD COLUMN request_id bigint;"
      + "CREATE TABLE bench_requests (request_id bigserial PRIMARY KEY, network text NOT NULL, body jsonb NOT NULL, "
      + "sent_at timestamptz NOT NULL);";
  /** The event columns a payload is built from (the service also reads the click; every design does the same). */
  private static final String EVENT_FIELDS = "e.event_name, e.user_data, e.value, e.currency, e.received_at";
  /** Today's claim: a lease written on each row (DeliveryStore.CLAIM's shape). */
  private static final String LEASE = """
      WITH due AS (
          SELECT delivery_id, event_id FROM bench_deliveries
           WHERE network = $1 AND status IN ('pending', 'retrying') AND next_attempt_at <= now()
           ORDER BY next_attempt_at LIMIT $2 FOR UPDATE SKIP LOCKED)
      UPDATE bench_deliveries d SET next_attempt_at = now() + interval '30 seconds', claims = d.claims + 1,
             updated_at = now()
        FROM due JOIN bench_events e ON e.event_id = due.event_id
       WHERE d.event_id = due.event_id AND d.delivery_id = due.delivery_id
      RETURNING d.event_id, d.delivery_id, """ + EVENT_FIELDS;
  /** Today's outcome: each row marked delivered with the payload it was sent with (DeliveryOutcomeStore's). */
  private static final String DELIVERED = """
      UPDATE bench_deliveries d SET status = 'delivered', attempts = attempts + 1, delivered_at = now(),
             last_error = NULL, match_keys = j.match_keys, payload = j.payload, claims = 0, updated_at = now()
        FROM unnest($1::bigint[], $2::bigint[], $3::jsonb[], $4::int[])
             AS j(event_id, delivery_id, payload, match_keys)
       WHERE d.event_id = j.event_id AND d.delivery_id = j.delivery_id""";
  private static final String LOCK = """
      SELECT d.event_id, d.delivery_id, %s FROM bench_deliveries d JOIN bench_events e ON e.event_id = d.event_id
       WHERE d.network = $1 AND d.status IN ('pending', 'retrying') AND d.next_attempt_at <= now()
       ORDER BY d.next_attempt_at LIMIT $2 FOR UPDATE OF d SKIP LOCKED""".formatted(EVENT_FIELDS);
  private static final String DELIVERED_ONCE = """
      WITH request AS (
          INSERT INTO bench_requests (network, body, sent_at) VALUES ($3, $4::jsonb, now()) RETURNING request_id)
      UPDATE bench_deliveries d SET status = 'delivered', attempts = attempts + 1, delivered_at = now(),
             match_keys = j.match_keys, request_id = (SELECT request_id FROM request), updated_at = now()
        FROM unnest($1::bigint[], $2::bigint[], $5::int[]) AS j(event_id, delivery_id, match_keys)
       WHERE d.event_id = j.event_id AND d.delivery_id = j.delivery_id""";
  private static final String CURSOR_TABLES = PARTITIONED + WORKSPACE_INDEX + """
      ALTER TABLE bench_events ALTER COLUMN tx SET NOT NULL; -- the events table's own column (V29), copied
      CREATE INDEX ON bench_events (tx, event_id);
      CREATE TABLE bench_requests (request_id bigserial PRIMARY KEY, network text NOT NULL, body jsonb NOT NULL,
                                   sent_at timestamptz NOT NULL);
      CREATE TABLE bench_cursors (network text PRIMARY KEY, tx xid8 NOT NULL, event_id bigint NOT NULL);
      INSERT INTO bench_cursors VALUES ('meta', '0', 0), ('tiktok', '0', 0);
      """;
  /**
   * The events past a cursor ($2 transaction, $3 event id), in the order of the transactions that wrote them, up to
   * the oldest still running: every transaction below it has ended, so nothing can appear behind the cursor later
   * (https://www.postgresql.org/docs/current/functions-info.html, pg_snapshot_xmin).
   */
  private static final String PAST_CURSOR = """
      SELECT e.event_id, e.tx::text AS tx, %s FROM bench_events e
       WHERE (e.tx, e.event_id) > ($1::text::xid8, $2) AND e.tx < pg_snapshot_xmin(pg_current_snapshot())
       ORDER BY e.tx, e.event_id LIMIT $3""".formatted(EVENT_FIELDS);
  /** The request's body stored once, and the cursor moved past it ($1 network, $2 body, $3 tx, $4 event id). */
  private static final String ADVANCE = """
      WITH request AS (INSERT INTO bench_requests (network, body, sent_at) VALUES ($1, $2::jsonb, now()))
      UPDATE bench_cursors SET tx = $3::text::xid8, event_id = $4 WHERE network = $1""";

  private static final Map<String, Variant> VARIANTS = Map.of(
      "plain", new Variant("CREATE TABLE bench_events (LIKE events INCLUDING ALL)",
          "INSERT INTO bench_events " + COLUMNS + ROWS),
      "partitioned", new Variant(PARTITIONED + WORKSPACE_INDEX, "INSERT INTO bench_events " + COLUMNS + ROWS),
      "partitioned-no-workspace-index", new Variant(PARTITIONED, "INSERT INTO bench_events " + COLUMNS + ROWS),
      "last-sessions", new Variant(PARTITIONED + WORKSPACE_INDEX + LAST_SESSIONS_TABLE,
          "WITH inserted AS (INSERT INTO bench_events " + COLUMNS + ROWS
              + " RETURNING event_id, workspace_id, telegram_id, session_id, received_at) " + LAST_SESSIONS),
      "empty-outbox", new Variant(PARTITIONED + WORKSPACE_INDEX
          + "CREATE TABLE bench_deliveries (LIKE deliveries INCLUDING ALL);",
          "WITH inserted AS (INSERT INTO bench_events " + COLUMNS + ROWS
              + " RETURNING event_id, workspace_id) " + OUTBOX),
      "deliver-outbox", new Variant(OUTBOX_TABLES, WITH_OUTBOX, PgCeiling::leaseThenMark),
      "deliver-locked", new Variant(OUTBOX_TABLES, WITH_OUTBOX, PgCeiling::lockThenMark),
      "deliver-cursor", new Variant(CURSOR_TABLES, "INSERT INTO bench_events " + COLUMNS + ROWS,
          PgCeiling::pastCursor));
  private static final String[] NAMES = {"REG", "FTD", "Subscribe", "DEP", "JoinRequest", "Purchase", "TRIAL"};
  private static final UUID WORKSPACE = UUID.fromString("11111111-1111-4111-8111-111111111111");

  public static void main(String[] args) {
    try {
      run(args);
    } catch (RuntimeException e) { // said here: the source launcher loses the cause of a failure from an event loop
      System.err.println("PgCeiling failed: " + e);
      System.exit(1);
    }
  }

  private static void run(String[] args) {
    String url = args[0];
    int connections = Integer.parseInt(args[1]);
    int batch = Integer.parseInt(args[2]);
    long warmupMs = Long.parseLong(args[3]) * 1000;
    long runMs = Long.parseLong(args[4]) * 1000;
    Variant variant = VARIANTS.get(args.length > 5 ? args[5] : "plain");
    if (variant == null) {
      throw new IllegalArgumentException("variant must be one of " + VARIANTS.keySet());
    }
    long rate = args.length > 6 ? Long.parseLong(args[6]) : 0;
    Vertx vertx = Vertx.vertx();
    Pool pool = PgBuilder.pool().with(new PoolOptions().setMaxSize(connections))
        .connectingTo(PgConnectOptions.fromUri(url).setCachePreparedStatements(true)).using(vertx).build();
    pool.query("DROP TABLE IF EXISTS " + SCRATCH + "; " + variant.setup()).execute().await();
    Load load = new Load(vertx, batch, rate, warmupMs, runMs);
    vertx.setTimer(Math.max(1, warmupMs), id -> {
      System.out.println("measuring");
      System.out.flush();
    });
    List<Future<Void>> workers = new ArrayList<>();
    for (int i = 0; i < connections; i++) {
      Promise<Void> done = Promise.promise();
      load.insert(pool, variant.insert(), done);
      workers.add(done.future());
    }
    Pool couriers = PgBuilder.pool().with(new PoolOptions().setMaxSize(NETWORKS.size()))
        .connectingTo(PgConnectOptions.fromUri(url).setCachePreparedStatements(true)).using(vertx).build();
    Map<String, AtomicLong> delivered = new ConcurrentHashMap<>();
    if (variant.courier() != null) {
      for (String network : NETWORKS) {
        Promise<Void> done = Promise.promise();
        load.deliver(couriers, variant.courier(), network, delivered.computeIfAbsent(network, n -> new AtomicLong()),
            done);
        workers.add(done.future());
      }
    }
    Future.all(workers).await();
    System.out.println("measured");
    System.out.flush();
    long[] sorted = load.latencies.stream().mapToLong(Long::longValue).sorted().toArray();
    pool.query("DROP TABLE IF EXISTS " + SCRATCH).execute().await();
    String delivery = variant.courier() == null ? "" : " delivered=%d backlog=%d".formatted(
        delivered.values().stream().mapToLong(AtomicLong::get).min().orElse(0),
        NETWORKS.size() * load.storedAll.get() - load.deliveredAll.get());
    System.out.printf("RESULT rows=%d commits=%d duration_us=%d p50_us=%d p99_us=%d max_us=%d%s%n", load.stored.get(),
        load.commits.get(), runMs * 1000, percentile(sorted, 0.50), percentile(sorted, 0.99),
        sorted.length == 0 ? 0 : sorted[sorted.length - 1], delivery);
    couriers.close().await();
    pool.close().await();
    vertx.close().await();
  }

  private static long percentile(long[] sorted, double q) {
    return sorted.length == 0 ? 0 : sorted[(int) Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
  }

  /** One run's inserting connections and couriers, and what they counted. */
  private static final class Load {
    final Vertx vertx;
    final int batch;
    final long rate;
    final long start = System.currentTimeMillis();
    final long measureFrom;
    final long end;
    final AtomicLong ids = new AtomicLong(System.currentTimeMillis() << 22);
    final AtomicLong issued = new AtomicLong();
    final AtomicLong stored = new AtomicLong();
    final AtomicLong storedAll = new AtomicLong();
    final AtomicLong deliveredAll = new AtomicLong();
    final AtomicLong commits = new AtomicLong();
    final ConcurrentLinkedQueue<Long> latencies = new ConcurrentLinkedQueue<>();

    Load(Vertx vertx, int batch, long rate, long warmupMs, long runMs) {
      this.vertx = vertx;
      this.batch = batch;
      this.rate = rate;
      this.measureFrom = start + warmupMs;
      this.end = measureFrom + runMs;
    }

    boolean measured(long now) {
      return now >= measureFrom && now < end;
    }

    /** One connection's commits, one after another until the end (at most {@code rate} a second, all together). */
    void insert(Pool pool, String statement, Promise<Void> done) {
      if (System.currentTimeMillis() >= end) {
        done.complete();
        return;
      }
      long wait = rate <= 0 ? 0 : start + issued.addAndGet(batch) * 1000 / rate - System.currentTimeMillis();
      if (wait > 0) {
        vertx.setTimer(wait, t -> commit(pool, statement, done));
      } else {
        commit(pool, statement, done);
      }
    }

    private void commit(Pool pool, String statement, Promise<Void> done) {
      long began = System.nanoTime();
      pool.preparedQuery(statement).execute(rows(batch, ids)).onComplete(result -> {
        if (result.failed()) {
          done.fail(result.cause());
          return;
        }
        storedAll.addAndGet(batch);
        if (measured(System.currentTimeMillis())) {
          stored.addAndGet(batch);
          commits.incrementAndGet();
          latencies.add((System.nanoTime() - began) / 1000);
        }
        insert(pool, statement, done);
      });
    }

    /** A courier's rounds until the end: the next at once after a full batch, else after the linger. */
    void deliver(Pool pool, Courier courier, String network, AtomicLong delivered, Promise<Void> done) {
      if (System.currentTimeMillis() >= end) {
        done.complete();
        return;
      }
      courier.round(pool, network).onComplete(result -> {
        if (result.failed()) {
          done.fail(result.cause());
          return;
        }
        deliveredAll.addAndGet(result.result());
        if (measured(System.currentTimeMillis())) {
          delivered.addAndGet(result.result());
        }
        if (result.result() < BATCH_OUT) {
          vertx.setTimer(LINGER_MS, t -> deliver(pool, courier, network, delivered, done));
        } else {
          deliver(pool, courier, network, delivered, done);
        }
      });
    }
  }

  private static Future<Integer> leaseThenMark(Pool pool, String network) {
    return pool.preparedQuery(LEASE).execute(Tuple.of(network, BATCH_OUT)).compose(rows -> {
      Claimed claimed = Claimed.of(rows);
      return claimed.size() == 0 ? Future.succeededFuture(0) : pool.preparedQuery(DELIVERED)
          .execute(Tuple.tuple().addArrayOfLong(claimed.events).addArrayOfLong(claimed.deliveries)
              .addArrayOfJsonObject(claimed.payloads).addArrayOfInteger(claimed.matchKeys()))
          .map(claimed.size());
    });
  }

  private static Future<Integer> lockThenMark(Pool pool, String network) {
    return pool.withTransaction(conn -> conn.preparedQuery(LOCK).execute(Tuple.of(network, BATCH_OUT))
        .compose(rows -> {
          Claimed claimed = Claimed.of(rows);
          return claimed.size() == 0 ? Future.succeededFuture(0) : conn.preparedQuery(DELIVERED_ONCE)
              .execute(Tuple.tuple().addArrayOfLong(claimed.events).addArrayOfLong(claimed.deliveries)
                  .addString(network).addJsonObject(claimed.body()).addArrayOfInteger(claimed.matchKeys()))
              .map(claimed.size());
        }));
  }

  /** Each network's cursor ({transaction, event id}); one courier per network moves it. */
  private static final Map<String, Object[]> CURSORS = new ConcurrentHashMap<>();

  private static Future<Integer> pastCursor(Pool pool, String network) {
    Object[] at = CURSORS.computeIfAbsent(network, n -> new Object[] {"0", 0L});
    return pool.preparedQuery(PAST_CURSOR).execute(Tuple.of(at[0], at[1], BATCH_OUT)).compose(rows -> {
      Claimed claimed = Claimed.of(rows);
      if (claimed.size() == 0) {
        return Future.succeededFuture(0);
      }
      Object[] next = {claimed.lastTx, claimed.events[claimed.size() - 1]};
      return pool.preparedQuery(ADVANCE).execute(Tuple.of(network, claimed.body(), next[0], next[1])).map(v -> {
        CURSORS.put(network, next);
        return claimed.size();
      });
    });
  }

  /** The events a round took, with the payload each is sent with (as the service's: hashed e-mail, IP, value). */
  private record Claimed(Long[] events, Long[] deliveries, JsonObject[] payloads, String lastTx) {
    static Claimed of(RowSet<Row> rows) {
      int n = rows.size();
      Long[] events = new Long[n];
      Long[] deliveries = new Long[n];
      JsonObject[] payloads = new JsonObject[n];
      String lastTx = null;
      int i = 0;
      for (Row row : rows) {
        events[i] = row.getLong("event_id");
        deliveries[i] = row.getColumnIndex("delivery_id") < 0 ? null : row.getLong("delivery_id");
        payloads[i++] = payload(row);
        lastTx = row.getColumnIndex("tx") < 0 ? null : row.getString("tx");
      }
      return new Claimed(events, deliveries, payloads, lastTx);
    }

    int size() {
      return events.length;
    }

    Integer[] matchKeys() {
      Integer[] keys = new Integer[events.length];
      Arrays.fill(keys, 3);
      return keys;
    }

    JsonObject body() {
      return new JsonObject().put("data", new JsonArray(Arrays.asList((Object[]) payloads)));
    }
  }

  private static JsonObject payload(Row row) {
    JsonObject user = row.getJson("user_data") instanceof JsonObject json ? json : new JsonObject();
    String email = user.getString("email");
    JsonObject custom = new JsonObject();
    if (row.getBigDecimal("value") != null) {
      custom.put("value", row.getBigDecimal("value")).put("currency", row.getString("currency"));
    }
    return new JsonObject().put("event_name", row.getString("event_name"))
        .put("event_time", row.getOffsetDateTime("received_at").toEpochSecond())
        .put("event_id", "evt_" + row.getLong("event_id")).put("action_source", "chat")
        .put("user_data", new JsonObject().put("em", email == null ? null : new JsonArray().add(sha256(email)))
            .put("client_ip_address", user.getString("client_ip")))
        .put("custom_data", custom);
  }

  private static String sha256(String text) {
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256")
          .digest(text.trim().toLowerCase(Locale.ROOT).getBytes(StandardCharsets.UTF_8)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  /** Rows like the benchmark's events: varied user and name, a value on purchases, an e-mail and IP. */
  private static Tuple rows(int n, AtomicLong ids) {
    ThreadLocalRandom random = ThreadLocalRandom.current();
    Long[] eventIds = new Long[n];
    UUID[] workspaces = new UUID[n];
    String[] names = new String[n];
    Long[] telegramIds = new Long[n];
    String[] sessions = new String[n];
    String[] values = new String[n];
    String[] currencies = new String[n];
    String[] userData = new String[n];
    OffsetDateTime[] receivedAt = new OffsetDateTime[n];
    OffsetDateTime now = OffsetDateTime.now(ZoneOffset.UTC);
    for (int i = 0; i < n; i++) {
      long telegramId = random.nextLong(1, 5_000_000);
      eventIds[i] = ids.incrementAndGet();
      workspaces[i] = WORKSPACE;
      names[i] = NAMES[random.nextInt(NAMES.length)];
      telegramIds[i] = telegramId;
      sessions[i] = "s" + telegramId;
      boolean monetary = names[i].equals("FTD") || names[i].equals("DEP") || names[i].equals("Purchase");
      values[i] = monetary ? "49.99" : null;
      currencies[i] = "USD";
      userData[i] = "{\"email\":\"user" + telegramId + "@example.com\",\"client_ip\":\"203.0.113.7\"}";
      receivedAt[i] = now;
    }
    return Tuple.tuple().addArrayOfLong(eventIds).addArrayOfUUID(workspaces).addArrayOfString(names)
        .addArrayOfLong(telegramIds).addArrayOfString(sessions).addArrayOfString(values)
        .addArrayOfString(currencies).addArrayOfString(userData).addArrayOfOffsetDateTime(receivedAt);
  }
}
