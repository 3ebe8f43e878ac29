package dev.eventrouter.config;

import dev.eventrouter.support.TestApp;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** Which workspaces the published demo key exposes, by the address the server listens on. */
class DemoKeyUnitTest {

  private static AppConfig withDemoKey(String host) {
    JsonObject config = TestApp.config("postgresql://unused/db");
    config.getJsonObject("http").put("host", host);
    config.getJsonArray("workspaces").getJsonObject(1).getJsonArray("api_keys")
        .add(ApiKeys.configValue(DemoKey.KEY));
    return new ConfigLoader(Map.of()).resolve(config);
  }

  @Test
  @DisplayName("a workspace accepting the demo key is exposed unless the server listens on loopback only")
  void exposedUnlessLoopback() {
    for (String host : new String[] {"0.0.0.0", "::", "10.0.0.5", "events.example.com"}) {
      assertThat(DemoKey.exposedIn(withDemoKey(host))).as(host).containsExactly("ws-2");
    }
    for (String host : new String[] {"127.0.0.1", "127.0.0.2", "::1", "localhost", "LOCALHOST"}) {
      assertThat(DemoKey.exposedIn(withDemoKey(host))).as(host).isEmpty();
    }
    JsonObject unnamed = TestApp.config("postgresql://unused/db");
    unnamed.getJsonObject("http").put("host", "0.0.0.0");
    unnamed.getJsonArray("workspaces").getJsonObject(0).remove("name");
    unnamed.getJsonArray("workspaces").getJsonObject(0).getJsonArray("api_keys").add(ApiKeys.configValue(DemoKey.KEY));
    assertThat(DemoKey.exposedIn(new ConfigLoader(Map.of()).resolve(unnamed))).as("named by id when unnamed")
        .containsExactly(TestApp.WS_A);
    JsonObject withoutDemoKey = TestApp.config("postgresql://unused/db");
    withoutDemoKey.getJsonObject("http").put("host", "0.0.0.0");
    assertThat(DemoKey.exposedIn(new ConfigLoader(Map.of()).resolve(withoutDemoKey))).isEmpty();
  }
}
