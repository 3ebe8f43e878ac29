package dev.eventrouter.db;

import dev.eventrouter.common.LogSafe;
import dev.eventrouter.config.DatabaseConfig;
import dev.eventrouter.event.EventIds;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.net.NetClientOptions;
import io.vertx.pgclient.PgBuilder;
import io.vertx.pgclient.PgConnectOptions;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.PoolOptions;
import io.vertx.sqlclient.Tuple;
import org.flywaydb.core.Flyway;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.time.LocalDate;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;

/**
 * The prepared database: server started (or reached), schema migrated, this process's node id leased, and the
 * connection pools for the verticles: writes, reads, the funnel reports', and the background work's.
 */
public final class Database {

  private static final Logger LOG = LoggerFactory.getLogger(Database.class);
  private static final long READ_STATEMENT_TIMEOUT_MS = 2_000;
  private static final long PARTITIONS_EVERY_MS = TimeUnit.HOURS.toMillis(1);
  private static final String READ = "event-router-read";
  private static final String REPORT = "event-router-report";
  /** The background work's pool: rollups, recounts, cost imports, alerts. */
  private static final String BACKGROUND = "event-router-background";
  /**
   * The pools (their connections' application_name) whose transactions never store events: the forwarders' cursors
   * do not wait for them (DeliveryCursors), so a long rollup round does not hold up delivery.
   */
  public static final List<String> EVENT_FREE = List.of(READ, REPORT, BACKGROUND);
  private static final int BACKGROUND_POOL_SIZE = 4;

  private final Vertx vertx;
  private final PostgresServer server;
  private final Pool pool;
  private final Pool readPool;
  private final Pool reportPool;
  private final Pool backgroundPool;
  private final int nodeId;
  private final String schemaVersion;
  private final int retentionDays;
  private final Clock clock;
  private long partitionTimer = -1;

  private Database(Vertx vertx, PostgresServer server, Pool pool, Pool readPool, Pool reportPool,
                   Pool backgroundPool, int nodeId, String schemaVersion, int retentionDays, Clock clock) {
    this.vertx = vertx;
    this.server = server;
    this.pool = pool;
    this.readPool = readPool;
    this.reportPool = reportPool;
    this.backgroundPool = backgroundPool;
    this.nodeId = nodeId;
    this.schemaVersion = schemaVersion;
    this.retentionDays = retentionDays;
    this.clock = clock;
  }

  /**
   * Does the blocking part (embedded start, Flyway) on a worker thread, never on an event loop.
   *
   * @param requestTimeoutMs  how long a requester waits: a write statement may run no longer, so PostgreSQL itself ends
   *                          a write whose requester has been answered 503; nor may a report wait for a connection
   * @param readLockTimeoutMs how long a read (session lookup, status) may wait for a lock before it gives up
   */
  public static Future<Database> open(Vertx vertx, DatabaseConfig config, long requestTimeoutMs,
                                      long readLockTimeoutMs) {
    int reads = config.readPoolSize();
    return vertx.<Prepared>executeBlocking(() -> prepare(config))
        .map(prepared -> new Database(vertx, prepared.server,
            pool(vertx, prepared.server, options("event-router-write", config.poolSize()), requestTimeoutMs, 0),
            pool(vertx, prepared.server, options(READ, reads), READ_STATEMENT_TIMEOUT_MS,
                readLockTimeoutMs),
            // The HTTP edge lets no more reports run than the read pool has connections (reports.max_concurrent),
            // each holding two at most (its sums and its cost, read side by side), so none waits for one; a report
            // still running after its requester gave up is what the queue is for: as long as the pool, so the reports
            // let in while every connection is taken can each queue both halves. Bounded: what finds it full fails
            // at once (ConnectionPoolTooBusyException), answered 503, instead of queueing without end.
            pool(vertx, prepared.server, options(REPORT, 2 * reads).setMaxWaitQueueSize(2 * reads)
                    .setConnectionTimeout((int) requestTimeoutMs).setConnectionTimeoutUnit(TimeUnit.MILLISECONDS),
                READ_STATEMENT_TIMEOUT_MS, readLockTimeoutMs),
            pool(vertx, prepared.server, options(BACKGROUND, BACKGROUND_POOL_SIZE), requestTimeoutMs, 0),
            prepared.nodeId, prepared.schemaVersion, config.retentionDays(), Clock.systemUTC()))
        // The partitions ahead exist before the first insert; a database that refuses them fails the start.
        .compose(database -> database.maintainPartitions()
            .map(round -> database.keepPartitions())
            .recover(e -> database.close().transform(ignored -> Future.failedFuture(e))));
  }

  /** One round of partition upkeep for today (UTC): create ahead, drop past the retention. */
  public Future<Partitions.Round> maintainPartitions() {
    return Partitions.maintain(pool, LocalDate.now(clock), retentionDays).onSuccess(round -> {
      if (!round.created().isEmpty() || !round.dropped().isEmpty()) {
        LOG.info("partitions created: {}; dropped (older than {} days): {}", round.created(), retentionDays,
            round.dropped());
      }
    });
  }

  /** Hourly: a day boundary is never more than an hour late, and the partitions ahead absorb failing rounds. */
  private Database keepPartitions() {
    partitionTimer = vertx.setPeriodic(PARTITIONS_EVERY_MS, id -> maintainPartitions()
        .onFailure(e -> LOG.warn("partition upkeep failed, tried again within the hour: {}", LogSafe.describe(e))));
    return this;
  }

  private record Prepared(PostgresServer server, int nodeId, String schemaVersion) {}

  private static Prepared prepare(DatabaseConfig config) throws Exception {
    PostgresServer server = PostgresServer.start(config);
    try {
      DataSource dataSource = server.dataSource();
      Flyway flyway = Flyway.configure().dataSource(dataSource).locations("classpath:db/migration").load();
      flyway.migrate();
      return new Prepared(server, leaseNodeId(dataSource), flyway.info().current().getVersion().getVersion());
    } catch (Exception | Error e) {
      server.close();
      throw e;
    }
  }

  private static int leaseNodeId(DataSource dataSource) throws SQLException {
    try (Connection c = dataSource.getConnection(); Statement s = c.createStatement();
         ResultSet rs = s.executeQuery("SELECT nextval('node_leases')")) {
      rs.next();
      return (int) (rs.getLong(1) % EventIds.MAX_NODES);
    }
  }

  /** A pool's name (its connections' application_name) and size; a connection is waited for 5 s at most. */
  private static PoolOptions options(String name, int size) {
    return new PoolOptions().setMaxSize(size).setConnectionTimeout(5).setName(name);
  }

  /**
   * Three pools: writes; reads that must not starve them; and reports, which must not starve the reads (session
   * lookups, lists, the readiness probe), however many are asked for. Session lookups hold a read connection past
   * their time budget only until PostgreSQL's own timeouts end the query; a stuck read never takes a write's
   * connection, a long report never a read's.
   */
  private static Pool pool(Vertx vertx, PostgresServer server, PoolOptions options, long statementTimeoutMs,
                           long lockTimeoutMs) {
    PgConnectOptions connect = server.connectOptions()
        .setCachePreparedStatements(true)
        .addProperty("application_name", options.getName())
        .addProperty("statement_timeout", String.valueOf(statementTimeoutMs))
        .addProperty("lock_timeout", String.valueOf(lockTimeoutMs));
    return PgBuilder.pool()
        .with(options)
        .with(new NetClientOptions().setConnectTimeout(5_000))
        .connectingTo(connect)
        .using(vertx)
        .build();
  }

  public Pool pool() {
    return pool;
  }

  public Pool readPool() {
    return readPool;
  }

  /** The funnel reports' own connections: as many as the read pool's, and a bounded queue. */
  public Pool reportPool() {
    return reportPool;
  }

  /** Background work's own connections: its long transactions never hold up delivery (see {@link #EVENT_FREE}). */
  public Pool backgroundPool() {
    return backgroundPool;
  }

  public int nodeId() {
    return nodeId;
  }

  /** The schema version this process migrated to (or found) at start. */
  public String schemaVersion() {
    return schemaVersion;
  }

  /**
   * Whether PostgreSQL answers a query now, on the read pool: a probe must not take a writer's connection, nor wait
   * behind reports, which have a pool of their own (a load balancer would take the node out for a report load).
   */
  public Future<Void> ping() {
    return readPool.query("SELECT 1").execute().mapEmpty();
  }

  /**
   * Whether the schema this process needs is still applied: a database restored from an older backup, or replaced,
   * would fail every write. A newer version applied by a newer node (a rolling upgrade) keeps it true.
   */
  public Future<Boolean> schemaApplied() {
    return readPool.preparedQuery("SELECT 1 FROM flyway_schema_history WHERE version = $1 AND success")
        .execute(Tuple.of(schemaVersion)).map(rows -> rows.size() > 0);
  }

  public Future<Void> close() {
    vertx.cancelTimer(partitionTimer);
    return pool.close().eventually(readPool::close).eventually(reportPool::close).eventually(backgroundPool::close)
        .eventually(() -> vertx.executeBlocking(() -> {
          server.close();
          return null;
        }));
  }
}
