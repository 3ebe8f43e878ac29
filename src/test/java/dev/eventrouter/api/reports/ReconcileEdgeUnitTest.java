package dev.eventrouter.api.reports;

import dev.eventrouter.bus.Addresses;
import dev.eventrouter.bus.BusFailure;
import dev.eventrouter.config.ApiKeys;
import dev.eventrouter.config.HttpConfig;
import dev.eventrouter.config.RateLimitConfig;
import dev.eventrouter.config.ReportConfig;
import dev.eventrouter.config.ReportsConfig;
import dev.eventrouter.config.WorkspaceConfig;
import dev.eventrouter.event.ReconcileQuery;
import dev.eventrouter.http.AccessControl;
import dev.eventrouter.http.ReportSlots;
import dev.eventrouter.http.ServerBudget;
import dev.eventrouter.server.HttpVerticle;
import dev.eventrouter.support.Await;
import dev.eventrouter.support.EdgeServer;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.vertx.core.Future;
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

import java.time.Duration;
import java.time.LocalDate;
import java.time.ZoneId;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import static dev.eventrouter.support.ApiAssertions.assertError;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The reconciliation's route at the edge, against a report verticle the test plays (no database): the query each
 * request makes (the workspace's threshold and table), the CSV, each refusal named, and a slot given back however it
 * ends.
 */
@ExtendWith(VertxExtension.class)
class ReconcileEdgeUnitTest {

  private static final UUID WS = UUID.fromString("7c9e6679-7425-40de-944b-e07fc1f90ae7");
  private static final String KEY = "edge-reconcile-key-1";
  private static final String BERLIN = "Europe/Berlin";
  private static final long TIMEOUT_MS = 60_000;

  private WebClient client;
  private int port;
  private ReportSlots slots;
  private final BlockingQueue<Message<JsonObject>> asked = new LinkedBlockingQueue<>();

  @BeforeEach
  void start(Vertx vertx) {
    Await.result(vertx.eventBus().<JsonObject>consumer(Addresses.REPORTS_RECONCILE, asked::add).completion());
    HttpConfig http = new HttpConfig("127.0.0.1", 0, 2048, 1, TIMEOUT_MS);
    byte[] hash = HexFormat.of().parseHex(ApiKeys.configValue(KEY).substring(ApiKeys.PREFIX.length()));
    WorkspaceConfig workspace = new WorkspaceConfig(WS, "w", List.of(hash), List.of(), new RateLimitConfig(1000, 1000),
        null, 28, List.of(), Map.of(), List.of(), List.of(), 7,
        new ReportConfig("EUR", Map.of(), List.of("FTD"), ZoneId.of(BERLIN), new ReportConfig.Reconcile(0.7,
            Map.of("tiktok", Map.of("SubmitForm", "conversion")))));
    AccessControl access = new AccessControl(List.of(workspace), http, System::nanoTime);
    ReportsConfig d = ReportsConfig.DEFAULT;
    slots = new ReportSlots(new ReportsConfig(d.ratesFile(), d.rollupEveryMs(), d.rollupLagMs(), d.retentionDays(),
        d.rollupBudgetPercent(), 2, 2, d.cohorts()));
    port = EdgeServer.deploy(vertx, new HttpVerticle(http, access,
        new PrometheusMeterRegistry(PrometheusConfig.DEFAULT), HealthChecks.create(vertx), new ServerBudget(http.limits()),
        slots));
    client = WebClient.create(vertx);
  }

  @AfterEach
  void stop() {
    client.close();
  }

  private Future<HttpResponse<Buffer>> send(String query) {
    return client.get(port, "127.0.0.1", "/api/v1/reports/reconcile" + query).putHeader("x-api-key", KEY).send();
  }

  private Message<JsonObject> next() {
    try {
      Message<JsonObject> message = asked.poll(Await.WAIT.toMillis(), TimeUnit.MILLISECONDS);
      assertThat(message).as("a report asked for").isNotNull();
      return message;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError(e);
    }
  }

  /** One ad named as a formula, short, and the totals. */
  private static JsonObject report() {
    JsonObject row = new JsonObject().put("action_type", "offsite_conversion.fb_pixel_purchase")
        .put("events", new JsonArray().add("Purchase")).put("delivered", 10).put("network_count", 6)
        .put("difference", -4).put("ratio", 0.6).put("short", true);
    JsonObject total = row.copy().put("delivered", 12).put("network_count", 12).put("difference", 0).put("ratio", 1.0)
        .put("short", false);
    JsonObject none = row.copy().put("action_type", "offsite_conversion.fb_pixel_lead")
        .put("events", new JsonArray().add("Lead").add("Subscribe")).put("delivered", 0).put("network_count", 3)
        .put("difference", 3).putNull("ratio").put("short", false);
    return new JsonObject().put("network", "meta").put("threshold", 0.7).put("tz", BERLIN)
        .put("rows", new JsonArray().add(row.copy().put("group", new JsonObject().put("ad_id", "=1+1"))))
        .put("totals", new JsonArray().add(total).add(none)).put("unattributed", new JsonObject())
        .put("not_compared", new JsonObject()).put("cut", false);
  }

  @Test
  @DisplayName("a request's query: its days, network and grouping, with the workspace's threshold, its table for "
      + "that network and its report zone; the answer says what it is")
  void query() {
    Future<HttpResponse<Buffer>> answer = send("?from=2026-11-02&to=2026-11-08&network=tiktok&group_by=campaign");
    Message<JsonObject> message = next();
    ReconcileQuery query = ReconcileQuery.fromJson(message.body());
    assertThat(query.workspaceId()).isEqualTo(WS);
    assertThat(query.from()).isEqualTo(LocalDate.parse("2026-11-02"));
    assertThat(query.to()).isEqualTo(LocalDate.parse("2026-11-08"));
    assertThat(query.network()).isEqualTo("tiktok");
    assertThat(query.groupBy()).isEqualTo("campaign");
    assertThat(query.threshold()).isEqualTo(0.7);
    assertThat(query.actions()).isEqualTo(Map.of("SubmitForm", "conversion"));
    assertThat(query.reportZone()).isEqualTo(ZoneId.of(BERLIN));
    assertThat(slots.running()).isEqualTo(1);
    message.reply(report());
    HttpResponse<Buffer> r = Await.result(answer);
    assertThat(r.statusCode()).as(r.bodyAsString()).isEqualTo(200);
    JsonObject data = r.bodyAsJsonObject().getJsonObject("data");
    assertThat(data.getString("from")).isEqualTo("2026-11-02");
    assertThat(data.getString("to")).isEqualTo("2026-11-08");
    assertThat(data.getString("group_by")).isEqualTo("campaign");
    Await.until("the slot given back", Duration.ofMillis(Await.WAIT.toMillis()), () -> slots.running() == 0);
  }

  @Test
  @DisplayName("without parameters: the 7 days before today, Meta, by ad, Meta's table of the workspace (none)")
  void defaults() {
    Future<HttpResponse<Buffer>> answer = send("");
    Message<JsonObject> message = next();
    ReconcileQuery query = ReconcileQuery.fromJson(message.body());
    LocalDate yesterday = LocalDate.now(ZoneId.of(BERLIN)).minusDays(1);
    assertThat(query.to()).isIn(yesterday, yesterday.minusDays(1)); // a request made across midnight
    assertThat(query.from()).isEqualTo(query.to().minusDays(6));
    assertThat(query.network()).isEqualTo("meta");
    assertThat(query.groupBy()).isEqualTo("ad");
    assertThat(query.actions()).isEmpty();
    message.reply(report());
    assertThat(Await.result(answer).statusCode()).isEqualTo(200);
  }

  @Test
  @DisplayName("CSV: a line per ad and action type, a formula-like id as text, the events joined, no ratio empty, "
      + "the totals last")
  void csv() {
    Future<HttpResponse<Buffer>> answer = send("?format=csv");
    next().reply(report());
    HttpResponse<Buffer> r = Await.result(answer);
    assertThat(r.statusCode()).isEqualTo(200);
    assertThat(r.getHeader("content-type")).isEqualTo("text/csv; charset=utf-8");
    assertThat(r.getHeader("content-disposition")).isEqualTo("attachment; filename=\"reconcile.csv\"");
    assertThat(r.bodyAsString()).isEqualTo("ad_id,action_type,events,delivered,network_count,difference,ratio,short"
        + "\r\n'=1+1,offsite_conversion.fb_pixel_purchase,Purchase,10,6,-4,0.6,true\r\n"
        + "total,offsite_conversion.fb_pixel_purchase,Purchase,12,12,0,1.0,false\r\n"
        + "total,offsite_conversion.fb_pixel_lead,Lead Subscribe,0,3,3,,false\r\n");
  }

  @Test
  @DisplayName("CSV by day: the day column")
  void csvByDay() {
    Future<HttpResponse<Buffer>> answer = send("?format=csv&group_by=day");
    JsonObject report = report();
    report.getJsonArray("rows").getJsonObject(0).put("group", new JsonObject().put("day", "2026-11-03"));
    next().reply(report);
    assertThat(Await.result(answer).bodyAsString()).startsWith("day,action_type,").contains("\r\n2026-11-03,");
  }

  @Test
  @DisplayName("every bad parameter named in one 400, and no slot taken: an unknown network, grouping, format or "
      + "parameter, from after to, more than 92 days")
  void refusals() {
    assertRefused("?network=google", "network");
    assertRefused("?group_by=country", "group_by");
    assertRefused("?group_by=ad_id", "group_by");
    assertRefused("?format=xml", "format");
    assertRefused("?pixel=1", "pixel");
    assertRefused("?from=2026-11-09&to=2026-11-08", "from");
    assertRefused("?from=2026-08-08&to=2026-11-08", "from");
    assertRefused("?from=2026-11-32", "from");
    HttpResponse<Buffer> r = Await.result(send("?network=x&group_by=y&format=pdf"));
    JsonObject error = assertError(r, 400, "validation_failed");
    assertThat(error.getJsonArray("details").stream().map(d -> ((JsonObject) d).getString("field")).toList())
        .containsExactlyInAnyOrder("network", "group_by", "format");
    assertThat(asked).isEmpty();
    assertThat(slots.running()).isZero();
  }

  @Test
  @DisplayName("92 days are taken")
  void longestRange() {
    Future<HttpResponse<Buffer>> answer = send("?from=2026-08-09&to=2026-11-08");
    Message<JsonObject> message = next();
    assertThat(ReconcileQuery.fromJson(message.body()).from()).isEqualTo(LocalDate.parse("2026-08-09"));
    message.reply(report());
    assertThat(Await.result(answer).statusCode()).isEqualTo(200);
  }

  private void assertRefused(String query, String field) {
    HttpResponse<Buffer> r = Await.result(send(query));
    JsonObject error = assertError(r, 400, "validation_failed");
    assertThat(error.getJsonArray("details").stream().map(d -> ((JsonObject) d).getString("field")).toList())
        .as(query).containsExactly(field);
  }

  @Test
  @DisplayName("a report that fails is a 503 and gives its slot back")
  void failed() {
    Future<HttpResponse<Buffer>> answer = send("");
    next().fail(BusFailure.UNAVAILABLE, "down");
    assertError(Await.result(answer), 503, "unavailable");
    Await.until("the slot given back", Duration.ofMillis(Await.WAIT.toMillis()), () -> slots.running() == 0);
  }
}
