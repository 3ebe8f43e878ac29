package dev.eventrouter.http;

import dev.eventrouter.bus.Addresses;
import dev.eventrouter.config.AccessKey;
import dev.eventrouter.config.KeyRole;
import dev.eventrouter.config.WorkspaceConfig;
import dev.eventrouter.support.Await;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.WebClient;
import io.vertx.junit5.VertxExtension;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;

/** A buyer's campaigns as a read carries them: its scope's, and its accounts' read once a minute per key. */
@ExtendWith(VertxExtension.class)
class BuyerScopeUnitTest {

  /** The keys whose reads are kept: a few, for the bound to be reached in a few requests. */
  private static final int MAX_KEYS = 3;
  private final WorkspaceConfig workspace = Grants.workspace();
  private final Map<String, Grant> grants = new ConcurrentHashMap<>();
  private final AtomicLong now = new AtomicLong();
  private final AtomicInteger asks = new AtomicInteger();
  private WebClient client;
  private int port;

  @BeforeEach
  void start(Vertx vertx) {
    Await.result(vertx.eventBus().<JsonObject>consumer(Addresses.SCOPE_CAMPAIGNS, m -> {
      asks.incrementAndGet();
      m.reply(new JsonObject().put("campaign_ids", new JsonArray().add("777")));
    }).completion());
    grants.put("viewer", Grants.of(workspace, "viewer", KeyRole.VIEWER, null));
    grants.put("anna", Grants.of(workspace, "anna", KeyRole.BUYER, new AccessKey.Scope(List.of("111"), List.of())));
    BuyerScope scope = new BuyerScope(new StoreClient(vertx, 2_000), now::get, MAX_KEYS);
    port = Grants.serve(vertx, rc -> grants.get(String.valueOf(rc.request().getHeader("key"))), List.of(
        scope.resolve(), rc -> rc.json(new JsonObject().put("campaigns", BuyerScope.campaigns(rc)))));
    client = WebClient.create(vertx);
  }

  @AfterEach
  void stop() {
    client.close();
  }

  private Grant accountBuyer(String name) {
    Grant grant = Grants.of(workspace, name, KeyRole.BUYER, new AccessKey.Scope(List.of("111"), List.of("act_7")));
    grants.put(name, grant);
    return grant;
  }

  private Object campaigns(String key) {
    var request = client.get(port, "127.0.0.1", "/read");
    if (key != null) {
      request.putHeader("key", key);
    }
    var answer = Await.result(request.send());
    assertThat(answer.statusCode()).as(answer.bodyAsString()).isEqualTo(200);
    return answer.bodyAsJsonObject().getValue("campaigns");
  }

  @Test
  @DisplayName("a buyer's scope names its campaigns without a read; a viewer and a request without a key read "
      + "unscoped")
  void scopeAlone() {
    assertThat(campaigns("anna")).isEqualTo(new JsonArray().add("111"));
    assertThat(campaigns("viewer")).isNull();
    assertThat(campaigns(null)).isNull();
    assertThat(asks).hasValue(0);
  }

  @Test
  @DisplayName("an account buyer's campaigns are read again once a minute has passed, not before")
  void readOncePerMinute() {
    accountBuyer("boris");
    assertThat(campaigns("boris")).isEqualTo(new JsonArray().add("111").add("777"));
    now.set(BuyerScope.REUSE_MS - 1);
    assertThat(campaigns("boris")).isEqualTo(new JsonArray().add("111").add("777"));
    assertThat(asks).hasValue(1);
    now.set(BuyerScope.REUSE_MS);
    campaigns("boris");
    assertThat(asks).hasValue(2);
  }

  @Test
  @DisplayName("the reads kept are forgotten all at once past their bound (keys of configs since replaced), not "
      + "before")
  void readsBounded() {
    for (int i = 0; i <= MAX_KEYS; i++) {
      campaigns(accountBuyer("buyer " + i).key().name());
    }
    assertThat(asks).hasValue(MAX_KEYS + 1);
    campaigns("buyer 0");
    assertThat(asks).as("kept at the bound").hasValue(MAX_KEYS + 1);
    campaigns(accountBuyer("one more").key().name());
    campaigns("buyer 0");
    assertThat(asks).as("forgotten past it").hasValue(MAX_KEYS + 3);
  }
}
