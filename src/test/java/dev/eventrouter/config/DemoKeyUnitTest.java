package dev.eventrouter.config;

import dev.eventrouter.support.TestApp;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** Which workspaces the published demo key exposes, by the address the server listens on and the proxies it trusts. */
class DemoKeyUnitTest {

  private static AppConfig withDemoKey(String host, String... trustedProxies) {
    JsonObject config = TestApp.config("postgresql://unused/db");
    config.getJsonObject("http").put("host", host);
    if (trustedProxies.length > 0) {
      config.getJsonObject("http").put("trusted_proxies", new JsonArray(java.util.List.of(trustedProxies)));
    }
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
    AppConfig proxied = withDemoKey("127.0.0.1", "127.0.0.1", "10.0.0.0/8");
    assertThat(DemoKey.exposedIn(proxied)).as("loopback behind a trusted proxy is reached from outside")
        .containsExactly("ws-2");
    assertThat(DemoKey.reach(proxied))
        .isEqualTo("the server is reached through the proxies [127.0.0.1, 10.0.0.0/8] (http.trusted_proxies)");
    assertThat(DemoKey.reach(withDemoKey("0.0.0.0"))).isEqualTo("the server listens on 0.0.0.0");
    assertThat(DemoKey.reach(withDemoKey("::1"))).isNull();
    JsonObject withoutDemoKey = TestApp.config("postgresql://unused/db");
    withoutDemoKey.getJsonObject("http").put("host", "0.0.0.0");
    assertThat(DemoKey.exposedIn(new ConfigLoader(Map.of()).resolve(withoutDemoKey))).isEmpty();
  }

  private static AppConfig withPublishableKey(String host, String key) {
    JsonObject config = TestApp.config("postgresql://unused/db");
    config.getJsonObject("http").put("host", host);
    config.getJsonArray("workspaces").getJsonObject(0).put("publishable_keys", new JsonArray()
        .add(new JsonObject().put("key", ApiKeys.configValue("another-publishable-key"))
            .put("allowed_origins", new JsonArray().add("https://shop.example"))));
    config.getJsonArray("workspaces").getJsonObject(1).put("publishable_keys", new JsonArray()
        .add(new JsonObject().put("key", ApiKeys.configValue("one-more-publishable-key"))
            .put("allowed_origins", new JsonArray().add("https://shop.example")))
        .add(new JsonObject().put("key", ApiKeys.configValue(key))
            .put("allowed_origins", new JsonArray().add("https://shop.example"))));
    return new ConfigLoader(Map.of()).resolve(config);
  }

  @Test
  @DisplayName("a workspace accepting the demo publishable key is exposed unless the server listens on loopback only")
  void publishableExposedUnlessLoopback() {
    for (String host : new String[] {"0.0.0.0", "::", "10.0.0.5", "events.example.com"}) {
      assertThat(DemoKey.publishableExposedIn(withPublishableKey(host, DemoKey.PUBLISHABLE_KEY))).as(host)
          .containsExactly("ws-2");
      assertThat(DemoKey.publishableExposedIn(withPublishableKey(host, "a-key-of-its-own"))).as(host).isEmpty();
      assertThat(DemoKey.exposedIn(withPublishableKey(host, DemoKey.PUBLISHABLE_KEY))).as("not the demo API key")
          .isEmpty();
    }
    for (String host : new String[] {"127.0.0.1", "::1", "localhost"}) {
      assertThat(DemoKey.publishableExposedIn(withPublishableKey(host, DemoKey.PUBLISHABLE_KEY))).as(host).isEmpty();
    }
    assertThat(DemoKey.publishableExposedIn(withDemoKey("0.0.0.0"))).as("the demo API key is not the publishable one")
        .isEmpty();
  }

  @Test
  @DisplayName("a workspace whose postback source takes the demo token is exposed unless the server listens on "
      + "loopback only")
  void postbackTokenExposedUnlessLoopback() {
    for (String host : new String[] {"0.0.0.0", "127.0.0.1"}) {
      JsonObject config = TestApp.config("postgresql://unused/db");
      config.getJsonObject("http").put("host", host);
      config.getJsonArray("workspaces").getJsonObject(0).put("postback_sources", new JsonArray()
          .add(new JsonObject().put("id", "mine").put("token", ApiKeys.configValue("another-token-of-its-own-01"))));
      config.getJsonArray("workspaces").getJsonObject(1).put("postback_sources", new JsonArray()
          .add(new JsonObject().put("id", "own").put("token", ApiKeys.configValue("a-token-of-its-own-0123456")))
          .add(new JsonObject().put("id", "demo").put("token", ApiKeys.configValue(DemoKey.POSTBACK_TOKEN))));
      AppConfig resolved = new ConfigLoader(Map.of()).resolve(config);
      assertThat(DemoKey.postbackExposedIn(resolved)).as(host)
          .isEqualTo(host.equals("0.0.0.0") ? java.util.List.of("ws-2") : java.util.List.of());
    }
  }
}
