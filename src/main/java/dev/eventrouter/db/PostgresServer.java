package dev.eventrouter.db;

import dev.eventrouter.common.StartupException;
import dev.eventrouter.config.DatabaseConfig;
import io.vertx.pgclient.PgConnectOptions;
import io.vertx.pgclient.SslMode;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import org.postgresql.ds.PGSimpleDataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import javax.sql.DataSource;

/**
 * Where the database is: an external PostgreSQL named by URL, or an embedded one this process starts and stops.
 * Starting and stopping block; call them off the event loop.
 */
public final class PostgresServer implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(PostgresServer.class);
  /**
   * Crash recovery after a kill may replay a lot of WAL (in the single-user run that sets the password, or in the
   * server's start); a server that dies at once is caught sooner.
   */
  private static final Duration STARTUP_WAIT = Duration.ofSeconds(60);

  private final PgConnectOptions connectOptions;
  private final EmbeddedPostgres embedded;
  private final DataDirectoryGuard guard;

  private PostgresServer(PgConnectOptions connectOptions, EmbeddedPostgres embedded, DataDirectoryGuard guard) {
    this.connectOptions = connectOptions;
    this.embedded = embedded;
    this.guard = guard;
  }

  /**
   * An eighth of the memory this process may see (a container's limit where there is one), between PostgreSQL's
   * default 128 MB and 2 GB. The server shares the machine with the service, so less than the quarter advised for a
   * dedicated one (https://www.postgresql.org/docs/current/runtime-config-resource.html#GUC-SHARED-BUFFERS); enough
   * that the indexes a day's partition takes random inserts into stay in it.
   */
  static long sharedBuffersMb() {
    long total = ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
        .getTotalMemorySize();
    return Math.max(128, Math.min(2048, total / 8 / (1024 * 1024)));
  }

  public static PostgresServer start(DatabaseConfig config) throws IOException {
    if (!config.embedded()) {
      return new PostgresServer(PgConnectOptions.fromUri(config.url()), null, null);
    }
    return embedded(config.dataDir(), 0);
  }

  /**
   * Starts the embedded PostgreSQL on its data directory, on localhost.
   *
   * @param port its port, or 0 for a free one
   */
  public static PostgresServer embedded(Path dataDir, int port) throws IOException {
    PrivateFiles.directory(dataDir);
    DataDirectoryGuard guard = DataDirectoryGuard.claim(dataDir);
    // PostgreSQL's own log, beside its data as in any installation: its messages can quote rows, so they stay out of
    // the service's log, and only our user may read it.
    Path serverLog = dataDir.toAbsolutePath().resolveSibling(dataDir.getFileName() + ".log");
    EmbeddedLogin login;
    EmbeddedPostgres pg = null;
    PostgresServer server;
    try {
      PrivateFiles.file(serverLog);
      login = new EmbeddedLogin(PrivateFiles.directory(dataDir.toAbsolutePath().resolveSibling(
          dataDir.getFileName() + ".binaries")), serverLog, STARTUP_WAIT);
      login.dropHalfUnpacked();
      ProcessBuilder.Redirect toServerLog = ProcessBuilder.Redirect.appendTo(serverLog.toFile());
      EmbeddedPostgres.Builder builder = EmbeddedPostgres.builder();
      if (port > 0) {
        builder.setPort(port);
      }
      pg = guard.start(login.configure(builder)
          .setDataDirectory(dataDir)
          .setCleanDataDirectory(false)
          .setOutputRedirector(toServerLog)
          .setErrorRedirector(toServerLog)
          // Our own shutdown hook stops it after the last request has committed; the library's would stop it at once.
          .setRegisterShutdownHook(false)
          // The library defaults both to off, for tests; an acknowledged event must survive a crash.
          .setServerConfig("fsync", "on")
          .setServerConfig("synchronous_commit", "on")
          // Write-heavy WAL settings (https://www.postgresql.org/docs/current/wal-configuration.html): keep 1 GB of
          // segments to recycle, since creating new ones during a burst stalls commits, and checkpoint less often,
          // each spread over most of the time to the next. After a checkpoint every page's first change writes the
          // whole page to the WAL; compressed (pglz, the one method these binaries have), those images cost less
          // of the I/O commits wait on (https://www.postgresql.org/docs/current/runtime-config-wal.html).
          .setServerConfig("min_wal_size", "1GB")
          .setServerConfig("max_wal_size", "8GB")
          .setServerConfig("checkpoint_timeout", "30min")
          .setServerConfig("checkpoint_completion_target", "0.9")
          .setServerConfig("wal_compression", "pglz")
          .setServerConfig("shared_buffers", sharedBuffersMb() + "MB")
          .setPGStartupWait(STARTUP_WAIT));
      guard.watch();
      server = new PostgresServer(new PgConnectOptions().setHost("localhost").setPort(pg.getPort())
          .setDatabase("postgres").setUser(EmbeddedLogin.USER).setPassword(login.password()), pg, guard);
      login.keepUrl(dataDir, server.url());
    } catch (IOException | RuntimeException e) {
      if (pg != null) {
        pg.close();
      }
      guard.close();
      throw new StartupException("the embedded PostgreSQL in " + dataDir.toAbsolutePath()
          + " did not start (" + e.getMessage() + "): its own log, " + serverLog + ", says why");
    }
    LOG.info("embedded PostgreSQL started on localhost:{} with data in {}", pg.getPort(),
        dataDir.toAbsolutePath());
    return server;
  }

  /**
   * The URL of the server, password included (the embedded one's is new at each start): for the operator, never for
   * a log.
   */
  public String url() {
    StringBuilder url = new StringBuilder("postgresql://")
        .append(URLEncoder.encode(connectOptions.getUser(), StandardCharsets.UTF_8));
    String password = connectOptions.getPassword();
    if (password != null && !password.isEmpty()) {
      url.append(':').append(URLEncoder.encode(password, StandardCharsets.UTF_8));
    }
    return url.append('@').append(connectOptions.getHost()).append(':').append(connectOptions.getPort())
        .append('/').append(URLEncoder.encode(connectOptions.getDatabase(), StandardCharsets.UTF_8)).toString();
  }

  /** A fresh copy: vertx-pg-client options are mutable. */
  public PgConnectOptions connectOptions() {
    return new PgConnectOptions(connectOptions);
  }

  /** JDBC access for Flyway and the start-up queries. */
  public DataSource dataSource() {
    return dataSource(connectOptions);
  }

  /** JDBC access to the same server and database as the given vertx-pg-client options. */
  public static DataSource dataSource(PgConnectOptions connectOptions) {
    PGSimpleDataSource ds = new PGSimpleDataSource();
    ds.setServerNames(new String[] {connectOptions.getHost()});
    ds.setPortNumbers(new int[] {connectOptions.getPort()});
    ds.setDatabaseName(connectOptions.getDatabase());
    ds.setUser(connectOptions.getUser());
    ds.setPassword(connectOptions.getPassword());
    ds.setApplicationName("event-router");
    SslMode ssl = connectOptions.getSslMode();
    if (ssl != null && ssl != SslMode.DISABLE) {
      ds.setSslMode(ssl.value);
    }
    return ds;
  }

  @Override
  public void close() throws IOException {
    if (embedded != null) {
      try {
        embedded.close();
        LOG.info("embedded PostgreSQL stopped");
      } finally {
        guard.close();
      }
    }
  }
}
