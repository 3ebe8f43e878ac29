package dev.eventrouter.api.costs;

import dev.eventrouter.bus.Addresses;
import dev.eventrouter.bus.BusFailure;
import dev.eventrouter.bus.LocalCodec;
import dev.eventrouter.bus.SpendPush;
import dev.eventrouter.config.AlertsConfig;
import dev.eventrouter.config.ApiKeys;
import dev.eventrouter.config.CostSourceConfig;
import dev.eventrouter.config.HttpConfig;
import dev.eventrouter.config.RateLimitConfig;
import dev.eventrouter.config.ReportConfig;
import dev.eventrouter.config.ReportsConfig;
import dev.eventrouter.config.WorkspaceConfig;
import dev.eventrouter.http.AccessControl;
import dev.eventrouter.http.ReportSlots;
import dev.eventrouter.http.ServerBudget;
import dev.eventrouter.server.HttpVerticle;
import dev.eventrouter.support.Await;
import dev.eventrouter.support.EdgeServer;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.vertx.core.MultiMap;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.healthchecks.HealthChecks;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.ext.web.client.WebClient;
import io.vertx.junit5.VertxExtension;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReference;

import static dev.eventrouter.support.ApiAssertions.assertError;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The cost routes at the edge, against the store's side the test plays on the bus (no database): what a push sends
 * and answers, Keitaro's key forms and answers, the sources' view merged with the config, and poll now.
 */
@ExtendWith(VertxExtension.class)
class CostsEdgeUnitTest {

  private static final UUID WS = UUID.fromString("7c9e6679-7425-40de-944b-e07fc1f90ae7");
  private static final String KEY = "edge-costs-key-1";
  private static final String KEITARO = "/admin_api/v1/campaigns/7/update_costs";
  private static final String KEITARO_BODY = "{\"start_date\":\"2026-11-20\",\"end_date\":\"2026-11-20\",\"cost\":5,"
      + "\"currency\":\"USD\",\"filters\":{\"sub_id_3\":\"as9\"}}";

  private WebClient client;
  private int port;
  private final List<SpendPush> pushes = new CopyOnWriteArrayList<>();
  private final List<JsonObject> polls = new CopyOnWriteArrayList<>();
  /** What the store answers to "poll now": null a reply, else the failure code. */
  private final AtomicReference<Integer> pollFailure = new AtomicReference<>();
  private final AtomicReference<JsonArray> stored = new AtomicReference<>(new JsonArray());

  @BeforeEach
  void start(Vertx vertx) {
    LocalCodec.register(vertx);
    Await.result(vertx.eventBus().<SpendPush>consumer(Addresses.COSTS_PUSH, m -> {
      pushes.add(m.body());
      m.reply(new JsonObject().put("rows", m.body().rows().size()));
    }).completion());
    Await.result(vertx.eventBus().<JsonObject>consumer(Addresses.COST_SOURCES_LIST,
        m -> m.reply(new JsonObject().put("sources", stored.get()))).completion());
    Await.result(vertx.eventBus().<JsonObject>consumer(Addresses.COST_SOURCES_POLL, m -> {
      polls.add(m.body());
      if (pollFailure.get() == null) {
        m.reply(new JsonObject());
      } else {
        m.fail(pollFailure.get(), "test");
      }
    }).completion());
    HttpConfig http = new HttpConfig("127.0.0.1", 0, 4096, 1, 10_000);
    byte[] hash = HexFormat.of().parseHex(ApiKeys.configValue(KEY).substring(ApiKeys.PREFIX.length()));
    CostSourceConfig meta = new CostSourceConfig("fb-main", "meta", "act_1", "meta-token-9", "http://127.0.0.1:1",
        "v25.0", null, null, true, 30, 3, 30, true);
    WorkspaceConfig workspace = new WorkspaceConfig(WS, "w", List.of(hash), List.of(),
        new RateLimitConfig(1000, 1000), null, 28, List.of(), Map.of(), List.of(), List.of(), 7,
        new ReportConfig("USD", Map.of(), List.of("FTD")), AlertsConfig.NONE, List.of(meta));
    AccessControl access = new AccessControl(List.of(workspace), http, System::nanoTime);
    port = EdgeServer.deploy(vertx, new HttpVerticle(http, access,
        new PrometheusMeterRegistry(PrometheusConfig.DEFAULT), HealthChecks.create(vertx),
        new ServerBudget(http.limits()), new ReportSlots(ReportsConfig.DEFAULT)));
    client = WebClient.create(vertx);
  }

  private HttpResponse<Buffer> post(String path, MultiMap headers, String body) {
    return client.post(port, "127.0.0.1", path).putHeaders(headers).sendBuffer(Buffer.buffer(body)).await();
  }

  private static MultiMap headers(String name, String value, String contentType) {
    return MultiMap.caseInsensitiveMultiMap().add(name, value).add("Content-Type", contentType);
  }

  @Test
  @DisplayName("a push: its rows sent as one record for the workspace and source, its period answered")
  void push() {
    HttpResponse<Buffer> r = post("/api/v1/costs?source=sheet", headers("x-api-key", KEY, "text/csv"),
        "date,level,id,cost,currency\n2026-11-20,ad,611,1.5,USD\n2026-11-22,ad,612,2,USD\n");
    assertThat(r.statusCode()).as(r.bodyAsString()).isEqualTo(200);
    assertThat(r.bodyAsJsonObject().getJsonObject("data")).isEqualTo(new JsonObject().put("source", "sheet")
        .put("from", "2026-11-20").put("to", "2026-11-22").put("rows", 2));
    SpendPush push = pushes.get(0);
    assertThat(List.of(push.workspaceId(), push.source(), push.from(), push.to())).containsExactly(WS, "sheet",
        LocalDate.of(2026, 11, 20), LocalDate.of(2026, 11, 22));
    assertThat(push.level()).isNull();
    assertThat(push.objectId()).isNull();
    assertThat(push.rows().get(0).zone()).isEqualTo(ZoneOffset.UTC.getId());
  }

  @Test
  @DisplayName("a push under an imported source's id is refused naming source, and nothing is sent; an empty body "
      + "is a 400; no key is a 401")
  void pushRefused() {
    HttpResponse<Buffer> r = post("/api/v1/costs?source=fb-main", headers("x-api-key", KEY, "text/csv"),
        "date,level,id,cost,currency\n2026-11-20,ad,611,1.5,USD\n");
    assertError(r, 400, "validation_failed");
    assertThat(r.bodyAsJsonObject().getJsonObject("error").getJsonArray("details").getJsonObject(0))
        .isEqualTo(new JsonObject().put("field", "source").put("message", "is the id of one of the workspace's "
            + "cost_sources; a push needs a name of its own"));
    assertThat(post("/api/v1/costs", headers("x-api-key", KEY, "application/json"), "").statusCode())
        .isEqualTo(400);
    assertError(post("/api/v1/costs", headers("x-api-key", "nope", "application/json"), "{}"), 401,
        "unauthorized");
    assertThat(pushes).isEmpty();
  }

  @Test
  @DisplayName("Keitaro's push: the key as Api-Key, as a bearer token of any case, or as x-api-key; the ad set of "
      + "sub_id_3 sent as the one object the push replaces; {\"success\": true}")
  void keitaroKeys() {
    for (MultiMap auth : List.of(headers("Api-Key", KEY, "application/json"),
        headers("Authorization", "Bearer " + KEY, "application/json"),
        headers("Authorization", "bearer  " + KEY, "application/json"),
        headers("x-api-key", KEY, "application/json"),
        headers("Api-Key", KEY, "application/json").add("Authorization", "Bearer not-the-key"))) {
      HttpResponse<Buffer> r = post(KEITARO, auth, KEITARO_BODY);
      assertThat(r.statusCode()).as(auth.toString()).isEqualTo(200);
      assertThat(r.bodyAsJsonObject()).isEqualTo(new JsonObject().put("success", true));
      assertThat(r.getHeader("Content-Type")).isEqualTo("application/json");
    }
    assertThat(pushes).as("Api-Key first").hasSize(5).allSatisfy(p -> {
      assertThat(p.source()).isEqualTo("keitaro");
      assertThat(p.level()).isEqualTo("adset");
      assertThat(p.objectId()).isEqualTo("as9");
    });
  }

  @Test
  @DisplayName("Keitaro's push refused: a wrong key, a Basic credential or none is a 401; a bad body is Keitaro's "
      + "400, and nothing is sent")
  void keitaroRefused() {
    for (MultiMap auth : List.of(headers("Api-Key", "nope", "application/json"),
        headers("Authorization", "Basic " + KEY, "application/json"),
        headers("Authorization", "Digest " + KEY, "application/json"),
        MultiMap.caseInsensitiveMultiMap().add("Content-Type", "application/json"))) {
      assertError(post(KEITARO, auth, KEITARO_BODY), 401, "unauthorized");
    }
    HttpResponse<Buffer> bad = post(KEITARO, headers("Api-Key", KEY, "application/json"),
        KEITARO_BODY.replace("\"cost\":5", "\"cost\":-5"));
    assertThat(bad.statusCode()).isEqualTo(400);
    assertThat(bad.getHeader("Content-Type")).isEqualTo("application/json");
    assertThat(bad.bodyAsJsonObject().getBoolean("success")).isFalse();
    assertThat(pushes).isEmpty();
  }

  @Test
  @DisplayName("the sources: each configured one with the config's settings and its stored state (new before any), "
      + "then those known by rows only; never a token")
  void sources() {
    stored.set(new JsonArray().add(new JsonObject().put("source_id", "sheet").put("type", "push").put("rows", 3L)
        .put("first_day", "2026-11-20").put("last_day", "2026-11-21")));
    HttpResponse<Buffer> r = client.get(port, "127.0.0.1", "/api/v1/cost-sources").putHeader("x-api-key", KEY)
        .send().await();
    assertThat(r.statusCode()).isEqualTo(200);
    assertThat(r.bodyAsString()).doesNotContain("meta-token-9");
    JsonArray sources = r.bodyAsJsonObject().getJsonObject("data").getJsonArray("sources");
    JsonObject meta = sources.getJsonObject(0);
    assertThat(meta.getString("source_id")).isEqualTo("fb-main");
    assertThat(meta.getString("type")).isEqualTo("meta");
    assertThat(meta.getString("account")).isEqualTo("act_1");
    assertThat(meta.getBoolean("enabled")).isTrue();
    assertThat(meta.getBoolean("configured")).isTrue();
    assertThat(meta.getInteger("poll_interval_minutes")).isEqualTo(30);
    assertThat(meta.getString("state")).isEqualTo("new");
    assertThat(meta.getLong("rows")).isZero();
    JsonObject sheet = sources.getJsonObject(1);
    assertThat(sheet.getString("source_id")).isEqualTo("sheet");
    assertThat(sheet.getBoolean("configured")).isFalse();
    assertThat(sheet.getLong("rows")).isEqualTo(3);
    assertThat(sheet.getValue("account")).isNull();
    assertThat(sources).hasSize(2);

    stored.set(new JsonArray().add(new JsonObject().put("source_id", "fb-main").put("type", "meta")
        .put("state", "paused").put("rows", 7L).put("last_error", "Meta error 190: expired")));
    JsonObject known = client.get(port, "127.0.0.1", "/api/v1/cost-sources").putHeader("x-api-key", KEY).send()
        .await().bodyAsJsonObject().getJsonObject("data").getJsonArray("sources").getJsonObject(0);
    assertThat(known.getString("state")).isEqualTo("paused");
    assertThat(known.getLong("rows")).isEqualTo(7);
    assertThat(known.getString("last_error")).isEqualTo("Meta error 190: expired");
  }

  @Test
  @DisplayName("poll now: 404 for a source the workspace has not; a configured one is asked for, due even before "
      + "its first poll; the store not answering is a 503")
  void pollNow() {
    MultiMap key = headers("x-api-key", KEY, "application/json");
    assertError(post("/api/v1/cost-sources/sheet/poll", key, ""), 404, "not_found");
    assertThat(polls).isEmpty();
    HttpResponse<Buffer> due = post("/api/v1/cost-sources/fb-main/poll", key, "");
    assertThat(due.statusCode()).isEqualTo(200);
    assertThat(due.bodyAsJsonObject().getJsonObject("data")).isEqualTo(new JsonObject().put("source_id", "fb-main")
        .put("due", true));
    assertThat(polls.get(0)).isEqualTo(new JsonObject().put("workspace_id", WS.toString())
        .put("source_id", "fb-main"));
    pollFailure.set(BusFailure.NOT_FOUND);
    assertThat(post("/api/v1/cost-sources/fb-main/poll", key, "").statusCode()).isEqualTo(200);
    pollFailure.set(BusFailure.UNAVAILABLE);
    assertError(post("/api/v1/cost-sources/fb-main/poll", key, ""), 503, "unavailable");
  }
}
