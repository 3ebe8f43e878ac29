package dev.eventrouter.forward;

import dev.eventrouter.support.FakeAdNetworks;
import dev.eventrouter.support.TestApp;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

/** The test service's config with forwarding: WS_A sends to both fake networks, WS_B has no integration. */
public final class ForwardingTestConfig {

  public static final int BREAKER_FAILURES = 3;

  private ForwardingTestConfig() {}

  /** Fast retries and a short breaker reset, so outages play out in seconds. */
  public static JsonObject config(String databaseUrl, String fakeBase, JsonObject... metaOverrides) {
    JsonObject config = TestApp.config(databaseUrl);
    config.put("delivery", new JsonObject().put("batch_size", 100).put("linger_ms", 20)
        .put("request_timeout_ms", 1000).put("initial_backoff_ms", 50).put("max_backoff_ms", 100)
        .put("scan_interval_ms", 100)
        .put("breaker", new JsonObject().put("failure_threshold", BREAKER_FAILURES).put("reset_timeout_ms", 2000)));
    JsonObject meta = FakeAdNetworks.metaIntegration(fakeBase);
    for (JsonObject override : metaOverrides) {
      meta.mergeIn(override);
    }
    JsonObject tiktok = FakeAdNetworks.tiktokIntegration(fakeBase);
    config.getJsonArray("workspaces").getJsonObject(0).put("integrations", new JsonArray().add(meta).add(tiktok));
    return config;
  }
}
