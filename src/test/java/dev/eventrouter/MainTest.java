package dev.eventrouter;

import dev.eventrouter.common.StartupException;
import dev.eventrouter.support.TestDatabase;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

class MainTest {

  private final ByteArrayOutputStream out = new ByteArrayOutputStream();
  private final ByteArrayOutputStream err = new ByteArrayOutputStream();

  private int run(String... args) {
    return Main.run(args, new PrintStream(out, true, StandardCharsets.UTF_8),
        new PrintStream(err, true, StandardCharsets.UTF_8));
  }

  @Test
  @DisplayName("hash-key prints the sha256: value to paste into api_keys")
  void hashKey() {
    assertThat(run("hash-key", "abc")).isZero();
    assertThat(out.toString(StandardCharsets.UTF_8).trim())
        .isEqualTo("sha256:ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  }

  @Test
  @DisplayName("hash-key without a key prints usage and exits 2")
  void hashKeyUsage() {
    assertThat(run("hash-key")).isEqualTo(2);
    assertThat(err.toString(StandardCharsets.UTF_8)).contains("usage");
  }

  @Test
  @DisplayName("an invalid config stops the start with exit code 1 and the path of the bad value")
  void invalidConfigStopsStart(@TempDir Path dir) throws Exception {
    Path config = dir.resolve("config.json");
    Files.writeString(config, "{\"workspaces\": [{\"id\": \"nope\", \"api_keys\": [\"sha256:00\"]}]}");

    assertThat(run("--config", config.toString())).isEqualTo(1);
    assertThat(err.toString(StandardCharsets.UTF_8))
        .contains("workspaces[0].id").contains("workspaces[0].api_keys[0]");
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
