package dev.eventrouter.db;

import dev.eventrouter.support.LogCapture;
import io.vertx.pgclient.PgConnectOptions;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The embedded PostgreSQL, seen from outside as another local user would see it: only the password drawn at its
 * start logs in, over the loopback, and nothing of it (socket, log, binaries, data) is open to anyone else.
 */
class EmbeddedLoginTest {

  @TempDir
  Path dir;

  @Test
  @DisplayName("a data directory of an earlier version, which trusted every local user, is taken over: only the "
      + "password of this start logs in, over TCP; no socket, no trust rule; files 0600, directories 0700")
  void earlierDirectoryTakenOver() throws Exception {
    Path dataDir = dir.resolve("postgres");
    Path serverLog = dir.resolve("postgres.log");
    // What an earlier version left: the library's own initdb (-A trust), and a log readable by everyone.
    try (EmbeddedPostgres earlier = EmbeddedPostgres.builder().setDataDirectory(dataDir)
        .setCleanDataDirectory(false).start()) {
      assertThat(query(earlier.getPostgresDatabase(), "SELECT current_user")).as("trusted before")
          .isEqualTo("postgres");
    }
    Files.writeString(serverLog, "an earlier version's log\n");
    Files.setPosixFilePermissions(serverLog, PosixFilePermissions.fromString("rw-r--r--"));

    LogCapture logs = LogCapture.start();
    String firstPassword;
    try (PostgresServer server = PostgresServer.embedded(dataDir, 0)) {
      PgConnectOptions options = server.connectOptions();
      firstPassword = options.getPassword();
      assertThat(firstPassword).hasSizeGreaterThanOrEqualTo(40);
      assertThat(query(server.dataSource(), "SELECT current_user")).isEqualTo("postgres");
      assertThat(query(server.dataSource(), "SELECT string_agg(DISTINCT auth_method, ',') FROM pg_hba_file_rules"))
          .isEqualTo("scram-sha-256");
      assertThat(query(server.dataSource(), "SELECT current_setting('unix_socket_directories')")).isEmpty();
      assertThat(query(server.dataSource(), "SELECT current_setting('listen_addresses')")).isEqualTo("localhost");

      assertRefused(options.setPassword(""), "password");
      assertRefused(server.connectOptions().setHost("127.0.0.1").setPassword(""), "password");
      assertRefused(server.connectOptions().setPassword(firstPassword + "x"), "28P01");

      assertThat(Path.of("/tmp/.s.PGSQL." + options.getPort())).doesNotExist();
      try (Stream<Path> files = Files.list(dataDir)) {
        assertThat(files.map(f -> f.getFileName().toString())).noneMatch(f -> f.startsWith(".s.PGSQL"));
      }
      assertThat(mode(dataDir)).isEqualTo("rwx------");
      assertThat(mode(dir.resolve("postgres.binaries"))).isEqualTo("rwx------");
      assertThat(mode(serverLog)).isEqualTo("rw-------");
      Path urlFile = dataDir.resolve(EmbeddedLogin.URL_FILE);
      assertThat(mode(urlFile)).isEqualTo("rw-------");
      assertThat(query(PostgresServer.dataSource(PgConnectOptions.fromUri(Files.readString(urlFile).trim())),
          "SELECT current_user")).isEqualTo("postgres");
    } finally {
      logs.stop();
    }
    assertThat(logs.text()).contains("embedded PostgreSQL started").doesNotContain(firstPassword);
    assertThat(Files.readString(serverLog)).doesNotContain(firstPassword);

    try (PostgresServer again = PostgresServer.embedded(dataDir, 0)) {
      assertThat(again.connectOptions().getPassword()).as("a new one at each start").isNotEqualTo(firstPassword);
      assertThat(query(again.dataSource(), "SELECT current_user")).isEqualTo("postgres");
      assertRefused(again.connectOptions().setPassword(firstPassword), "28P01");
    }
  }

  @Test
  @DisplayName("a new data directory never trusts anyone either, and its log is 0600 from the start")
  void newDirectory() throws Exception {
    Path dataDir = dir.resolve("fresh");
    try (PostgresServer server = PostgresServer.embedded(dataDir, 0)) {
      assertThat(query(server.dataSource(), "SELECT string_agg(DISTINCT auth_method, ',') FROM pg_hba_file_rules"))
          .isEqualTo("scram-sha-256");
      assertRefused(server.connectOptions().setPassword(""), "password");
      assertThat(mode(dir.resolve("fresh.log"))).isEqualTo("rw-------");
      assertThat(mode(dataDir)).isEqualTo("rwx------");
    }
  }

  private static void assertRefused(PgConnectOptions options, String why) {
    assertThatThrownBy(() -> query(PostgresServer.dataSource(options), "SELECT 1"))
        .isInstanceOf(SQLException.class)
        .satisfies(e -> assertThat(e.getMessage() + " " + ((SQLException) e).getSQLState()).contains(why));
  }

  private static String query(javax.sql.DataSource dataSource, String sql) throws SQLException {
    try (Connection c = dataSource.getConnection(); Statement s = c.createStatement();
         ResultSet rs = s.executeQuery(sql)) {
      rs.next();
      return rs.getString(1);
    }
  }

  private static String mode(Path path) throws IOException {
    return PosixFilePermissions.toString(Files.getPosixFilePermissions(path));
  }
}
