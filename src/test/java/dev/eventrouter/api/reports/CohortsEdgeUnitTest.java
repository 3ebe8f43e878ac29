package dev.eventrouter.api.reports;

import dev.eventrouter.bus.Addresses;
import dev.eventrouter.bus.BusFailure;
import dev.eventrouter.config.ApiKeys;
import dev.eventrouter.config.HttpConfig;
import dev.eventrouter.config.RateLimitConfig;
import dev.eventrouter.config.ReportConfig;
import dev.eventrouter.config.ReportsConfig;
import dev.eventrouter.config.WorkspaceConfig;
import dev.eventrouter.event.CohortQuery;
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
 * The cohort report's route at the edge, against a report verticle the test plays (no database): the query each
 * request makes, the CSV, each refusal named, and a report's slot given back however it ends.
 */
@ExtendWith(VertxExtension.class)
class CohortsEdgeUnitTest {

  private static final UUID WS = UUID.fromString("7c9e6679-7425-40de-944b-e07fc1f90ae7");
  private static final String KEY = "edge-cohort-key-1";
  private static final String BERLIN = "Europe/Berlin";
  private static final long TIMEOUT_MS = 60_000;

  private WebClient client;
  private int port;
  private ReportSlots slots;
  private final BlockingQueue<Message<JsonObject>> asked = new LinkedBlockingQueue<>();

  @BeforeEach
  void start(Vertx vertx) {
    Await.result(vertx.eventBus().<JsonObject>consumer(Addresses.REPORTS_COHORTS, asked::add).completion());
    HttpConfig http = new HttpConfig("127.0.0.1", 0, 2048, 1, TIMEOUT_MS);
    byte[] hash = HexFormat.of().parseHex(ApiKeys.configValue(KEY).substring(ApiKeys.PREFIX.length()));
    WorkspaceConfig workspace = new WorkspaceConfig(WS, "w", List.of(hash), List.of(), new RateLimitConfig(1000, 1000),
        null, 28, List.of(), Map.of(), List.of(), List.of(), 7,
        new ReportConfig("EUR", Map.of(), List.of("FTD"), ZoneId.of(BERLIN)));
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
    return client.get(port, "127.0.0.1", "/api/v1/reports/cohorts" + query).putHeader("x-api-key", KEY).send();
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

  private static JsonObject age(int age, String revenue, Long payers, Double roas) {
    return new JsonObject().put("age", age).put("revenue", revenue).put("payers", payers).put("roas", roas);
  }

  /** One cohort of a campaign named as a formula, and the totals; day 7 not reached. */
  private static JsonObject report() {
    JsonArray ages = new JsonArray().add(age(0, "12.50", 2L, 0.5)).add(age(7, null, null, null));
    JsonObject row = new JsonObject().put("group", new JsonObject().put("campaign_id", "=1+1")
        .put("click_week", "2026-11-02")).put("clicks", 10).put("cost", "25.00").put("ages", ages);
    JsonObject totals = new JsonObject().put("clicks", 10).put("cost", null).put("ages", ages.copy());
    return new JsonObject().put("ages", new JsonArray().add(0).add(7)).put("currency", "EUR")
        .put("rows", new JsonArray().add(row)).put("totals", totals).put("cut", false)
        .put("rolled_up_to", "2026-11-10T00:00:00Z");
  }

  @Test
  @DisplayName("a request's query: the click days in the workspace's zone, the groups with the week, the funnel's "
      + "groups that price them (the week as the day), the ages in order, the filters; the answer says what it is")
  void query() {
    Future<HttpResponse<Buffer>> answer = send("?from=2026-11-02&to=2026-11-08&group_by=campaign_id,click_week"
        + "&ages=7,0,7&filter=utm_source:fb&tz=" + BERLIN);
    Message<JsonObject> message = next();
    CohortQuery query = CohortQuery.fromJson(message.body());
    assertThat(query.workspaceId()).isEqualTo(WS);
    assertThat(query.from()).isEqualTo(LocalDate.parse("2026-11-02"));
    assertThat(query.to()).isEqualTo(LocalDate.parse("2026-11-08"));
    assertThat(query.groupBy()).containsExactly("campaign_id", "click_week");
    assertThat(query.funnel().groupBy()).containsExactly("campaign_id", "day");
    assertThat(query.ages()).containsExactly(0, 7);
    assertThat(query.filters()).isEqualTo(Map.of("utm_source", List.of("fb")));
    assertThat(query.funnel().zone()).isEqualTo(ZoneId.of(BERLIN));
    assertThat(query.funnel().currency()).isEqualTo("EUR");
    assertThat(query.funnel().from().toString()).isEqualTo("2026-11-01T23:00:00Z");
    assertThat(slots.running()).isEqualTo(1);
    message.reply(report());
    HttpResponse<Buffer> r = Await.result(answer);
    assertThat(r.statusCode()).as(r.bodyAsString()).isEqualTo(200);
    JsonObject data = r.bodyAsJsonObject().getJsonObject("data");
    assertThat(data.getString("from")).isEqualTo("2026-11-02");
    assertThat(data.getString("to")).isEqualTo("2026-11-08");
    assertThat(data.getString("tz")).isEqualTo(BERLIN);
    assertThat(data.getJsonArray("group_by")).containsExactly("campaign_id", "click_week");
    Await.until("the slot given back", Duration.ofMillis(Await.WAIT.toMillis()), () -> slots.running() == 0);
  }

  @Test
  @DisplayName("without parameters: the last 7 click days, by click day, the default ages")
  void defaults() {
    Future<HttpResponse<Buffer>> answer = send("");
    Message<JsonObject> message = next();
    CohortQuery query = CohortQuery.fromJson(message.body());
    LocalDate today = LocalDate.now(ZoneId.of(BERLIN));
    assertThat(query.to()).isIn(today, today.minusDays(1)); // a request made across midnight
    assertThat(query.from()).isEqualTo(query.to().minusDays(6));
    assertThat(query.groupBy()).containsExactly(CohortQuery.CLICK_DAY);
    assertThat(query.funnel().groupBy()).containsExactly("day");
    assertThat(query.ages()).containsExactly(0, 1, 3, 7, 14, 30);
    assertThat(query.filters()).isEmpty();
    message.reply(report());
    assertThat(Await.result(answer).statusCode()).isEqualTo(200);
  }

  @Test
  @DisplayName("CSV: the groups, clicks, cost, each age's revenue, payers and ROAS; a formula-like group as text, an "
      + "age not reached empty, the totals last")
  void csv() {
    Future<HttpResponse<Buffer>> answer = send("?group_by=campaign_id,click_week&ages=0,7&format=csv");
    next().reply(report());
    HttpResponse<Buffer> r = Await.result(answer);
    assertThat(r.statusCode()).isEqualTo(200);
    assertThat(r.getHeader("content-type")).isEqualTo("text/csv; charset=utf-8");
    assertThat(r.getHeader("content-disposition")).isEqualTo("attachment; filename=\"cohorts.csv\"");
    assertThat(r.bodyAsString()).isEqualTo("campaign_id,click_week,clicks,cost,revenue_d0,payers_d0,roas_d0,"
        + "revenue_d7,payers_d7,roas_d7\r\n'=1+1,2026-11-02,10,25.00,12.50,2,0.5,,,\r\n"
        + "total,,10,,12.50,2,0.5,,,\r\n");
  }

  @Test
  @DisplayName("every bad parameter named in one 400, and no slot taken: another zone, an unknown parameter, a day "
      + "filter, an age out of range, three dimensions, two day groups, a bad format, from after to")
  void refusals() {
    assertRefused("?tz=UTC", "tz");
    assertRefused("?tz=%2B14:00", "tz");
    assertRefused("?colour=red", "colour");
    assertRefused("?filter=day:2026-11-01", "filter");
    assertRefused("?ages=0,366", "ages");
    assertRefused("?ages=0,x", "ages");
    assertRefused("?ages=0,1,2,3,4,5,6,7,8,9,10,11,12", "ages");
    assertRefused("?group_by=campaign_id,ad_id,country", "group_by");
    assertRefused("?group_by=click_day,click_week", "group_by");
    assertRefused("?group_by=week", "group_by");
    assertRefused("?format=xml", "format");
    assertRefused("?from=2026-11-09&to=2026-11-08", "from");
    assertRefused("?from=2025-01-01&to=2026-11-08", "from");
    HttpResponse<Buffer> r = Await.result(send("?tz=UTC&ages=-1&format=pdf"));
    JsonObject error = assertError(r, 400, "validation_failed");
    assertThat(error.getJsonArray("details").stream().map(d -> ((JsonObject) d).getString("field")).toList())
        .containsExactlyInAnyOrder("tz", "ages", "format");
    assertThat(asked).isEmpty();
    assertThat(slots.running()).isZero();
  }

  @Test
  @DisplayName("taken at each bound: 366 click days (one more refused), an age of 365, 12 ages, two dimensions with "
      + "the click day or without it")
  void bounds() {
    for (String query : List.of("?from=2025-11-08&to=2026-11-08", "?ages=0,365", "?ages=0,1,2,3,4,5,6,7,8,9,10,11",
        "?group_by=campaign_id,ad_id,click_day", "?group_by=campaign_id,ad_id")) {
      Future<HttpResponse<Buffer>> answer = send(query);
      next().reply(report());
      assertThat(Await.result(answer).statusCode()).as(query).isEqualTo(200);
    }
    assertRefused("?from=2025-11-07&to=2026-11-08", "from");
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
    Future<HttpResponse<Buffer>> answer = send("?ages=0");
    next().fail(BusFailure.UNAVAILABLE, "down");
    assertError(Await.result(answer), 503, "unavailable");
    Await.until("the slot given back", Duration.ofMillis(Await.WAIT.toMillis()), () -> slots.running() == 0);
  }
}
