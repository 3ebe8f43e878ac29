package dev.eventrouter.forward;

import dev.eventrouter.support.FakeAdNetworks;
import dev.eventrouter.support.FakeAdNetworks.Reply;
import dev.eventrouter.support.LogCapture;
import dev.eventrouter.support.TestApp;
import io.vertx.core.MultiMap;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import static dev.eventrouter.support.TestApp.KEY_A;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code POST /api/v1/integrations/{id}/test}: one test event, with the integration's test_event_code, to the real
 * fake networks, answered with their verdict in their words; nothing stored, the token never echoed back.
 */
class CredentialTestApiTest extends FakeNetworksTest {

  private void start(String metaToken, JsonObject... tiktokOverrides) {
    JsonObject config = ForwardingTestConfig.config(databaseUrl, fake.baseUrl(),
        new JsonObject().put("access_token", metaToken).put("test_event_code", "TEST123"));
    JsonArray integrations = config.getJsonArray("workspaces").getJsonObject(0).getJsonArray("integrations");
    for (JsonObject override : tiktokOverrides) {
      integrations.getJsonObject(1).mergeIn(override);
    }
    app = TestApp.start(vertx, config);
  }

  private HttpResponse<Buffer> test(String path) {
    return app.post("/api/v1/integrations/" + path, MultiMap.caseInsensitiveMultiMap().add("x-api-key", KEY_A),
        Buffer.buffer());
  }

  @Test
  @DisplayName("Meta's api_base answering a redirect to an internal service: 'refused' with the status, no body from "
      + "the target, and the target never sees the request (nor its token)")
  void redirectNotFollowed() {
    List<MultiMap> internalHits = new CopyOnWriteArrayList<>();
    HttpServer internal = vertx.createHttpServer().requestHandler(request -> {
      internalHits.add(request.headers());
      request.response().putHeader("Content-Type", "application/json")
          .end(FakeAdNetworks.metaError(100, null, "internal-only-secret").encode());
    }).listen(0, "127.0.0.1").await();
    try {
      fake.scriptMeta(body -> new Reply(303, null, Map.of("Location",
          "http://127.0.0.1:" + internal.actualPort() + "/secret")));
      start(FakeAdNetworks.META_TOKEN);
      JsonObject verdict = test("meta-main/test").bodyAsJsonObject().getJsonObject("data");
      assertThat(verdict.getString("verdict")).isEqualTo("refused");
      assertThat(verdict.getInteger("http_status")).isEqualTo(303);
      assertThat(verdict.getString("message")).isEqualTo("meta HTTP 303 (redirects are not followed)");
      assertThat(verdict.getValue("response")).isNull();
      assertThat(verdict.encode()).doesNotContain("internal-only-secret");
      assertThat(internalHits).isEmpty();
    } finally {
      internal.close().await();
    }
  }

  @Test
  @DisplayName("a working Meta token: one event with test_event_code goes out, 'accepted' with Meta's answer, and "
      + "nothing is stored or delivered")
  void accepted() {
    start(FakeAdNetworks.META_TOKEN);
    HttpResponse<Buffer> response = test("meta-main/test");
    assertThat(response.statusCode()).isEqualTo(200);
    JsonObject verdict = response.bodyAsJsonObject().getJsonObject("data");
    assertThat(verdict.getString("verdict")).isEqualTo("accepted");
    assertThat(verdict.getString("network")).isEqualTo("meta");
    assertThat(verdict.getString("event_name")).isEqualTo("CompleteRegistration");
    assertThat(verdict.getInteger("http_status")).isEqualTo(200);
    assertThat(verdict.getJsonObject("response").getInteger("events_received")).isOne();
    assertThat(fake.received("meta")).singleElement().satisfies(request -> {
      assertThat(request.body().getString("test_event_code")).isEqualTo("TEST123");
      assertThat(request.eventIds()).containsExactly(verdict.getString("event_id"));
    });
    assertThat(fake.received("tiktok")).isEmpty();
    assertThat(app.count("events")).isZero();
    assertThat(app.count("deliveries")).isZero();
  }

  @Test
  @DisplayName("a refused Meta token: 'unauthorized' with Meta's own error (code 190), the token redacted from it "
      + "and from the log, and the integration not paused")
  void unauthorized() {
    LogCapture logs = LogCapture.start();
    start("expired-token-77");
    JsonObject verdict = test("meta-main/test").bodyAsJsonObject().getJsonObject("data");
    logs.stop();
    assertThat(verdict.getString("verdict")).isEqualTo("unauthorized");
    assertThat(verdict.getInteger("http_status")).isEqualTo(400);
    assertThat(verdict.getJsonObject("response").getJsonObject("error").getInteger("code")).isEqualTo(190);
    assertThat(verdict.getString("message")).contains("190");
    assertThat(verdict.encode()).doesNotContain("expired-token-77").contains("***");
    assertThat(logs.text()).contains("credential test: unauthorized").doesNotContain("expired-token-77");
    assertThat(app.count("integration_pauses")).isZero();
  }

  @Test
  @DisplayName("TikTok, a monetary event named in the query: CompletePayment with a value and the test code at the "
      + "top level; TikTok's refusal code 40002 comes back as 'refused' in TikTok's words")
  void tiktok() {
    start(FakeAdNetworks.META_TOKEN, new JsonObject().put("test_event_code", "TT-TEST"));
    JsonObject verdict = test("tiktok-main/test?event_name=FTD").bodyAsJsonObject().getJsonObject("data");
    assertThat(verdict.getString("verdict")).isEqualTo("accepted");
    assertThat(verdict.getString("event_name")).isEqualTo("CompletePayment");
    assertThat(verdict.getJsonObject("response").getInteger("code")).isZero();
    JsonObject sent = fake.received("tiktok").get(0).body();
    assertThat(sent.getString("test_event_code")).isEqualTo("TT-TEST");
    assertThat(sent.getJsonArray("data").getJsonObject(0).getJsonObject("properties").getValue("value"))
        .hasToString("1");

    JsonObject fromQuery = test("tiktok-main/test?test_event_code=TT-QUERY").bodyAsJsonObject().getJsonObject("data");
    assertThat(fromQuery.getString("test_event_code")).isEqualTo("TT-QUERY");
    assertThat(fake.received("tiktok").get(1).body().getString("test_event_code"))
        .as("the request's code wins over the config's").isEqualTo("TT-QUERY");

    fake.scriptTikTok(body -> Reply.of(200, FakeAdNetworks.tiktokCode(40002, "data.0.event: Not a valid event")));
    JsonObject refused = test("tiktok-main/test").bodyAsJsonObject().getJsonObject("data");
    assertThat(refused.getString("verdict")).isEqualTo("refused");
    assertThat(refused.getString("message")).isEqualTo("tiktok code 40002: data.0.event: Not a valid event");
    assertThat(refused.getJsonObject("response").getString("message")).isEqualTo("data.0.event: Not a valid event");
  }

  @Test
  @DisplayName("an integration in dry_run and disabled is still tested for real: how it is checked before it is on")
  void dryRunAndDisabled() {
    JsonObject config = ForwardingTestConfig.config(databaseUrl, fake.baseUrl(), new JsonObject()
        .put("dry_run", true).put("enabled", false));
    app = TestApp.start(vertx, config);
    JsonObject verdict = test("meta-main/test?test_event_code=T1").bodyAsJsonObject().getJsonObject("data");
    assertThat(verdict.getString("verdict")).isEqualTo("accepted");
    assertThat(fake.received("meta")).singleElement()
        .satisfies(request -> assertThat(request.body().getString("test_event_code")).isEqualTo("T1"));
  }

  @Test
  @DisplayName("a network that does not answer in time: 'unavailable', within the request timeout")
  void unavailable() {
    start(FakeAdNetworks.META_TOKEN);
    fake.scriptMeta(body -> Reply.hang());
    JsonObject verdict = test("meta-main/test").bodyAsJsonObject().getJsonObject("data");
    assertThat(verdict.getString("verdict")).isEqualTo("unavailable");
    assertThat(verdict.getString("message")).startsWith("meta request failed");
    assertThat(verdict.containsKey("http_status")).isFalse();
  }

  @Test
  @DisplayName("refused before any request: no test_event_code in the config or the query (422), an unknown "
      + "integration (404), a bad event_name or test_event_code (400), another workspace's key (404)")
  void refusals() {
    start(FakeAdNetworks.META_TOKEN);
    HttpResponse<Buffer> noCode = test("tiktok-main/test");
    assertThat(noCode.statusCode()).isEqualTo(422);
    assertThat(noCode.bodyAsJsonObject().getJsonObject("error").getString("code"))
        .isEqualTo("test_event_code_required");
    HttpResponse<Buffer> unknown = test("nope/test");
    assertThat(unknown.statusCode()).isEqualTo(404);
    assertThat(unknown.bodyAsJsonObject().getJsonObject("error").getString("message")).contains("nope");
    HttpResponse<Buffer> badName = test("meta-main/test?event_name=%3Cscript%3E");
    assertThat(badName.statusCode()).isEqualTo(400);
    assertThat(badName.bodyAsJsonObject().getJsonObject("error").getJsonArray("details").getJsonObject(0)
        .getString("field")).isEqualTo("event_name");
    HttpResponse<Buffer> badCode = test("tiktok-main/test?test_event_code=a%20b");
    assertThat(badCode.statusCode()).isEqualTo(400);
    assertThat(badCode.bodyAsJsonObject().getJsonObject("error").getJsonArray("details").getJsonObject(0)
        .getString("field")).isEqualTo("test_event_code");
    HttpResponse<Buffer> otherWorkspace = app.post("/api/v1/integrations/meta-main/test",
        MultiMap.caseInsensitiveMultiMap().add("x-api-key", TestApp.KEY_B), Buffer.buffer());
    assertThat(otherWorkspace.statusCode()).isEqualTo(404);
    assertThat(fake.received("meta")).isEmpty();
    assertThat(fake.received("tiktok")).isEmpty();
  }

  @Test
  @DisplayName("a node without the forward role, in a cluster of none: 503 saying a forward node is needed")
  void noForwarder() {
    JsonObject config = ForwardingTestConfig.config(databaseUrl, fake.baseUrl(),
        new JsonObject().put("test_event_code", "TEST123"));
    config.put("roles", new JsonArray().add("ingest"));
    app = TestApp.start(vertx, config);
    HttpResponse<Buffer> response = test("meta-main/test");
    assertThat(response.statusCode()).isEqualTo(503);
    assertThat(response.getHeader("Retry-After")).isNotNull();
    assertThat(response.bodyAsJsonObject().getJsonObject("error").getString("message")).contains("forward role");
    assertThat(fake.received("meta")).isEmpty();
  }
}
