package dev.eventrouter;

import dev.eventrouter.config.ApiKeys;
import dev.eventrouter.support.Await;
import dev.eventrouter.support.FakeAdNetworks;
import dev.eventrouter.support.ServiceProcess;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.WebClient;
import io.vertx.junit5.VertxExtension;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntFunction;
import java.util.function.IntUnaryOperator;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The packaged jar as the README runs a cluster on one machine: {@code postgres} serving the shared database, and
 * two clustered nodes with both roles, each a JVM of its own. Events posted to both are stored once and delivered
 * once each by event_id.
 */
@ExtendWith(VertxExtension.class)
class ClusterProcessIT {

  private static final String WORKSPACE = "7c9e6679-7425-40de-944b-e07fc1f90ae7";
  private static final String KEY = "cluster-test-key-5d2e";
  private static final int PG_PORT = 15499;
  private static final int[] HTTP_PORTS = {18481, 18482};
  /** Each node's management listener: its HTTP port + 10 (18491, 18492, 18493). */
  private static final int MANAGEMENT_OFFSET = 10;
  private static final int[] CLUSTER_PORTS = {15891, 15892};
  /** The node that joins after one died. */
  private static final int HEIR_HTTP_PORT = 18483;
  private static final int HEIR_CLUSTER_PORT = 15893;
  private static final int EVENTS = 200;
  private static final Duration START = Duration.ofSeconds(90);

  // Kept when a test fails: the nodes' logs say why.
  @TempDir(cleanup = CleanupMode.ON_SUCCESS)
  Path dir;
  private final List<ServiceProcess> processes = new ArrayList<>();
  private String databaseUrl;

  @AfterEach
  void stop() {
    // Nodes first, the database last, each cleanly; every one is stopped even when one of them is not clean.
    AssertionError first = null;
    for (int i = processes.size() - 1; i >= 0; i--) {
      try {
        processes.get(i).stop();
      } catch (AssertionError notClean) {
        first = first == null ? notClean : first;
      }
    }
    if (first != null) {
      throw first;
    }
  }

  @Test
  @DisplayName("a forward node killed with deliveries claimed and in flight: a new forward node sends each of them "
      + "once, after the dead node's lease")
  void killedForwardNodeTakenOver(Vertx vertx) throws IOException {
    FakeAdNetworks fake = FakeAdNetworks.start(vertx);
    startPostgres();
    ServiceProcess ingest = node("ingest", HTTP_PORTS[0], CLUSTER_PORTS[0],
        List.of(CLUSTER_PORTS[1], HEIR_CLUSTER_PORT), fake.baseUrl(), "ingest");
    ServiceProcess doomed = node("doomed", HTTP_PORTS[1], CLUSTER_PORTS[1],
        List.of(CLUSTER_PORTS[0], HEIR_CLUSTER_PORT), fake.baseUrl(), "forward");
    ingest.awaitUp(START);
    doomed.awaitUp(START);

    fake.scriptMeta(body -> FakeAdNetworks.Reply.hang());
    WebClient client = WebClient.create(vertx);
    List<String> ids = post(client, 20, n -> HTTP_PORTS[0], n -> registration(2000 + n));
    Await.until("the doomed node's first Meta request in flight", Duration.ofSeconds(30),
        () -> !fake.received("meta").isEmpty());
    doomed.kill();
    fake.scriptMeta(body -> null);

    ServiceProcess heir = node("heir", HEIR_HTTP_PORT, HEIR_CLUSTER_PORT, List.of(CLUSTER_PORTS[0]), fake.baseUrl(),
        "forward");
    heir.awaitUp(START);
    Await.until("every event accepted by Meta", Duration.ofSeconds(60),
        () -> fake.accepted("meta").keySet().containsAll(ids));
    assertThat(fake.accepted("meta")).as("each once: the dead node's hanging requests were never answered")
        .hasSize(ids.size()).allSatisfy((id, count) -> assertThat(count).as(id).isOne());
    Await.until("every event at TikTok", Duration.ofSeconds(30),
        () -> fake.accepted("tiktok").keySet().containsAll(ids));
    client.close();
    fake.stop();
  }

  @Test
  @DisplayName("a forward node frozen, still a member until its heartbeats are missed for 15 s: events posted "
      + "meanwhile are answered, the other forward node delivers each once before the frozen one is dropped, and a "
      + "node stopped meanwhile stops within its grace")
  void frozenForwardNodeDoesNotStallDelivery(Vertx vertx) throws IOException {
    FakeAdNetworks fake = FakeAdNetworks.start(vertx);
    startPostgres();
    ServiceProcess ingest = node("ingest", HTTP_PORTS[0], CLUSTER_PORTS[0],
        List.of(CLUSTER_PORTS[1], HEIR_CLUSTER_PORT), fake.baseUrl(), "ingest");
    ServiceProcess frozen = node("frozen", HTTP_PORTS[1], CLUSTER_PORTS[1],
        List.of(CLUSTER_PORTS[0], HEIR_CLUSTER_PORT), fake.baseUrl(), "forward");
    ServiceProcess awake = node("awake", HEIR_HTTP_PORT, HEIR_CLUSTER_PORT,
        List.of(CLUSTER_PORTS[0], CLUSTER_PORTS[1]), fake.baseUrl(), "forward");
    ingest.awaitUp(START);
    frozen.awaitUp(START);
    awake.awaitUp(START);
    WebClient client = WebClient.create(vertx);
    Await.until("three members", START, () -> members(client) == 3);

    frozen.freeze();
    List<String> ids = post(client, 50, n -> HTTP_PORTS[0], n -> registration(3000 + n));
    // The ingest node's wake-ups may wait behind a subscription lookup the frozen member holds up (until it is
    // dropped); the awake node's own scans keep delivering meanwhile.
    Await.until("every event at both networks", Duration.ofSeconds(20),
        () -> fake.accepted("meta").keySet().containsAll(ids) && fake.accepted("tiktok").keySet().containsAll(ids));
    assertThat(members(client)).as("the frozen node is still a member: its subscriptions stand").isEqualTo(3);
    for (String network : new String[] {"meta", "tiktok"}) {
      assertThat(fake.accepted(network)).as(network).hasSize(ids.size())
          .allSatisfy((id, count) -> assertThat(count).as(id).isOne());
    }
    client.close();
    fake.stop();
  }

  private static JsonObject registration(long telegramId) {
    return new JsonObject().put("event_name", "REG").put("telegram_id", telegramId).put("workspace_id", WORKSPACE);
  }

  /**
   * Posts the events all at once, each to the port chosen for it, and waits for every answer (each within 10 s:
   * an answer held up by another member would fail the test); returns the event ids, in posting order.
   */
  private static List<String> post(WebClient client, int events, IntUnaryOperator port,
                                   IntFunction<JsonObject> event) {
    List<Future<String>> posted = new ArrayList<>();
    for (int n = 0; n < events; n++) {
      posted.add(client.post(port.applyAsInt(n), "127.0.0.1", "/api/v1/events/custom").putHeader("x-api-key", KEY)
          .timeout(10_000)
          .sendJsonObject(event.apply(n))
          .map(response -> response.bodyAsJsonObject().getJsonObject("data").getString("event_id")));
    }
    return Future.all(posted).await().list();
  }

  /** The members the ingest node sees, from its readiness answer. */
  private static int members(WebClient client) {
    JsonObject ready = client.get(HTTP_PORTS[0] + MANAGEMENT_OFFSET, "127.0.0.1", "/health/ready").send().await()
        .bodyAsJsonObject();
    return ready.getJsonArray("checks").stream().map(c -> (JsonObject) c)
        .filter(c -> "cluster".equals(c.getString("id")))
        .mapToInt(c -> c.getJsonObject("data").getInteger("members")).findFirst().orElse(0);
  }

  /** {@code java -jar event-router.jar postgres}: the database both nodes share, as the README starts it. */
  private void startPostgres() {
    ServiceProcess postgres = ServiceProcess.jar(List.of("postgres", "--data-dir", dir.resolve("pg").toString(),
        "--port", String.valueOf(PG_PORT)), dir.resolve("postgres.log"), PG_PORT);
    processes.add(postgres);
    postgres.awaitLog("PostgreSQL serving", START);
    // The URL carries the password this start drew: the nodes connect with it, as the README's nodes do.
    Matcher url = Pattern.compile("DATABASE_URL=(\\S+)").matcher(postgres.logTail());
    assertThat(url.find()).as("the postgres command prints the nodes' DATABASE_URL").isTrue();
    databaseUrl = url.group(1);
  }

  private ServiceProcess node(String name, int httpPort, int clusterPort, List<Integer> others, String fakeBase,
                              String... roles) throws IOException {
    Path config = dir.resolve(name + ".json");
    JsonArray roleNames = new JsonArray(List.of((Object[]) roles));
    Files.writeString(config, config(httpPort, clusterPort, others, fakeBase, roleNames).encodePrettily());
    ServiceProcess process = ServiceProcess.start(config, dir.resolve(name + ".log"), httpPort);
    processes.add(process);
    return process;
  }

  @Test
  @DisplayName("two clustered jar processes sharing one PostgreSQL: every event posted to either is stored and "
      + "delivered once")
  void twoNodes(Vertx vertx) throws IOException {
    FakeAdNetworks fake = FakeAdNetworks.start(vertx);
    startPostgres();
    for (int node = 0; node < 2; node++) {
      node("node-" + node, HTTP_PORTS[node], CLUSTER_PORTS[node], List.of(CLUSTER_PORTS[1 - node]), fake.baseUrl(),
          "ingest", "forward");
    }
    processes.get(1).awaitUp(START);
    processes.get(2).awaitUp(START);

    WebClient client = WebClient.create(vertx);
    List<String> ids = post(client, EVENTS, n -> HTTP_PORTS[n % 2],
        n -> registration(1000 + n).put("session_id", "c" + n));
    assertThat(ids).doesNotHaveDuplicates().hasSize(EVENTS);

    Await.until("every event at both networks", Duration.ofSeconds(60),
        () -> fake.accepted("meta").keySet().containsAll(ids) && fake.accepted("tiktok").keySet().containsAll(ids));
    for (String network : new String[] {"meta", "tiktok"}) {
      assertThat(fake.accepted(network)).as(network).hasSize(EVENTS)
          .allSatisfy((id, count) -> assertThat(count).as(id).isOne());
    }
    for (int port : HTTP_PORTS) {
      JsonObject ready = client.get(port + MANAGEMENT_OFFSET, "127.0.0.1", "/health/ready").send().await()
          .bodyAsJsonObject();
      assertThat(ready.getString("status")).isEqualTo("UP");
      assertThat(ready.getJsonArray("checks").stream().map(c -> ((JsonObject) c).getString("id")))
          .contains("cluster");
    }
    client.close();
    fake.stop();
  }

  private JsonObject config(int httpPort, int clusterPort, List<Integer> others, String fakeBase, JsonArray roles) {
    return new JsonObject()
        .put("http", new JsonObject().put("host", "127.0.0.1").put("port", httpPort))
        .put("management", new JsonObject().put("port", httpPort + MANAGEMENT_OFFSET))
        .put("database", new JsonObject().put("url", databaseUrl))
        .put("cluster", new JsonObject().put("enabled", true).put("host", "127.0.0.1").put("port", clusterPort)
            .put("members", new JsonArray(others.stream().map(p -> (Object) ("127.0.0.1:" + p)).toList())))
        .put("roles", roles)
        // A short request timeout makes a short lease: a dead node's claims come back within seconds.
        .put("delivery", new JsonObject().put("request_timeout_ms", 1000).put("scan_interval_ms", 500))
        .put("workspaces", new JsonArray().add(new JsonObject().put("id", WORKSPACE).put("name", "cluster")
            .put("api_keys", new JsonArray().add(ApiKeys.configValue(KEY)))
            .put("rate_limit", new JsonObject().put("per_second", 100_000).put("burst", 100_000))
            .put("bot_name", "cluster_test_bot")
            .put("integrations", new JsonArray().add(FakeAdNetworks.metaIntegration(fakeBase))
                .add(FakeAdNetworks.tiktokIntegration(fakeBase)))));
  }
}
