package dev.eventrouter;

import dev.eventrouter.common.Sha256;
import dev.eventrouter.common.StartupException;
import dev.eventrouter.config.ApiKeys;
import dev.eventrouter.db.PostgresServer;
import dev.eventrouter.support.TestDatabase;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.pgclient.PgConnectOptions;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HexFormat;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class MainTest {

  private final ByteArrayOutputStream out = new ByteArrayOutputStream();
  private final ByteArrayOutputStream err = new ByteArrayOutputStream();

  private static final String KEY = "k7Qm2xVb9LrT4wYc8NpZ3sHd";
  private static final String KEY_VALUE = "sha256:" + HexFormat.of().formatHex(Sha256.bytes(KEY));

  private int run(String... args) {
    return runWithInput("", args);
  }

  private int runWithInput(String stdin, String... args) {
    return Main.run(args, new ByteArrayInputStream(stdin.getBytes(StandardCharsets.UTF_8)),
        new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
  }

  @Test
  @DisplayName("postback-url prints the source's ready URL for the token on standard input, its macros in place; "
      + "a token no source has is exit 1")
  void postbackUrl(@TempDir Path dir) throws Exception {
    Path config = dir.resolve("config.json");
    Files.writeString(config, "{\"database\": {\"url\": \"postgresql://u:p@127.0.0.1:1/x\"}, \"workspaces\": [{"
        + "\"id\": \"7c9e6679-7425-40de-944b-e07fc1f90ae7\", \"api_keys\": [\"" + KEY_VALUE.replace('0', '1')
        + "\"], \"postback_sources\": [{\"id\": \"casino\", \"token\": \"" + KEY_VALUE + "\","
        + " \"macros\": {\"click_id\": \"{subid}\", \"value\": \"{payout}\"}, \"default_event\": \"FTD\"}]}]}");
    assertThat(runWithInput(KEY + "\n", "postback-url", "--base", "https://tracker.example/", "--config",
        config.toString())).as(err.toString()).isZero();
    assertThat(out.toString(StandardCharsets.UTF_8).strip()).isEqualTo("https://tracker.example/api/v1/postbacks/"
        + KEY + "?subid={subid}&payout={payout}&status={status}&tid={tid}");
    assertThat(runWithInput("another-token-0000000000000\n", "postback-url", "--base", "https://t.example",
        "--config", config.toString())).isEqualTo(1);
    assertThat(run("postback-url")).isEqualTo(2);
  }

  @Test
  @DisplayName("hash-key reads the key from standard input (one line, blanks around it dropped) and prints the "
      + "sha256: value to paste into api_keys")
  void hashKey() {
    assertThat(runWithInput("  " + KEY + "\r\nnext line\n", "hash-key")).isZero();
    assertThat(out.toString(StandardCharsets.UTF_8)).isEqualTo(KEY_VALUE + System.lineSeparator());
    assertThat(err.toString(StandardCharsets.UTF_8)).isEmpty();
  }

  @Test
  @DisplayName("hash-key still takes a key on the command line, warning that other users can see it there")
  void hashKeyArgument() {
    assertThat(run("hash-key", KEY)).isZero();
    assertThat(out.toString(StandardCharsets.UTF_8).trim()).isEqualTo(KEY_VALUE);
    assertThat(err.toString(StandardCharsets.UTF_8)).contains("visible to other local users").contains("standard input")
        .doesNotContain(KEY);
  }

  @Test
  @DisplayName("hash-key refuses a key under 24 characters, from standard input or the command line, with exit 2")
  void hashKeyTooShort() {
    assertThat(runWithInput("a\n", "hash-key")).isEqualTo(2);
    assertThat(runWithInput(KEY.substring(1) + "\n", "hash-key")).isEqualTo(2);
    assertThat(run("hash-key", KEY.substring(1))).isEqualTo(2);
    assertThat(out.toString(StandardCharsets.UTF_8)).isEmpty();
    assertThat(err.toString(StandardCharsets.UTF_8)).contains("at least 24 characters").contains("generate-key");
  }

  @Test
  @DisplayName("hash-key with nothing on standard input, or with extra arguments, prints usage and exits 2")
  void hashKeyUsage() {
    assertThat(run("hash-key")).isEqualTo(2);
    assertThat(runWithInput("   \n", "hash-key")).isEqualTo(2);
    assertThat(runWithInput(KEY, "hash-key", KEY, KEY)).isEqualTo(2);
    assertThat(out.toString(StandardCharsets.UTF_8)).isEmpty();
    assertThat(err.toString(StandardCharsets.UTF_8)).contains("usage").contains("standard input");
  }

  @Test
  @DisplayName("generate-key prints a new random key, the value hash-key gives for it, and a keys entry with a name")
  void generateKey() {
    assertThat(run("generate-key")).isZero();
    assertThat(run("generate-key", "buyer")).isZero();
    List<String> lines = out.toString(StandardCharsets.UTF_8).lines().toList();
    assertThat(lines).hasSize(6);
    assertThat(lines.get(0)).hasSize(43).matches("[A-Za-z0-9_-]+").isNotEqualTo(lines.get(3));
    assertThat(lines.get(1)).isEqualTo(ApiKeys.configValue(lines.get(0)));
    String today = java.time.LocalDate.now(java.time.ZoneOffset.UTC).toString();
    assertThat(new JsonObject(lines.get(2))).isEqualTo(new JsonObject().put("name", "admin-" + today)
        .put("key", lines.get(1)).put("role", "admin"));
    assertThat(lines.get(4)).isEqualTo(ApiKeys.configValue(lines.get(3)));
    JsonObject buyer = new JsonObject(lines.get(5));
    assertThat(buyer.getString("name")).isEqualTo("buyer-" + today);
    assertThat(buyer.getString("role")).isEqualTo("buyer");
    assertThat(buyer.getJsonObject("scope").getJsonArray("campaign_ids")).hasSize(1);
    assertThat(run("generate-key", "extra")).isEqualTo(2);
    assertThat(run("generate-key", "admin", "extra")).isEqualTo(2);
  }

  @Test
  @DisplayName("the postgres command prints a DATABASE_URL whose password logs in; without it the server refuses")
  void postgresPrintsWorkingUrl(@TempDir Path dir) throws Exception {
    int port;
    try (ServerSocket free = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
      port = free.getLocalPort();
    }
    try (PostgresServer server = Main.startPostgres(dir.resolve("pg"), port,
        new PrintStream(out, true, StandardCharsets.UTF_8))) {
      String printed = out.toString(StandardCharsets.UTF_8).trim();
      assertThat(printed).startsWith("PostgreSQL serving " + dir.resolve("pg") + " on localhost:" + port
          + "; give the nodes DATABASE_URL=postgresql://postgres:");
      PgConnectOptions url = PgConnectOptions.fromUri(printed.substring(printed.indexOf("DATABASE_URL=") + 13));
      assertThat(url.getPassword()).isNotBlank();
      assertThat(url.getPort()).isEqualTo(port);
      try (Connection c = PostgresServer.dataSource(url).getConnection(); Statement s = c.createStatement();
           ResultSet rs = s.executeQuery("SELECT current_user")) {
        assertThat(rs.next()).isTrue();
        assertThat(rs.getString(1)).isEqualTo("postgres");
      }
      assertThatThrownBy(() -> PostgresServer.dataSource(url.setPassword("")).getConnection().close())
          .isInstanceOf(SQLException.class);
    }
  }

  @Test
  @DisplayName("an invalid config stops the start with exit code 1: a heading, then one line per bad path, as the "
      + "README says")
  void invalidConfigStopsStart(@TempDir Path dir) throws Exception {
    Path config = dir.resolve("config.json");
    Files.writeString(config, "{\"workspaces\": [{\"id\": \"nope\", \"api_keys\": [\"sha256:00\"]}]}");

    assertThat(run("--config", config.toString())).isEqualTo(1);
    List<String> lines = err.toString(StandardCharsets.UTF_8).lines().toList();
    assertThat(lines).hasSize(3);
    assertThat(lines.get(0)).isEqualTo("invalid configuration:");
    assertThat(lines.get(1)).startsWith("  - workspaces[0].id: ");
    assertThat(lines.get(2)).startsWith("  - workspaces[0].api_keys[0]: ");
  }

  @Test
  @DisplayName("a missing config file stops the start with exit code 1")
  void missingConfig(@TempDir Path dir) {
    assertThat(run("--config", dir.resolve("absent.json").toString())).isEqualTo(1);
    assertThat(err.toString(StandardCharsets.UTF_8)).contains("config file not found");
  }

  @Test
  @DisplayName("a port already in use stops the start at once with exit code 1 and one line saying what to do")
  void portInUse(@TempDir Path dir) throws Exception {
    try (ServerSocket taken = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
      Path config = dir.resolve("config.json");
      Files.writeString(config, new JsonObject()
          .put("http", new JsonObject().put("host", "127.0.0.1").put("port", taken.getLocalPort()))
          .put("management", new JsonObject().put("port", 0))
          .put("database", new JsonObject().put("url", TestDatabase.freshDatabaseUrl()))
          .put("workspaces", new JsonArray()).encode());

      assertThat(run("--config", config.toString())).isEqualTo(1);
      String printed = err.toString(StandardCharsets.UTF_8).trim();
      assertThat(printed).startsWith("event-router cannot start: cannot listen on")
          .contains("set another http.port").doesNotContain("\n").doesNotContain("\tat ");
    }
  }

  @Test
  @DisplayName("any start-up failure is one line: ours as written, others by type and first line, PostgreSQL's by SQLSTATE")
  void explainFailures() {
    assertThat(StartupException.explain(new java.io.IOException("wrapped", new StartupException("disk full here"))))
        .isEqualTo("event-router cannot start: disk full here");
    assertThat(StartupException.explain(new IllegalStateException("first\nsecond")))
        .isEqualTo("event-router cannot start: IllegalStateException: first (the log above has the details)");
    assertThat(StartupException.explain(new io.vertx.pgclient.PgException("password=secret", "FATAL", "28P01", null)))
        .doesNotContain("secret").contains("28P01");
  }
}
