package dev.eventrouter.forward;

import dev.eventrouter.config.ConfigLoader;
import dev.eventrouter.config.LiveConfig;
import dev.eventrouter.support.Await;
import dev.eventrouter.support.FakeAdNetworks;
import dev.eventrouter.support.HttpProxy;
import dev.eventrouter.support.LogCapture;
import dev.eventrouter.support.Socks5Proxy;
import dev.eventrouter.support.TestApp;
import io.vertx.core.MultiMap;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.sqlclient.Row;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.Map;

import static dev.eventrouter.support.TestApp.KEY_A;
import static dev.eventrouter.support.TestApp.WS_A;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A proxy per integration, end to end: the Meta integration's requests (its credential test's too) go through a
 * small HTTP proxy, the same over TLS, and a SOCKS5 proxy, each with credentials from the environment; the fake Meta
 * sees the proxy's address (127.0.0.2), while TikTok, without a proxy, is reached directly. A dead proxy is a failed
 * attempt with a clear last_error, retried. Real PostgreSQL.
 */
class ProxyTest extends FakeNetworksTest {

  private static final String USER = "buyer-de";
  private static final String PASSWORD = "pr0xy:p@ss/word";
  private static final Map<String, String> ENV = Map.of("PROXY_PASSWORD", PASSWORD);

  private HttpProxy http;
  private HttpProxy https;
  private Socks5Proxy socks;

  @BeforeAll
  void startProxies() {
    http = HttpProxy.start(vertx, false, USER, PASSWORD);
    https = HttpProxy.start(vertx, true, USER, PASSWORD);
    socks = Socks5Proxy.start(vertx, USER, PASSWORD);
  }

  @AfterAll
  void stopProxies() {
    http.stop();
    https.stop();
    socks.stop();
  }

  private void start(Object proxy) {
    JsonObject config = ForwardingTestConfig.config(databaseUrl, fake.baseUrl(),
        new JsonObject().put("proxy", proxy));
    app = TestApp.start(vertx, new LiveConfig(new ConfigLoader(ENV).resolve(config)));
  }

  /** The object form: the password from the environment as it is, no encoding. */
  private static JsonObject proxy(String url) {
    return new JsonObject().put("url", url).put("username", USER).put("password", "${PROXY_PASSWORD}");
  }

  private String post() {
    var response = app.postEvent(KEY_A, new JsonObject().put("workspace_id", WS_A).put("event_name", "FTD")
        .put("telegram_id", 555).put("value", 20).put("currency", "EUR"));
    assertThat(response.statusCode()).as(response.bodyAsString()).isEqualTo(200);
    return response.bodyAsJsonObject().getJsonObject("data").getString("event_id");
  }

  private void delivered(String eventId) {
    Await.until("Meta and TikTok got it", DEADLINE, () -> fake.accepted("meta").containsKey(eventId)
        && fake.accepted("tiktok").containsKey(eventId));
    assertThat(fake.received("meta")).extracting(FakeAdNetworks.Received::from).containsOnly(HttpProxy.OUTGOING_ADDRESS);
    assertThat(fake.received("tiktok")).extracting(FakeAdNetworks.Received::from).containsOnly("127.0.0.1");
  }

  private static String basic() {
    return "Basic " + Base64.getEncoder().encodeToString((USER + ":" + PASSWORD).getBytes(StandardCharsets.UTF_8));
  }

  @Test
  @DisplayName("an http proxy with credentials from ${ENV} carries Meta's requests and its credential test; the API "
      + "shows where the proxy is, never its password, and neither do the logs")
  void httpProxy() {
    LogCapture logs = LogCapture.start();
    try {
      start(proxy("http://127.0.0.1:" + http.port()));
      delivered(post());
      String metaUrl = fake.baseUrl() + "/v25.0/1234567890/events";
      assertThat(http.seen()).isNotEmpty().allSatisfy(seen -> {
        assertThat(seen.method()).isEqualTo("POST");
        assertThat(seen.target()).startsWith(metaUrl);
        assertThat(seen.authorization()).isEqualTo(basic());
      });
      int before = http.seen().size();
      var test = app.post("/api/v1/integrations/meta-main/test?test_event_code=TEST123", MultiMap.caseInsensitiveMultiMap()
          .add("x-api-key", KEY_A), Buffer.buffer());
      assertThat(test.statusCode()).as(test.bodyAsString()).isEqualTo(200);
      assertThat(test.bodyAsJsonObject().getJsonObject("data").getString("verdict")).isEqualTo("accepted");
      assertThat(http.seen()).hasSize(before + 1);

      JsonArray integrations = app.get("/api/v1/integrations", KEY_A).bodyAsJsonObject()
          .getJsonObject("data").getJsonArray("integrations");
      assertThat(integrations.getJsonObject(0).getString("proxy")).isEqualTo("http://127.0.0.1:" + http.port());
      assertThat(integrations.getJsonObject(1).getValue("proxy")).isNull();
      assertThat(integrations.encode()).doesNotContain(PASSWORD).doesNotContain(USER);
    } finally {
      logs.stop();
    }
    assertThat(logs.text()).doesNotContain(PASSWORD);
  }

  @Test
  @DisplayName("a socks5 proxy, its credentials percent-encoded in the URL, carries Meta's requests to the address")
  void socks5Proxy() {
    start("socks5://" + USER + ":" + PASSWORD.replace(":", "%3A").replace("@", "%40").replace("/", "%2F")
        + "@127.0.0.1:" + socks.port());
    delivered(post());
    String fakeAddress = fake.baseUrl().substring("http://".length());
    assertThat(socks.seen()).isNotEmpty()
        .allSatisfy(seen -> assertThat(seen).isEqualTo(new Socks5Proxy.Seen(USER, fakeAddress)));
  }

  @Test
  @DisplayName("an https proxy is reached over TLS, checked against the CA in ca_file, and carries Meta's requests")
  void httpsProxy() {
    start(proxy("https://127.0.0.1:" + https.port()).put("ca_file", HttpProxy.CERT));
    delivered(post());
    assertThat(https.seen()).isNotEmpty()
        .allSatisfy(seen -> assertThat(seen.authorization()).isEqualTo(basic()));
  }

  @Test
  @DisplayName("a dead proxy: the delivery fails with last_error naming the proxy (not its password) and is retried "
      + "like any other failure")
  void deadProxy() {
    start(proxy("http://127.0.0.1:1"));
    String eventId = post();
    long id = Long.parseLong(eventId.substring("evt_".length()));
    Await.until("attempted twice", DEADLINE, () -> {
      List<Row> rows = app.rows("SELECT attempts FROM deliveries WHERE event_id = $1 AND network = 'meta'", id);
      return !rows.isEmpty() && rows.get(0).getInteger("attempts") >= 2;
    });
    Row meta = app.rows("SELECT status, last_error FROM deliveries WHERE event_id = $1 AND network = 'meta'", id)
        .get(0);
    assertThat(meta.getString("status")).isNotEqualTo("delivered").isNotEqualTo("failed");
    assertThat(meta.getString("last_error")).startsWith("meta request failed: ")
        .endsWith("(through proxy http://127.0.0.1:1)").doesNotContain(PASSWORD);
    assertThat(fake.accepted("meta")).doesNotContainKey(eventId);
    Await.until("TikTok, without the proxy, got it", DEADLINE, () -> fake.accepted("tiktok").containsKey(eventId));
  }
}
