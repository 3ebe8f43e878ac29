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

  private final Vertx vertx;
  private final PostgresServer server;
  private final Pool pool;
  private final int nodeId;

  private Database(Vertx vertx, PostgresServer server, Pool pool, int nodeId) {
    this.vertx = vertx;
    this.server = server;
    this.pool = pool;
    this.nodeId = nodeId;
  }

  /** Does the blocking part (embedded start, Flyway) on a worker thread, never on an event loop. */
  public static Future<Database> open(Vertx vertx, DatabaseConfig config) {
    return vertx.<Prepared>executeBlocking(() -> prepare(config))
        .map(prepared -> new Database(vertx, prepared.server, pool(vertx, prepared.server, config), prepared.nodeId));
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

  private static Pool pool(Vertx vertx, PostgresServer server, DatabaseConfig config) {
    PgConnectOptions connect = server.connectOptions()
        .setCachePreparedStatements(true)
        .addProperty("application_name", "event-router")
        // A runaway statement must not hold a request past its own deadline for long.
        .addProperty("statement_timeout", "15000");
    PoolOptions poolOptions = new PoolOptions()
        .setMaxSize(config.poolSize())
        .setConnectionTimeout(5)
        .setName("event-router");
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

  public int nodeId() {
    return nodeId;
  }

  public Future<Void> close() {
    return pool.close().eventually(() -> vertx.executeBlocking(() -> {
      server.close();
      return null;
    }));
  }
}
