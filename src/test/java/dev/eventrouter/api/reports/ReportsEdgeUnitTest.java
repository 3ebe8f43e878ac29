package dev.eventrouter.api.reports;

import dev.eventrouter.bus.Addresses;
import dev.eventrouter.bus.BusFailure;
import dev.eventrouter.config.ApiKeys;
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
import java.util.ArrayList;
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
 * The funnel report's route at the edge, against a report verticle the test plays (no database): reports beyond a
 * workspace's or the node's running ones are answered 429 at once, and a slot is given back however its report ends.
 */
@ExtendWith(VertxExtension.class)
class ReportsEdgeUnitTest {

  private static final UUID WS = UUID.fromString("7c9e6679-7425-40de-944b-e07fc1f90ae7");
  private static final UUID OTHER = UUID.fromString("8c9e6679-7425-40de-944b-e07fc1f90ae7");
  private static final String KEY = "edge-report-key-1";
  private static final String OTHER_KEY = "edge-report-key-2";
  /** Longer than any test: a report waits for the test's answer. */
  private static final long TIMEOUT_MS = 60_000;
  private static final String PATH = "/api/v1/reports/funnel?from=2026-11-01&to=2026-11-02";

  private WebClient client;
  private int port;
  private ReportSlots slots;
  /** The reports asked for, each waiting for the test's answer. */
  private final BlockingQueue<Message<JsonObject>> asked = new LinkedBlockingQueue<>();
  /** The reports taken from {@link #asked} and not answered yet. */
  private final List<Message<JsonObject>> held = new ArrayList<>();

  @BeforeEach
  void start(Vertx vertx) {
    Await.result(vertx.eventBus().<JsonObject>consumer(Addresses.REPORTS_FUNNEL, asked::add).completion());
    HttpConfig http = new HttpConfig("127.0.0.1", 0, 2048, 1, TIMEOUT_MS);
    AccessControl access = new AccessControl(List.of(workspace(WS, KEY), workspace(OTHER, OTHER_KEY)), http,
        System::nanoTime);
    slots = new ReportSlots(limits(3, 2));
    port = EdgeServer.deploy(vertx, new HttpVerticle(http, access,
        new PrometheusMeterRegistry(PrometheusConfig.DEFAULT), HealthChecks.create(vertx), new ServerBudget(http.limits()),
        slots));
    client = WebClient.create(vertx);
  }

  @AfterEach
  void stop() {
    client.close();
  }

  private static ReportsConfig limits(int perNode, int perWorkspace) {
    ReportsConfig d = ReportsConfig.DEFAULT;
    return new ReportsConfig(d.ratesFile(), d.rollupEveryMs(), d.rollupLagMs(), d.retentionDays(),
        d.rollupBudgetPercent(), perNode, perWorkspace, d.cohorts());
  }

  private static WorkspaceConfig workspace(UUID id, String key) {
    byte[] hash = HexFormat.of().parseHex(ApiKeys.configValue(key).substring(ApiKeys.PREFIX.length()));
    return new WorkspaceConfig(id, "w", List.of(hash), List.of(), new RateLimitConfig(1000, 1000), null, 28,
        List.of(), Map.of(), List.of(), List.of(), 7, new ReportConfig("USD", Map.of(), List.of("FTD")));
  }

  private Future<HttpResponse<Buffer>> send(String key, String query) {
    return client.get(port, "127.0.0.1", PATH + query).putHeader("x-api-key", key).send();
  }

  /** Sends a report and waits until the report verticle has it: its slot is taken. */
  private Future<HttpResponse<Buffer>> running(String key) {
    Future<HttpResponse<Buffer>> answer = send(key, "");
    Message<JsonObject> message = next();
    assertThat(message.body().getString("workspace_id")).isEqualTo((KEY.equals(key) ? WS : OTHER).toString());
    held.add(message);
    return answer;
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

  private static JsonObject report() {
    JsonObject totals = new JsonObject().put("clicks", 1).put("starts", 0).put("join_requests", 0).put("joins", 0)
        .put("unsubscribes", 0).put("remaining_subscribers", 0).put("revenue", "0.00").put("events", new JsonObject())
        .put("rates", new JsonObject());
    return new JsonObject().put("currency", "USD").put("rows", new JsonArray()).put("totals", totals)
        .put("truncated", false).put("rolled_up_to", "2026-11-03T00:00:00Z");
  }

  private static void limited(HttpResponse<Buffer> r, String message) {
    JsonObject error = assertError(r, 429, "rate_limited");
    assertThat(r.getHeader("Retry-After")).isEqualTo("1");
    assertThat(error.getString("message")).isEqualTo(message);
  }

  private static final String WORKSPACE_FULL = "This workspace runs as many reports at once as it may on this node "
      + "(reports.max_concurrent_per_workspace: 2); retry after the Retry-After delay.";
  private static final String NODE_FULL = "This node runs as many reports at once as it may "
      + "(reports.max_concurrent: 3); retry after the Retry-After delay.";

  @Test
  @DisplayName("beyond a workspace's running reports, or the node's, a report is a 429 with Retry-After, never asked "
      + "for; one answered gives its slot back, and its answer says tz UTC for a UTC workspace")
  void capped() {
    Future<HttpResponse<Buffer>> first = running(KEY);
    running(KEY);
    limited(Await.result(send(KEY, "")), WORKSPACE_FULL);
    running(OTHER_KEY);
    limited(Await.result(send(OTHER_KEY, "")), NODE_FULL);
    limited(Await.result(send(KEY, "&format=csv")), WORKSPACE_FULL);
    assertThat(asked).as("no refused report is asked for").isEmpty();
    assertThat(slots.running()).isEqualTo(3);

    held.remove(0).reply(report());
    HttpResponse<Buffer> answered = Await.result(first);
    assertThat(answered.statusCode()).isEqualTo(200);
    assertThat(answered.bodyAsJsonObject().getJsonObject("data").getString("tz")).isEqualTo("UTC");
    Future<HttpResponse<Buffer>> csv = send(OTHER_KEY, "&format=csv&group_by=day");
    Message<JsonObject> message = next();
    assertThat(slots.running()).isEqualTo(3);
    message.reply(report());
    HttpResponse<Buffer> file = Await.result(csv);
    assertThat(file.statusCode()).isEqualTo(200);
    assertThat(file.bodyAsString()).startsWith("day,clicks,").contains("\r\ntotal,1,");
    held.forEach(each -> each.reply(report()));
    Await.until("every slot given back", Duration.ofMillis(Await.WAIT.toMillis()), () -> slots.running() == 0);
  }

  @Test
  @DisplayName("a report that fails is a 503 and gives its slot back")
  void failed() {
    Future<HttpResponse<Buffer>> failing = running(KEY);
    Future<HttpResponse<Buffer>> second = running(KEY);
    held.get(0).fail(BusFailure.UNAVAILABLE, "down");
    assertError(Await.result(failing), 503, "unavailable");
    assertThat(slots.running()).isEqualTo(1);
    Future<HttpResponse<Buffer>> again = running(KEY);
    assertThat(slots.running()).isEqualTo(2);
    held.get(1).reply(report());
    held.get(2).reply(report());
    assertThat(Await.result(second).statusCode()).isEqualTo(200);
    assertThat(Await.result(again).statusCode()).isEqualTo(200);
    Await.until("every slot given back", Duration.ofMillis(Await.WAIT.toMillis()), () -> slots.running() == 0);
  }

  @Test
  @DisplayName("a bad report request is a 400 and takes no slot")
  void invalidTakesNone() {
    HttpResponse<Buffer> r = Await.result(send(KEY, "&tz=%2B14:00"));
    assertError(r, 400, "validation_failed");
    assertThat(slots.running()).isZero();
    assertThat(asked).isEmpty();
  }
}
