package dev.eventrouter.support;

import dev.eventrouter.db.PostgresServer;
import io.vertx.pgclient.PgConnectOptions;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import org.junit.jupiter.api.Assumptions;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.containers.PostgreSQLContainer;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The real PostgreSQL every storage test runs against, decided in one place: {@code TEST_DATABASE_URL} when set;
 * otherwise a Testcontainers PostgreSQL when a Docker engine is reachable; otherwise an embedded PostgreSQL (the
 * path CI takes, having no Docker). One server per test JVM; each test class gets a database of its own.
 */
public final class TestDatabase {

  /** A running PostgreSQL server. */
  public interface Server {
    /** A {@code postgresql://} URL for one database of this server. */
    String url(String database);

    void stop();
  }

  private static final AtomicInteger DATABASES = new AtomicInteger();
  private static Server shared;

  private TestDatabase() {}

  /** A URL to a new, empty database on the shared server. */
  public static synchronized String freshDatabaseUrl() {
    if (shared == null) {
      shared = startServer(true);
      Runtime.getRuntime().addShutdownHook(new Thread(shared::stop));
    }
    String name = "test_" + ProcessHandle.current().pid() + "_" + DATABASES.incrementAndGet();
    try (Connection c = PostgresServer.dataSource(PgConnectOptions.fromUri(shared.url("postgres"))).getConnection();
         Statement s = c.createStatement()) {
      s.execute("CREATE DATABASE " + name);
    } catch (SQLException e) {
      throw new IllegalStateException("cannot create test database " + name, e);
    }
    return shared.url(name);
  }

  /** A server of the test's own, which it may stop; not available with TEST_DATABASE_URL (we cannot stop that). */
  public static Server dedicatedServer() {
    Assumptions.assumeTrue(System.getenv("TEST_DATABASE_URL") == null,
        "a dedicated server cannot be started when TEST_DATABASE_URL names the database");
    return startServer(false);
  }

  private static Server startServer(boolean mayBeExternal) {
    String external = System.getenv("TEST_DATABASE_URL");
    if (mayBeExternal && external != null && !external.isBlank()) {
      return external(external);
    }
    if (DockerClientFactory.instance().isDockerAvailable()) {
      return container();
    }
    return embedded();
  }

  private static Server external(String url) {
    PgConnectOptions options = PgConnectOptions.fromUri(url);
    return new Server() {
      @Override
      public String url(String database) {
        return format(options.getUser(), options.getPassword(), options.getHost(), options.getPort(), database);
      }

      @Override
      public void stop() {}
    };
  }

  private static Server container() {
    PostgreSQLContainer<?> container = new PostgreSQLContainer<>("postgres:17-alpine");
    container.start();
    return new Server() {
      @Override
      public String url(String database) {
        return format(container.getUsername(), container.getPassword(), container.getHost(),
            container.getMappedPort(PostgreSQLContainer.POSTGRESQL_PORT), database);
      }

      @Override
      public void stop() {
        container.stop();
      }
    };
  }

  private static Server embedded() {
    try {
      EmbeddedPostgres pg = EmbeddedPostgres.builder().start();
      return new Server() {
        @Override
        public String url(String database) {
          return format("postgres", null, "localhost", pg.getPort(), database);
        }

        @Override
        public void stop() {
          try {
            pg.close();
          } catch (IOException e) {
            throw new UncheckedIOException(e);
          }
        }
      };
    } catch (IOException e) {
      throw new UncheckedIOException("cannot start embedded PostgreSQL", e);
    }
  }

  private static String format(String user, String password, String host, int port, String database) {
    String credentials = URLEncoder.encode(user, StandardCharsets.UTF_8)
        + (password == null || password.isEmpty() ? "" : ":" + URLEncoder.encode(password, StandardCharsets.UTF_8));
    return "postgresql://" + credentials + "@" + host + ":" + port + "/" + database;
  }
}
