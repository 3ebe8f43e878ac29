package dev.eventrouter;

import dev.eventrouter.config.ApiKeys;
import dev.eventrouter.config.DemoKey;
import dev.eventrouter.support.LogCapture;
import dev.eventrouter.support.TestApp;
import dev.eventrouter.support.TestDatabase;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import static org.assertj.core.api.Assertions.assertThat;

/** The published demo key must not quietly guard a server that other machines can reach. */
@ExtendWith(VertxExtension.class)
class DemoKeyTest {

  static JsonObject configWithDemoKey(String host) {
    JsonObject config = TestApp.config("postgresql://unused/db");
    config.getJsonObject("http").put("host", host);
    config.getJsonArray("workspaces").getJsonObject(1).getJsonArray("api_keys")
        .add(ApiKeys.configValue(DemoKey.KEY));
    config.getJsonArray("workspaces").getJsonObject(0).put("publishable_keys", new JsonArray().add(new JsonObject()
        .put("key", ApiKeys.configValue(DemoKey.PUBLISHABLE_KEY))
        .put("allowed_origins", new JsonArray().add("http://localhost:8080"))));
    return config;
  }

  @Test
  @DisplayName("the start warns loudly, naming the workspace and never the key itself")
  void warnsAtStart(Vertx vertx) {
    JsonObject config = configWithDemoKey("0.0.0.0");
    config.getJsonObject("database").put("url", TestDatabase.freshDatabaseUrl());
    LogCapture logs = LogCapture.start();
    TestApp app = TestApp.start(vertx, config);
    try {
      assertThat(logs.text()).contains("SECURITY: workspaces [ws-2] accept the published demo API key, and the "
          + "server listens on 0.0.0.0").doesNotContain(DemoKey.KEY)
          .contains("SECURITY: workspaces [ws-1] accept the published demo publishable key, and the server listens "
              + "on 0.0.0.0").doesNotContain(DemoKey.PUBLISHABLE_KEY);
    } finally {
      logs.stop();
      app.close();
    }
  }
}
