package dev.eventrouter.config;

import dev.eventrouter.support.Await;
import dev.eventrouter.support.LogCapture;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The config file watched while running, without a service: what a change applies, warns about or ignores. */
@ExtendWith(VertxExtension.class)
class ConfigWatchUnitTest {

  private static final String HASH = "sha256:" + "a".repeat(64);

  private static JsonObject config(String name) {
    return new JsonObject()
        .put("http", new JsonObject().put("port", 9000))
        .put("delivery", new JsonObject().put("batch_size", 10))
        .put("workspaces", new JsonArray().add(new JsonObject().put("id", "7c9e6679-7425-40de-944b-e07fc1f90ae7")
            .put("name", name).put("api_keys", new JsonArray().add(HASH))));
  }

  @Test
  @DisplayName("a rescan reads the file at once: a change applies, the same file or a bad one does not")
  void rescan(Vertx vertx, @TempDir Path dir) throws Exception {
    Path file = dir.resolve("config.json");
    Files.writeString(file, config("first").encode());
    ConfigLoader loader = new ConfigLoader(Map.of());
    ConfigLoader.Watched watched = loader.watch(vertx, file, 3_600_000).await();
    List<AppConfig> seen = new CopyOnWriteArrayList<>();
    watched.live().onChange(seen::add);
    LogCapture logs = LogCapture.start();
    try {
      assertThat(loader.rescan(watched).await()).as("unchanged since start").isFalse();
      write(file, config("second").encode());
      assertThat(loader.rescan(watched).await()).isTrue();
      assertThat(watched.live().current().workspaces().get(0).name()).isEqualTo("second");
      assertThat(loader.rescan(watched).await()).as("applied already").isFalse();
      write(file, "{\"workspaces\": 5}");
      assertThat(loader.rescan(watched).await()).isFalse();
      assertThat(logs.text()).contains("config change ignored").contains("workspaces: must be an array");
      assertThat(watched.live().current().workspaces().get(0).name()).isEqualTo("second");
      assertThat(seen).hasSize(1);
    } finally {
      logs.stop();
      watched.retriever().close();
    }
  }

  @Test
  @DisplayName("a valid change applies its workspaces and delivery settings; http changes wait for a restart")
  void reload(Vertx vertx, @TempDir Path dir) throws Exception {
    Path file = dir.resolve("config.json");
    Files.writeString(file, config("first").encode());
    ConfigLoader.Watched watched = Await.result(new ConfigLoader(Map.of()).watch(vertx, file, 50));
    List<AppConfig> seen = new CopyOnWriteArrayList<>();
    watched.live().onChange(seen::add);
    LogCapture logs = LogCapture.start();
    try {
      assertThat(watched.live().current().workspaces().get(0).name()).isEqualTo("first");

      JsonObject next = config("second");
      next.getJsonObject("http").put("port", 9001);
      next.getJsonObject("delivery").put("batch_size", 20);
      write(file, next.encode());
      // Applied, then logged: wait for both, or the log may be read between the two.
      Await.until("the change to apply", Await.WAIT,
          () -> watched.live().current().workspaces().get(0).name().equals("second")
              && logs.text().contains("config reloaded"));

      AppConfig current = watched.live().current();
      assertThat(current.workspaces().get(0).name()).isEqualTo("second");
      assertThat(current.delivery().batchSize()).isEqualTo(20);
      assertThat(current.http().port()).as("http settings need a restart").isEqualTo(9000);
      assertThat(seen).last().isSameAs(current);
      assertThat(logs.text()).contains("change only on restart").contains("config reloaded: 1 workspaces");

      write(file, "{\"workspaces\": 5}");
      Await.until("the bad change to be logged", Await.WAIT, () -> logs.text().contains("config change ignored"));
      assertThat(logs.text()).contains("workspaces: must be an array");
      assertThat(watched.live().current()).isSameAs(current);
    } finally {
      logs.stop();
      watched.retriever().close();
    }
  }

  @Test
  @DisplayName("a file that is no JSON object, or absent, stops the load with its path")
  void loadErrors(Vertx vertx, @TempDir Path dir) throws Exception {
    Path broken = dir.resolve("broken.json");
    Files.writeString(broken, "{ not json");
    assertThatThrownBy(() -> Await.result(new ConfigLoader(Map.of()).load(vertx, broken)))
        .isInstanceOf(ConfigException.class).hasMessageContaining("broken.json: not a valid JSON object");
    assertThatThrownBy(() -> Await.result(new ConfigLoader(Map.of()).load(vertx, dir.resolve("none.json"))))
        .isInstanceOf(ConfigException.class).hasMessageContaining("config file not found");
    Path valid = dir.resolve("valid.json");
    Files.writeString(valid, config("w").encode());
    assertThat(Await.result(new ConfigLoader(Map.of()).load(vertx, valid)).http().port()).isEqualTo(9000);
  }

  /** Writes the whole file at once (a rename), so a scan never reads it half written. */
  private static void write(Path file, String content) throws java.io.IOException {
    Path temp = Files.writeString(file.resolveSibling(file.getFileName() + ".tmp"), content);
    Files.move(temp, file, java.nio.file.StandardCopyOption.REPLACE_EXISTING,
        java.nio.file.StandardCopyOption.ATOMIC_MOVE);
  }
}
