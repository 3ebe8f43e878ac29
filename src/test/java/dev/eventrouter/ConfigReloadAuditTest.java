package dev.eventrouter;

import dev.eventrouter.config.ConfigLoader;
import dev.eventrouter.support.Await;
import dev.eventrouter.support.TestApp;
import dev.eventrouter.support.TestDatabase;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static dev.eventrouter.support.TestApp.KEY_A;
import static dev.eventrouter.support.TestApp.KEY_B;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A changed config file, applied while running, is in each workspace's audit log once, by the file's digest, with
 * "config file" for the key; the same file read again (as a cluster's other nodes read theirs) adds nothing.
 */
@ExtendWith(VertxExtension.class)
class ConfigReloadAuditTest {

  private TestApp app;
  private ConfigLoader loader;
  private ConfigLoader.Watched watched;

  @AfterEach
  void stop() {
    if (watched != null) {
      watched.retriever().close();
    }
    if (app != null) {
      app.close();
    }
  }

  /** The app on {@code config}, written to a file watched every 100 ms, its reloads audited; the file. */
  private Path watch(Vertx vertx, Path dir, JsonObject config) throws Exception {
    Path file = dir.resolve("config.json");
    Files.writeString(file, config.encode());
    loader = new ConfigLoader(Map.of());
    watched = loader.watch(vertx, file, 100).await();
    app = TestApp.start(vertx, watched.live());
    ConfigNotices.audit(vertx, watched);
    return file;
  }

  /** Waits for one entry in each workspace's log (A's and B's); A's. */
  private JsonObject firstEntry(String what) {
    Await.until(what + " in A's log", Await.WAIT, () -> entries(app, KEY_A).size() == 1);
    Await.until(what + " in B's log", Await.WAIT, () -> entries(app, KEY_B).size() == 1);
    return entries(app, KEY_A).getJsonObject(0);
  }

  private static JsonArray entries(TestApp app, String key) {
    return app.get("/api/v1/audit", key).bodyAsJsonObject().getJsonObject("data").getJsonArray("entries");
  }

  @Test
  @DisplayName("a config applied while running is in every workspace's audit log, once per file")
  void reloadAudited(Vertx vertx, @TempDir Path dir) throws Exception {
    JsonObject config = TestApp.config(TestDatabase.freshDatabaseUrl());
    Path file = watch(vertx, dir, config);
    assertThat(entries(app, KEY_A)).as("starting is no reload").isEmpty();

    config.getJsonArray("workspaces").getJsonObject(0).put("name", "renamed");
    Files.writeString(file, config.encode());
    JsonObject entry = firstEntry("the reload");
    assertThat(entry.getString("key_name")).isEqualTo("config file");
    assertThat(entry.getString("action")).isEqualTo("config.reload");
    assertThat(entry.getString("target")).matches("config sha256:[0-9a-f]{12}");
    assertThat(entry.getString("outcome")).isEqualTo("applied");

    // Other nodes applying the same file, even at the same moment, write nothing more: their entry is the same one.
    for (int node = 0; node < 3; node++) {
      ConfigNotices.audit(vertx, watched);
    }
    watched.live().replace(watched.live().current());
    config.getJsonArray("workspaces").getJsonObject(0).put("name", "renamed again");
    Files.writeString(file, config.encode());
    Await.until("the second reload", Await.WAIT, () -> entries(app, KEY_A).size() >= 2);
    JsonArray both = entries(app, KEY_A);
    assertThat(both).as("one entry per file, though four nodes applied the second").hasSize(2);
    assertThat(both.getJsonObject(0).getString("target")).isNotEqualTo(entry.getString("target"));
    assertThat(app.rows("SELECT count(*) FROM audit_log WHERE target = $1", entry.getString("target")).get(0)
        .getLong(0)).as("each workspace's entry of the first file, once").isEqualTo(3);
  }

  @Test
  @DisplayName("a changed config refused is in every workspace's audit log once, by the paths of its problems, never "
      + "their words; the running config stays")
  void refusalAudited(Vertx vertx, @TempDir Path dir) throws Exception {
    JsonObject config = TestApp.config(TestDatabase.freshDatabaseUrl());
    Path file = watch(vertx, dir, config);

    JsonObject refused = config.copy();
    refused.getJsonArray("workspaces").getJsonObject(0).put("keys", new JsonArray().add(new JsonObject()
        .put("name", "owner").put("key", "plain-secret-key-0123456789").put("role", "admin")));
    Files.writeString(file, refused.encode());
    JsonObject entry = firstEntry("the refusal");
    assertThat(entry.getString("action")).isEqualTo("config.reload");
    assertThat(entry.getString("target")).matches("config sha256:[0-9a-f]{12}");
    assertThat(entry.getString("outcome"))
        .isEqualTo("refused, the running config stays: workspaces[0].keys[0].key");
    assertThat(loader.rescan(watched).await()).as("read again, as another node would").isFalse();

    config.getJsonArray("workspaces").getJsonObject(0).put("name", "renamed");
    Files.writeString(file, config.encode());
    Await.until("the next file applied", Await.WAIT, () -> entries(app, KEY_A).size() >= 2);
    JsonArray both = entries(app, KEY_A);
    assertThat(both).as("the refusal once, though read twice").hasSize(2);
    assertThat(both.getJsonObject(0).getString("outcome")).isEqualTo("applied");
    assertThat(both.encode()).doesNotContain("plain-secret-key");
  }

  @Test
  @DisplayName("a refusal names the paths of its first five problems, each at most 100 characters, and counts the rest")
  void refusalWords() {
    List<String> problems = new ArrayList<>();
    for (int i = 0; i < 7; i++) {
      problems.add("workspaces[" + i + "].name: must be text, not \"secret " + i + "\"");
    }
    problems.set(1, "x".repeat(120) + ": unknown key");
    problems.set(2, "words without a path, \"secret\"");
    assertThat(ConfigNotices.refusal(problems)).isEqualTo("refused, the running config stays: workspaces[0].name, "
        + "x".repeat(100) + "..., a problem, workspaces[3].name, workspaces[4].name and 2 more");
    assertThat(ConfigNotices.refusal(problems.subList(0, 5))).endsWith("workspaces[4].name");
  }
}
