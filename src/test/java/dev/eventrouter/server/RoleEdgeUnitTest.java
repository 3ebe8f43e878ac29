package dev.eventrouter.server;

import dev.eventrouter.bus.Addresses;
import dev.eventrouter.bus.BusFailure;
import dev.eventrouter.config.ApiKeys;
import dev.eventrouter.config.ConfigLoader;
import dev.eventrouter.config.HttpConfig;
import dev.eventrouter.http.AccessControl;
import dev.eventrouter.support.Await;
import dev.eventrouter.support.LogCapture;
import dev.eventrouter.support.OpenApiRoles;
import dev.eventrouter.support.TestApp;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.eventbus.Message;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.healthchecks.HealthChecks;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.ext.web.client.WebClient;
import io.vertx.junit5.VertxExtension;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

import static dev.eventrouter.support.TestApp.WS_A;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Roles at the HTTP edge alone: the real HttpVerticle with the store's side of the bus answered by the test, so what
 * each role's request carries to the store (a buyer's campaigns), what the audit log is told, and each answer can be
 * driven exactly.
 */
@ExtendWith(VertxExtension.class)
class RoleEdgeUnitTest {

  private static final String INGEST = "edge-ingest-key-0123456789abcdef";
  private static final String VIEWER = "edge-viewer-key-0123456789abcdef";
  private static final String BUYER = "edge-buyer-key-0123456789abcdef";
  private static final String ACCOUNT_BUYER = "edge-account-buyer-key-0123456789";
  private static final String ADMIN = "edge-admin-key-0123456789abcdef";
  private static final String EXPIRED = "edge-expired-key-0123456789abcdef";
  private static final List<String> ADDRESSES = List.of(Addresses.EVENTS_LIST, Addresses.EVENTS_GET,
      Addresses.EVENTS_REDELIVER, Addresses.DELIVERIES_LIST, Addresses.REPORTS_FUNNEL, Addresses.REPORTS_COHORTS,
      Addresses.COST_SOURCES_LIST, Addresses.SCOPE_CAMPAIGNS, Addresses.AUDIT_RECORD, Addresses.AUDIT_LIST,
      Addresses.INTEGRATION_PAUSE, Addresses.integrationTest("webhook"), Addresses.COST_SOURCES_POLL);

  /** What the store answers unless a test says otherwise: an empty page of each. */
  private static final Map<String, JsonObject> DEFAULTS = Map.of(
      Addresses.EVENTS_LIST, new JsonObject().put("events", new JsonArray()),
      Addresses.DELIVERIES_LIST, new JsonObject().put("deliveries", new JsonArray()),
      Addresses.COST_SOURCES_LIST, new JsonObject().put("sources", new JsonArray()),
      Addresses.REPORTS_FUNNEL, new JsonObject().put("rows", new JsonArray()).put("totals", new JsonObject()),
      Addresses.REPORTS_COHORTS, new JsonObject().put("rows", new JsonArray()).put("totals", new JsonArray()),
      Addresses.AUDIT_LIST, new JsonObject().put("entries", new JsonArray()),
      Addresses.INTEGRATION_PAUSE, new JsonObject().put("changed", false),
      Addresses.SCOPE_CAMPAIGNS, new JsonObject().put("campaign_ids", new JsonArray()));

  private WebClient client;
  private int port;
  private final Map<String, List<JsonObject>> asked = new ConcurrentHashMap<>();
  private final Map<String, Consumer<Message<JsonObject>>> answers = new ConcurrentHashMap<>();

  @BeforeEach
  void start(Vertx vertx) {
    for (String address : ADDRESSES) {
      asked.put(address, new CopyOnWriteArrayList<>());
      Await.result(vertx.eventBus().<JsonObject>consumer(address, message -> {
        asked.get(address).add(message.body());
        answers.getOrDefault(address, m -> m.reply(DEFAULTS.getOrDefault(address, new JsonObject()).copy()))
            .accept(message);
      }).completion());
    }
    JsonObject config = TestApp.config("postgresql://unused/db");
    config.getJsonArray("workspaces").getJsonObject(0)
        .put("keys", new JsonArray().add(key("bot", INGEST, "ingest")).add(key("analyst", VIEWER, "viewer").put("expires_at", "2999-01-01T00:00:00Z"))
            .add(key("anna", BUYER, "buyer").put("scope", new JsonObject().put("campaign_ids",
                new JsonArray().add("111").add("112"))))
            .add(key("boris", ACCOUNT_BUYER, "buyer").put("scope", new JsonObject()
                .put("campaign_ids", new JsonArray().add("111")).put("ad_account_ids", new JsonArray().add("7"))))
            .add(key("owner", ADMIN, "admin"))
            .add(key("gone", EXPIRED, "admin").put("expires_at", "2020-01-01T00:00:00Z")))
        .put("cost_sources", new JsonArray().add(new JsonObject().put("id", "fb").put("type", "meta")
            .put("ad_account_id", "7").put("access_token", "unused").put("enabled", false))
            .add(new JsonObject().put("id", "fb2").put("type", "meta").put("ad_account_id", "8")
                .put("access_token", "unused").put("enabled", false)))
        .put("integrations", new JsonArray().add(new JsonObject().put("id", "hook").put("type", "webhook")
            .put("url", "https://hooks.example/x").put("secret", "hook-secret-0123456789")));
    AccessControl access = new AccessControl(new ConfigLoader(Map.of()).resolve(config).workspaces(),
        System::nanoTime);
    HttpVerticle verticle = new HttpVerticle(new HttpConfig("127.0.0.1", 0, 2048, 1, 2_000), access,
        new PrometheusMeterRegistry(PrometheusConfig.DEFAULT), HealthChecks.create(vertx));
    Await.result(vertx.deployVerticle(verticle));
    port = verticle.actualPort();
    client = WebClient.create(vertx);
  }

  @AfterEach
  void stop() {
    client.close();
  }

  private static JsonObject key(String name, String key, String role) {
    return new JsonObject().put("name", name).put("key", ApiKeys.configValue(key)).put("role", role);
  }

  private HttpResponse<Buffer> get(String path, String key) {
    return Await.result(client.get(port, "127.0.0.1", path).putHeader("x-api-key", key).send());
  }

  private HttpResponse<Buffer> post(String path, String key) {
    return Await.result(client.post(port, "127.0.0.1", path).putHeader("x-api-key", key)
        .putHeader("Content-Type", "application/json").sendBuffer(Buffer.buffer("{}")));
  }

  private List<JsonObject> audited(int n) {
    Await.until(n + " audit entries", Duration.ofSeconds(5), () -> asked.get(Addresses.AUDIT_RECORD).size() >= n);
    return asked.get(Addresses.AUDIT_RECORD);
  }

  @Test
  @DisplayName("each role is refused, 403 forbidden naming the key and role, exactly where x-roles leave it out")
  void walk() throws IOException {
    Map<String, String> keys = Map.of("ingest", INGEST, "viewer", VIEWER, "buyer", BUYER, "admin", ADMIN);
    OpenApiRoles.operations().forEach((operation, roles) -> keys.forEach((role, key) -> {
      String path = OpenApiRoles.path(operation);
      HttpResponse<Buffer> answer = OpenApiRoles.method(operation).equals("GET") ? get(path, key) : post(path, key);
      String what = operation + " as " + role + ": " + answer.bodyAsString();
      if (roles.contains(role)) {
        assertThat(answer.statusCode()).as(what).isNotIn(401, 403);
      } else {
        assertThat(answer.statusCode()).as(what).isEqualTo(403);
        assertThat(answer.bodyAsJsonObject().getJsonObject("error").getString("message")).as(what)
            .contains("role " + role);
      }
    }));
  }

  @Test
  @DisplayName("every operation that takes a key is a 401 unauthorized without one, and asks the store nothing")
  void unkeyed() throws IOException {
    for (String operation : OpenApiRoles.operations().keySet()) {
      String path = OpenApiRoles.path(operation);
      HttpResponse<Buffer> answer = OpenApiRoles.method(operation).equals("GET")
          ? Await.result(client.get(port, "127.0.0.1", path).send())
          : Await.result(client.post(port, "127.0.0.1", path).putHeader("Content-Type", "application/json")
              .sendBuffer(Buffer.buffer("{}")));
      assertThat(answer.statusCode()).as(operation).isEqualTo(401);
      assertThat(answer.bodyAsJsonObject().getJsonObject("error").getString("code")).as(operation)
          .isEqualTo("unauthorized");
    }
    assertThat(asked.values()).allSatisfy(messages -> assertThat(messages).isEmpty());
  }

  @Test
  @DisplayName("a buyer's reads carry its campaigns, those of its accounts read once a minute; no one else's do")
  void buyerScope() {
    answers.put(Addresses.SCOPE_CAMPAIGNS, m -> m.reply(new JsonObject().put("campaign_ids",
        new JsonArray().add("111").add("777"))));
    assertThat(get("/api/v1/events", BUYER).statusCode()).isEqualTo(200);
    assertThat(asked.get(Addresses.EVENTS_LIST).get(0).getJsonArray("campaign_scope"))
        .containsExactly("111", "112");
    assertThat(asked.get(Addresses.SCOPE_CAMPAIGNS)).as("no account to read").isEmpty();
    assertThat(get("/api/v1/events", ACCOUNT_BUYER).statusCode()).isEqualTo(200);
    assertThat(get("/api/v1/deliveries", ACCOUNT_BUYER).statusCode()).isEqualTo(200);
    assertThat(asked.get(Addresses.SCOPE_CAMPAIGNS)).singleElement().isEqualTo(new JsonObject()
        .put("workspace_id", WS_A).put("source_ids", new JsonArray().add("fb")));
    assertThat(asked.get(Addresses.EVENTS_LIST).get(1).getJsonArray("campaign_scope")).containsExactly("111", "777");
    assertThat(asked.get(Addresses.DELIVERIES_LIST).get(0).getJsonArray("campaign_scope"))
        .containsExactly("111", "777");
    assertThat(get("/api/v1/events/evt_5", BUYER).statusCode()).isEqualTo(200);
    assertThat(asked.get(Addresses.EVENTS_GET).get(0).getJsonArray("campaign_scope")).containsExactly("111", "112");
    assertThat(get("/api/v1/events", VIEWER).statusCode()).isEqualTo(200);
    assertThat(get("/api/v1/events", ADMIN).statusCode()).isEqualTo(200);
    assertThat(asked.get(Addresses.EVENTS_LIST).subList(2, 4)).allSatisfy(m ->
        assertThat(m.containsKey("campaign_scope")).isFalse());

    answers.put(Addresses.SCOPE_CAMPAIGNS, m -> m.fail(BusFailure.UNAVAILABLE, "down"));
    assertThat(get("/api/v1/events", ACCOUNT_BUYER).statusCode()).as("read within the minute").isEqualTo(200);
  }

  @Test
  @DisplayName("a buyer's accounts unread are a 503, never an unscoped read")
  void scopeUnread() {
    answers.put(Addresses.SCOPE_CAMPAIGNS, m -> m.fail(BusFailure.UNAVAILABLE, "down"));
    assertThat(get("/api/v1/events", ACCOUNT_BUYER).statusCode()).isEqualTo(503);
    assertThat(asked.get(Addresses.EVENTS_LIST)).isEmpty();
  }

  @Test
  @DisplayName("a buyer's report is narrowed to its campaigns, a filter to those among them, and shows no unmatched "
      + "spend; an admin's is as asked")
  void buyerReport() {
    JsonObject report = new JsonObject().put("rows", new JsonArray())
        .put("totals", new JsonObject().put("spend_unmatched", "12.00"));
    answers.put(Addresses.REPORTS_FUNNEL, m -> m.reply(report.copy()));
    answers.put(Addresses.REPORTS_COHORTS, m -> m.reply(new JsonObject().put("totals", new JsonArray())));
    JsonObject anna = get("/api/v1/reports/funnel?filter=campaign_id:112&filter=campaign_id:999", BUYER)
        .bodyAsJsonObject().getJsonObject("data");
    assertThat(anna.getJsonObject("totals").containsKey("spend_unmatched")).isTrue();
    assertThat(anna.getJsonObject("totals").getValue("spend_unmatched")).isNull();
    assertThat(asked.get(Addresses.REPORTS_FUNNEL).get(0).getJsonObject("filters").getJsonArray("campaign_id"))
        .containsExactly("112");
    get("/api/v1/reports/funnel?filter=utm_source:fb", BUYER);
    JsonObject filters = asked.get(Addresses.REPORTS_FUNNEL).get(1).getJsonObject("filters");
    assertThat(filters.getJsonArray("campaign_id")).containsExactly("111", "112");
    assertThat(filters.getJsonArray("utm_source")).containsExactly("fb");
    JsonObject owners = get("/api/v1/reports/funnel?filter=campaign_id:999", ADMIN).bodyAsJsonObject()
        .getJsonObject("data");
    assertThat(owners.getJsonObject("totals").getString("spend_unmatched")).isEqualTo("12.00");
    assertThat(asked.get(Addresses.REPORTS_FUNNEL).get(2).getJsonObject("filters").getJsonArray("campaign_id"))
        .containsExactly("999");
    answers.put(Addresses.REPORTS_FUNNEL, m -> m.reply(new JsonObject().put("rows", new JsonArray())
        .put("totals", new JsonObject())));
    assertThat(get("/api/v1/reports/funnel", BUYER).bodyAsJsonObject().getJsonObject("data")
        .getJsonObject("totals").containsKey("spend_unmatched")).as("none added where none was").isFalse();
    assertThat(get("/api/v1/reports/cohorts", BUYER).statusCode()).isEqualTo(200);
    assertThat(asked.get(Addresses.REPORTS_COHORTS).get(0).getJsonObject("funnel").getJsonObject("filters")
        .getJsonArray("campaign_id")).containsExactly("111", "112");
  }

  @Test
  @DisplayName("a buyer's cost sources are its accounts' alone; a viewer's all, pushed ones too")
  void costSources() {
    answers.put(Addresses.COST_SOURCES_LIST, m -> m.reply(new JsonObject().put("sources", new JsonArray()
        .add(new JsonObject().put("source_id", "sheet").put("rows", 3)))));
    List<String> boris = get("/api/v1/cost-sources", ACCOUNT_BUYER).bodyAsJsonObject().getJsonObject("data")
        .getJsonArray("sources").stream().map(s -> ((JsonObject) s).getString("source_id")).toList();
    assertThat(boris).containsExactly("fb");
    assertThat(asked.get(Addresses.SCOPE_CAMPAIGNS)).as("its accounts' campaigns are not needed here").isEmpty();
    HttpResponse<Buffer> viewed = get("/api/v1/cost-sources", VIEWER);
    assertThat(viewed.statusCode()).as(viewed.bodyAsString()).isEqualTo(200);
    List<String> all = viewed.bodyAsJsonObject().getJsonObject("data")
        .getJsonArray("sources").stream().map(s -> ((JsonObject) s).getString("source_id")).toList();
    assertThat(all).containsExactly("fb", "fb2", "sheet");
  }

  @Test
  @DisplayName("each action tells the audit log who did what to which target and the answer; a refusal too, once a "
      + "minute per key and action; an unknown key not")
  void auditTrail() {
    answers.put(Addresses.EVENTS_REDELIVER, m -> m.fail(BusFailure.UNAVAILABLE, "down"));
    answers.put(Addresses.integrationTest("webhook"), m -> m.reply(new JsonObject().put("verdict", "refused")));
    answers.put(Addresses.INTEGRATION_PAUSE, m -> m.reply(new JsonObject().put("changed", true)));
    assertThat(post("/api/v1/events/evt_12/redeliver", ADMIN).statusCode()).isEqualTo(503);
    assertThat(audited(1).get(0)).isEqualTo(new JsonObject().put("workspace_id", WS_A).put("key_name", "owner")
        .put("action", "event.redeliver").put("target", "evt_12").put("outcome", "503 unavailable"));
    assertThat(post("/api/v1/events/evt_12/redeliver", VIEWER).statusCode()).isEqualTo(403);
    assertThat(audited(2).get(1).getString("outcome")).isEqualTo("403 forbidden");
    assertThat(audited(2).get(1).getString("key_name")).isEqualTo("analyst");
    assertThat(post("/api/v1/events/evt_13/redeliver", VIEWER).statusCode()).as("recorded once a minute")
        .isEqualTo(403);
    assertThat(post("/api/v1/integrations/hook/test", ADMIN).statusCode()).isEqualTo(200);
    assertThat(audited(3).get(2).getString("outcome")).isEqualTo("200 verdict refused");
    assertThat(post("/api/v1/integrations/hook/pause", ADMIN).statusCode()).isEqualTo(200);
    JsonObject pause = asked.get(Addresses.INTEGRATION_PAUSE).get(0);
    assertThat(pause).isEqualTo(new JsonObject().put("workspace_id", WS_A).put("integration_id", "hook")
        .put("network", "webhook").put("paused", true).put("reason", "paused by hand by key \"owner\""));
    assertThat(audited(4).get(3).getString("target")).isEqualTo("hook");
    HttpResponse<Buffer> redelivered = Await.result(client.post(port, "127.0.0.1", "/api/v1/deliveries/redeliver")
        .putHeader("x-api-key", ADMIN).putHeader("Content-Type", "application/json")
        .sendBuffer(new JsonObject().put("integration_id", "hook").put("event_name", "FTD").toBuffer()));
    assertThat(redelivered.statusCode()).isIn(200, 503);
    assertThat(audited(5).get(4).getString("target")).isEqualTo("deliveries of hook for FTD failed,expired,unconfirmed");
    assertThat(post("/api/v1/events/evt_12/redeliver", "unknown-key-0123456789abcdef").statusCode()).isEqualTo(401);
    assertThat(post("/api/v1/integrations/hook/resume", ADMIN).statusCode()).isEqualTo(200);
    assertThat(audited(6)).hasSize(6).last().satisfies(entry ->
        assertThat(entry.getString("action")).isEqualTo("integration.resume"));
    HttpResponse<Buffer> tooLarge = Await.result(client.post(port, "127.0.0.1", "/api/v1/integrations/hook/pause")
        .putHeader("x-api-key", ADMIN).putHeader("Content-Type", "application/json")
        .sendBuffer(Buffer.buffer("{\"pad\": \"" + "x".repeat(4096) + "\"}")));
    assertThat(tooLarge.statusCode()).isEqualTo(413);
    assertThat(audited(7).get(6).getString("outcome")).isEqualTo("413 payload_too_large");
    assertThat(asked.get(Addresses.INTEGRATION_PAUSE).get(1).getBoolean("paused")).isFalse();
  }

  @Test
  @DisplayName("each action's entry names its target: the path's, or \"deliveries\" for a filter refused before it "
      + "named them")
  void actionTargets() {
    answers.put(Addresses.integrationTest("webhook"), m -> m.reply(new JsonObject().put("verdict", "accepted")));
    assertThat(post("/api/v1/integrations/hook/test", ADMIN).statusCode()).isEqualTo(200);
    assertThat(audited(1).get(0).getString("target")).isEqualTo("hook");
    assertThat(post("/api/v1/integrations/hook/resume", ADMIN).statusCode()).isEqualTo(200);
    assertThat(audited(2).get(1).getString("target")).isEqualTo("hook");
    assertThat(post("/api/v1/cost-sources/fb/poll", ADMIN).statusCode()).isEqualTo(200);
    JsonObject poll = audited(3).get(2);
    assertThat(poll.getString("action")).isEqualTo("cost_source.poll");
    assertThat(poll.getString("target")).isEqualTo("fb");
    HttpResponse<Buffer> refused = Await.result(client.post(port, "127.0.0.1", "/api/v1/deliveries/redeliver")
        .putHeader("x-api-key", ADMIN).putHeader("Content-Type", "application/json")
        .sendBuffer(new JsonObject().put("integration_id", 5).toBuffer()));
    assertThat(refused.statusCode()).as(refused.bodyAsString()).isEqualTo(400);
    assertThat(audited(4).get(3).getString("target")).isEqualTo("deliveries");
  }

  @Test
  @DisplayName("polling a cost source now: one never polled is due all the same; the store unreachable is a 503")
  void pollNow() {
    answers.put(Addresses.COST_SOURCES_POLL, m -> m.fail(BusFailure.NOT_FOUND, "never polled"));
    assertThat(post("/api/v1/cost-sources/fb/poll", ADMIN).bodyAsJsonObject().getJsonObject("data"))
        .isEqualTo(new JsonObject().put("source_id", "fb").put("due", true));
    answers.put(Addresses.COST_SOURCES_POLL, m -> m.fail(BusFailure.UNAVAILABLE, "down"));
    assertThat(post("/api/v1/cost-sources/fb/poll", ADMIN).statusCode()).isEqualTo(503);
    assertThat(post("/api/v1/cost-sources/nope/poll", ADMIN).statusCode()).isEqualTo(404);
  }

  @Test
  @DisplayName("/access answers each key's role and what it may do; an expired key is a 401, logged once")
  void access() {
    JsonObject anna = get("/api/v1/access", BUYER).bodyAsJsonObject().getJsonObject("data");
    assertThat(anna.getJsonObject("scope")).isEqualTo(new JsonObject()
        .put("campaign_ids", new JsonArray().add("111").add("112")).put("ad_account_ids", new JsonArray()));
    assertThat(get("/api/v1/access", VIEWER).bodyAsJsonObject().getJsonObject("data").getString("expires_at"))
        .isEqualTo("2999-01-01T00:00:00Z");
    JsonObject bot = get("/api/v1/access", INGEST).bodyAsJsonObject().getJsonObject("data");
    assertThat(bot.getJsonObject("can")).isEqualTo(new JsonObject().put("read", false).put("read_all", false)
        .put("act", false).put("audit", false).put("ingest", true));
    assertThat(bot.getValue("scope")).isNull();
    assertThat(bot.getValue("expires_at")).isNull();
    JsonObject owner = get("/api/v1/access", ADMIN).bodyAsJsonObject().getJsonObject("data");
    assertThat(owner.getJsonObject("can").stream().allMatch(e -> e.getValue().equals(true))).isTrue();
    assertThat(get("/api/v1/access", VIEWER).bodyAsJsonObject().getJsonObject("data").getJsonObject("can"))
        .isEqualTo(new JsonObject().put("read", true).put("read_all", true).put("act", false).put("audit", false)
            .put("ingest", false));
    LogCapture logs = LogCapture.start();
    try {
      assertThat(get("/api/v1/access", EXPIRED).statusCode()).isEqualTo(401);
      assertThat(get("/api/v1/access", EXPIRED).statusCode()).isEqualTo(401);
      assertThat(logs.text().split("\"gone\"", -1)).hasSize(2);
      assertThat(logs.text()).contains("expired at 2020-01-01T00:00:00Z");
    } finally {
      logs.stop();
    }
  }

  @Test
  @DisplayName("the audit log's page: 50 entries by default, limit 1 to 200, before an id; bad ones named in one 400")
  void auditPages() {
    answers.put(Addresses.AUDIT_LIST, m -> {
      JsonArray entries = new JsonArray();
      for (int i = 0; i < m.body().getInteger("limit"); i++) {
        entries.add(new JsonObject().put("id", 100 - i));
      }
      m.reply(new JsonObject().put("entries", entries));
    });
    JsonObject page = get("/api/v1/audit", ADMIN).bodyAsJsonObject().getJsonObject("data");
    assertThat(page.getJsonArray("entries")).hasSize(50);
    assertThat(page.getLong("next_before")).isEqualTo(51);
    assertThat(asked.get(Addresses.AUDIT_LIST).get(0)).isEqualTo(new JsonObject().put("workspace_id", WS_A)
        .put("before", null).put("limit", 50));
    assertThat(get("/api/v1/audit?limit=200&before=900", ADMIN).statusCode()).isEqualTo(200);
    assertThat(asked.get(Addresses.AUDIT_LIST).get(1).getLong("before")).isEqualTo(900);
    assertThat(get("/api/v1/audit?limit=1", ADMIN).bodyAsJsonObject().getJsonObject("data").getLong("next_before"))
        .isEqualTo(100);
    answers.put(Addresses.AUDIT_LIST, m -> m.reply(new JsonObject().put("entries", new JsonArray()
        .add(new JsonObject().put("id", 3)))));
    assertThat(get("/api/v1/audit?limit=2", ADMIN).bodyAsJsonObject().getJsonObject("data").getValue("next_before"))
        .as("the last page").isNull();
    for (String query : List.of("limit=0", "limit=201", "limit=x", "before=-1", "before=1e3", "page=2")) {
      HttpResponse<Buffer> bad = get("/api/v1/audit?" + query, ADMIN);
      assertThat(bad.statusCode()).as(query).isEqualTo(400);
      assertThat(bad.bodyAsJsonObject().getJsonObject("error").getJsonArray("details").getJsonObject(0)
          .getString("field")).as(query).isEqualTo(query.substring(0, query.indexOf('=')));
    }
  }
}
