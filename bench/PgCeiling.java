import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.pgclient.PgBuilder;
import io.vertx.pgclient.PgConnectOptions;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.PoolOptions;
import io.vertx.sqlclient.Tuple;

import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;

/**
 * PostgreSQL's own insert ceiling for the rows the service writes: CONNECTIONS connections, each committing batches
 * of BATCH event rows as fast as it can, with the statement shape the service uses (typed arrays through unnest),
 * into scratch copies of its tables with the same columns and indexes. No HTTP, no JSON parsing, no bus: what the
 * database and disk allow at this commit size. Run from the shaded jar's classpath:
 * java -cp target/event-router.jar bench/PgCeiling.java URL CONNECTIONS BATCH WARMUP_S SECONDS [VARIANT]
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
 * Prints "measuring" when the warm-up ends, "measured" when the run ends (so bench/run.sh can read CPU times around
 * it), then RESULT rows=n commits=c duration_us=d p50_us=.. p99_us=.. max_us=.. (commit latency).
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
  private static final String SCRATCH = "bench_events, bench_last_sessions, bench_deliveries";

  /** The last_sessions table as migration V2 made it (V14 dropped it), with V13's index for its purge. */
  private static final String LAST_SESSIONS_TABLE = """
      CREATE TABLE bench_last_sessions (workspace_id uuid NOT NULL, telegram_id bigint NOT NULL,
                                        session_id text NOT NULL, updated_at timestamptz NOT NULL,
                                        PRIMARY KEY (workspace_id, telegram_id));
      CREATE INDEX ON bench_last_sessions (updated_at);
      """;

  private record Variant(String setup, String insert) {}

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
              + " RETURNING event_id, workspace_id) " + OUTBOX));
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
    Vertx vertx = Vertx.vertx();
    Pool pool = PgBuilder.pool().with(new PoolOptions().setMaxSize(connections))
        .connectingTo(PgConnectOptions.fromUri(url).setCachePreparedStatements(true)).using(vertx).build();
    pool.query("DROP TABLE IF EXISTS " + SCRATCH + "; " + variant.setup()).execute().await();
    AtomicLong ids = new AtomicLong(System.currentTimeMillis() << 22);
    AtomicLong stored = new AtomicLong();
    AtomicLong commits = new AtomicLong();
    ConcurrentLinkedQueue<Long> latencies = new ConcurrentLinkedQueue<>();
    long start = System.currentTimeMillis();
    long measureFrom = start + warmupMs;
    long end = measureFrom + runMs;
    vertx.setTimer(Math.max(1, warmupMs), id -> {
      System.out.println("measuring");
      System.out.flush();
    });
    List<Future<Void>> workers = new ArrayList<>();
    for (int i = 0; i < connections; i++) {
      Promise<Void> done = Promise.promise();
      loop(pool, variant.insert(), batch, ids, end, measureFrom, stored, commits, latencies, done);
      workers.add(done.future());
    }
    Future.all(workers).await();
    System.out.println("measured");
    System.out.flush();
    long[] sorted = latencies.stream().mapToLong(Long::longValue).sorted().toArray();
    pool.query("DROP TABLE IF EXISTS " + SCRATCH).execute().await();
    System.out.printf("RESULT rows=%d commits=%d duration_us=%d p50_us=%d p99_us=%d max_us=%d%n", stored.get(),
        commits.get(), runMs * 1000, percentile(sorted, 0.50), percentile(sorted, 0.99),
        sorted.length == 0 ? 0 : sorted[sorted.length - 1]);
    pool.close().await();
    vertx.close().await();
  }

  private static long percentile(long[] sorted, double q) {
    return sorted.length == 0 ? 0 : sorted[(int) Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
  }

  /** One connection's commits, one after another, until the end; callbacks rather than a chain of futures. */
  private static void loop(Pool pool, String insert, int batch, AtomicLong ids, long end, long measureFrom, AtomicLong stored,
                           AtomicLong commits, ConcurrentLinkedQueue<Long> latencies, Promise<Void> done) {
    if (System.currentTimeMillis() >= end) {
      done.complete();
      return;
    }
    long began = System.nanoTime();
    pool.preparedQuery(insert).execute(rows(batch, ids)).onComplete(result -> {
      if (result.failed()) {
        done.fail(result.cause());
        return;
      }
      long now = System.currentTimeMillis();
      if (now >= measureFrom && now < end) {
        stored.addAndGet(batch);
        commits.incrementAndGet();
        latencies.add((System.nanoTime() - began) / 1000);
      }
      loop(pool, insert, batch, ids, end, measureFrom, stored, commits, latencies, done);
    });
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
