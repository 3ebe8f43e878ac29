package dev.eventrouter.store;

import dev.eventrouter.config.DatabaseConfig;
import dev.eventrouter.event.EventIds;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.net.NetClientOptions;
import io.vertx.pgclient.PgBuilder;
import io.vertx.pgclient.PgConnectOptions;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.PoolOptions;
import org.flywaydb.core.Flyway;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import javax.sql.DataSource;

/**
 * The prepared database: server started (or reached), schema migrated, this process's node id leased, and a
 * connection pool for the verticles.
 */
public final class Database {

  private static final long READ_STATEMENT_TIMEOUT_MS = 2_000;

  private final Vertx vertx;
  private final PostgresServer server;
  private final Pool pool;
  private final Pool readPool;
  private final int nodeId;

  private Database(Vertx vertx, PostgresServer server, Pool pool, Pool readPool, int nodeId) {
    this.vertx = vertx;
    this.server = server;
    this.pool = pool;
    this.readPool = readPool;
    this.nodeId = nodeId;
  }

  /**
   * Does the blocking part (embedded start, Flyway) on a worker thread, never on an event loop.
   *
   * @param writeTimeoutMs    how long a write statement may run: no longer than its requester waits, so PostgreSQL
   *                          itself ends a write whose requester has been answered 503
   * @param readLockTimeoutMs how long a read (session lookup, status) may wait for a lock before it gives up
   */
  public static Future<Database> open(Vertx vertx, DatabaseConfig config, long writeTimeoutMs,
                                      long readLockTimeoutMs) {
    return vertx.<Prepared>executeBlocking(() -> prepare(config))
        .map(prepared -> new Database(vertx, prepared.server,
            pool(vertx, prepared.server, "event-router-write", config.poolSize(), writeTimeoutMs, 0),
            pool(vertx, prepared.server, "event-router-read", Math.max(2, config.poolSize() / 2),
                READ_STATEMENT_TIMEOUT_MS, readLockTimeoutMs),
            prepared.nodeId));
  }

  private record Prepared(PostgresServer server, int nodeId) {}

  private static Prepared prepare(DatabaseConfig config) throws Exception {
    PostgresServer server = PostgresServer.start(config);
    try {
      DataSource dataSource = server.dataSource();
      Flyway.configure().dataSource(dataSource).locations("classpath:db/migration").load().migrate();
      return new Prepared(server, leaseNodeId(dataSource));
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

  /**
   * Two pools: writes, and reads that must not starve them. Session lookups hold a read connection past their time
   * budget only until PostgreSQL's own timeouts end the query; a stuck read never takes a write's connection.
   */
  private static Pool pool(Vertx vertx, PostgresServer server, String name, int size, long statementTimeoutMs,
                           long lockTimeoutMs) {
    PgConnectOptions connect = server.connectOptions()
        .setCachePreparedStatements(true)
        .addProperty("application_name", name)
        .addProperty("statement_timeout", String.valueOf(statementTimeoutMs))
        .addProperty("lock_timeout", String.valueOf(lockTimeoutMs));
    PoolOptions poolOptions = new PoolOptions()
        .setMaxSize(size)
        .setConnectionTimeout(5)
        .setName(name);
    return PgBuilder.pool()
        .with(poolOptions)
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

  public int nodeId() {
    return nodeId;
  }

  public Future<Void> close() {
    return pool.close().eventually(readPool::close).eventually(() -> vertx.executeBlocking(() -> {
      server.close();
      return null;
    }));
  }
}
