package dev.eventrouter;

import dev.eventrouter.config.ConfigLoader;
import dev.eventrouter.support.Await;
import dev.eventrouter.support.ClusterNodes;
import dev.eventrouter.support.TestApp;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** Two clustered Vert.x nodes in one JVM, each watching its own config file. */
class ConfigNoticesTest {

  private final ClusterNodes nodes = new ClusterNodes();
  private final List<ConfigLoader.Watched> watched = new ArrayList<>();

  @AfterEach
  void stop() {
    watched.forEach(w -> w.retriever().close());
    nodes.close();
  }

  private Vertx node(int port, int other) {
    return nodes.start(port, other);
  }

  private static JsonObject config(String workspaceName) {
    JsonObject config = TestApp.config("postgresql://db/events");
    config.getJsonArray("workspaces").getJsonObject(0).put("name", workspaceName);
    return config;
  }

  @Test
  @DisplayName("a node that reloads its config tells the others, which read their own file at once, not at their "
      + "next scan; an unchanged file is not applied again")
  void reloadTold(@TempDir Path dir) throws Exception {
    Vertx a = node(15821, 15822);
    Vertx b = node(15822, 15821);
    Path fileA = dir.resolve("a.json");
    Path fileB = dir.resolve("b.json");
    Files.writeString(fileA, config("v1").encode());
    Files.writeString(fileB, config("v1").encode());
    ConfigLoader loader = new ConfigLoader(Map.of());
    ConfigLoader.Watched watchedA = loader.watch(a, fileA, 100).await();
    // B scans once an hour: only a notice can make it read its file within the test.
    ConfigLoader.Watched watchedB = loader.watch(b, fileB, 3_600_000).await();
    watched.addAll(List.of(watchedA, watchedB));
    ConfigNotices.wire(a, loader, watchedA).await();
    ConfigNotices.wire(b, loader, watchedB).await();
    List<String> reloadsOfB = new java.util.concurrent.CopyOnWriteArrayList<>();
    watchedB.live().onChange(next -> reloadsOfB.add(next.workspaces().get(0).name()));

    Files.writeString(fileB, config("v2").encode());
    Files.writeString(fileA, config("v2").encode());

    Await.until("B to apply its changed file", Await.WAIT,
        () -> watchedB.live().current().workspaces().get(0).name().equals("v2"));
    assertThat(watchedA.live().current().workspaces().get(0).name()).isEqualTo("v2");
    assertThat(loader.rescan(watchedB).await()).as("the same file again: nothing to apply").isFalse();
    assertThat(reloadsOfB).containsExactly("v2");
  }
}
