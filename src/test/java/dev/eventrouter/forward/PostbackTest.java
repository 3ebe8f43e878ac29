package dev.eventrouter.forward;

import dev.eventrouter.config.ApiKeys;
import dev.eventrouter.config.ConfigLoader;
import dev.eventrouter.config.LiveConfig;
import dev.eventrouter.support.Await;
import dev.eventrouter.support.FakeAffiliateProgram;
import dev.eventrouter.support.LogCapture;
import dev.eventrouter.support.TestApp;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import static dev.eventrouter.support.TestApp.KEY_A;
import static dev.eventrouter.support.TestApp.WS_A;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Partner postbacks end to end: a fake affiliate program fires what real partners send (GET with its macros filled,
 * one left unexpanded, a form POST, a JSON POST, a re-fire, a status moving pending -> approved -> chargeback with a
 * value that changes, a click id not known yet), against the fake Meta and TikTok servers and a webhook receiver.
 * Real PostgreSQL.
 */
class PostbackTest extends FakeNetworksTest {

  static final String TOKEN = "pb_7Hq2Lx9Vd4Ks8Nw3Rt6Yz1Bc";
  private static final String HOOK_SECRET = "whsec-postback-0123456789";
  /** What the buyer pasted at the partner: our template with the partner's own macros. */
  private static final String TEMPLATE = "/api/v1/postbacks/" + TOKEN
      + "?subid={subid}&goal={goal}&payout={payout}&currency={currency}&status={status}&tid={trans_id}";

  private HttpServer tracker;
  private final List<JsonObject> hooked = new CopyOnWriteArrayList<>();
  private FakeAffiliateProgram partner;

  @BeforeAll
  void startTracker() {
    tracker = vertx.createHttpServer().requestHandler(request -> request.body().onSuccess(body -> {
      hooked.add(body.toJsonObject().put("uri", request.uri())
          .put("change_header", request.getHeader("X-Event-Router-Change")));
      request.response().setStatusCode(200).end();
    })).listen(0, "127.0.0.1").await();
  }

  @AfterAll
  void stopTracker() {
    tracker.close().await();
  }

  @BeforeEach
  void start() {
    JsonObject config = ForwardingTestConfig.config(databaseUrl, fake.baseUrl());
    JsonObject workspace = config.getJsonArray("workspaces").getJsonObject(0);
    workspace.getJsonArray("integrations").add(new JsonObject().put("id", "upstream").put("type", "webhook")
        .put("url", "http://127.0.0.1:" + tracker.actualPort() + "/conv?status={status}&was={previous_status}"
            + "&payout={value}")
        .put("secret", HOOK_SECRET).put("allow_private_network", true));
    workspace.put("postback_sources", new JsonArray().add(new JsonObject().put("id", "casino")
        .put("token", ApiKeys.configValue(TOKEN)).put("params", new JsonObject().put("event", "goal"))
        .put("macros", new JsonObject().put("click_id", "{subid}").put("event", "{goal}").put("value", "{payout}")
            .put("currency", "{currency}").put("status", "{status}").put("transaction_id", "{trans_id}"))
        .put("statuses", new JsonObject().put("approved", new JsonArray().add("confirmed")))));
    app = TestApp.start(vertx, new LiveConfig(new ConfigLoader(Map.of()).resolve(config)));
    partner = new FakeAffiliateProgram(app.client(), app.port(), TEMPLATE);
  }

  /**
   * What the webhook received for one event. A test's last webhook delivery may still land after the test ended
   * (while the previous service closes), so every test reads its own event's hooks only.
   */
  private List<JsonObject> hooks(String eventId) {
    return hooked.stream().filter(h -> eventId.equals(h.getString("event_id"))).toList();
  }

  private void capture(String session) {
    assertThat(app.postJson("/api/v1/sessions", KEY_A, new JsonObject().put("workspace_id", WS_A)
        .put("session_id", session).put("fbclid", "IwAR_pb").put("landing_url", "https://lp.example/x"))
        .statusCode()).isEqualTo(200);
  }

  private static JsonObject data(HttpResponse<Buffer> response) {
    assertThat(response.statusCode()).as(response.bodyAsString()).isEqualTo(200);
    return response.bodyAsJsonObject().getJsonObject("data");
  }

  private JsonObject event(String eventId) {
    return data(app.get("/api/v1/events/" + eventId, KEY_A));
  }

  private JsonArray postbacks() {
    return data(app.get("/api/v1/postbacks", KEY_A)).getJsonArray("postbacks");
  }

  @Test
  @DisplayName("a GET with the macros filled becomes a matched conversion: stored with session_source postback, "
      + "Meta, TikTok and the webhook get it; the answer is short and 200")
  void matchedGet() {
    capture("ses_pb1");
    JsonObject answer = data(partner.fireGet(Map.of("subid", "ses_pb1", "goal", "ftd", "payout", "120.5",
        "currency", "eur", "status", "confirmed", "trans_id", "T-1")));
    assertThat(answer.getString("outcome")).isEqualTo("matched");
    assertThat(answer.getString("conversion_status")).isEqualTo("approved");
    String eventId = answer.getString("event_id");

    JsonObject event = event(eventId);
    assertThat(event.getString("event_name")).isEqualTo("FTD");
    assertThat(event.getString("session_id")).isEqualTo("ses_pb1");
    assertThat(event.getString("session_source")).isEqualTo("postback");
    assertThat(event.getValue("telegram_id")).isNull();
    assertThat(event.getString("value")).isEqualTo("120.5");
    assertThat(event.getString("currency")).isEqualTo("EUR");
    assertThat(event.getString("transaction_id")).isEqualTo("T-1");
    Await.until("all three delivered", DEADLINE, () -> event(eventId).getJsonArray("deliveries").stream()
        .allMatch(d -> "delivered".equals(((JsonObject) d).getString("status"))));
    assertThat(fake.accepted("meta")).containsEntry(eventId, 1);
    assertThat(fake.accepted("tiktok")).containsEntry(eventId, 1);
    JsonObject meta = fake.lastEvent("meta", eventId);
    assertThat(meta.getString("event_name")).isEqualTo("Purchase");
    assertThat(meta.getJsonObject("custom_data").getValue("value").toString()).isEqualTo("120.5");
    assertThat(meta.getJsonObject("user_data").getString("fbc")).contains("IwAR_pb");
    assertThat(hooks(eventId)).hasSize(1);
    assertThat(hooks(eventId).get(0).getString("uri")).isEqualTo("/conv?status=approved&was=&payout=120.5");
  }

  @Test
  @DisplayName("a macro the partner left unexpanded is a 400 macro_not_expanded naming the parameter, and is logged")
  void unexpandedMacro() {
    capture("ses_pb2");
    HttpResponse<Buffer> response = partner.fireGet(Map.of("subid", "ses_pb2", "goal", "reg", "payout", "0",
        "status", "lead", "trans_id", "T-2")); // {currency} left as the partner's macro
    assertThat(response.statusCode()).isEqualTo(400);
    JsonObject error = response.bodyAsJsonObject().getJsonObject("error");
    assertThat(error.getString("code")).isEqualTo("macro_not_expanded");
    assertThat(error.getString("message")).contains("'currency'");
    JsonObject logged = postbacks().getJsonObject(0);
    assertThat(logged.getString("outcome")).isEqualTo("macro_not_expanded");
    assertThat(logged.getString("detail")).contains("currency");
    assertThat(logged.getJsonObject("params").getString("currency")).isEqualTo("{currency}");
    assertThat(app.count("events")).isZero();
  }

  @Test
  @DisplayName("a form POST and a JSON POST are read like the GET; a bad number gets the documented error body")
  void formAndJson() {
    capture("ses_pb3");
    JsonObject form = data(partner.fireForm(Map.of("subid", "ses_pb3", "goal", "registration", "currency", "USD",
        "payout", "0", "status", "approved", "trans_id", "T-3")));
    assertThat(form.getString("outcome")).isEqualTo("matched");
    assertThat(event(form.getString("event_id")).getString("event_name")).isEqualTo("REG");
    JsonObject json = data(partner.fireJson(Map.of("subid", "ses_pb3", "goal", "deposit", "currency", "USD",
        "payout", "40", "status", "sale", "trans_id", "T-4")));
    assertThat(json.getString("outcome")).isEqualTo("matched");
    assertThat(event(json.getString("event_id")).getString("event_name")).isEqualTo("DEP");

    HttpResponse<Buffer> bad = partner.fireGet(Map.of("subid", "ses_pb3", "goal", "deposit", "currency", "USD",
        "payout", "forty", "status", "sale", "trans_id", "T-5"));
    assertThat(bad.statusCode()).isEqualTo(400);
    JsonObject error = bad.bodyAsJsonObject().getJsonObject("error");
    assertThat(error.getString("code")).isEqualTo("validation_failed");
    assertThat(error.getJsonArray("details").getJsonObject(0).getString("field")).isEqualTo("payout");
    assertThat(postbacks().getJsonObject(0).getString("outcome")).isEqualTo("refused");
  }

  @Test
  @DisplayName("the same postback fired again changes nothing and gets the first answer; it is logged as duplicate")
  void refired() {
    capture("ses_pb4");
    Map<String, String> conversion = Map.of("subid", "ses_pb4", "goal", "ftd", "payout", "10", "currency", "USD",
        "status", "approved", "trans_id", "T-6");
    JsonObject first = data(partner.fireGet(conversion));
    JsonObject again = data(partner.fireGet(conversion));
    assertThat(again).isEqualTo(first);
    assertThat(app.count("events")).isEqualTo(1);
    JsonArray log = postbacks();
    assertThat(log.getJsonObject(0).getString("outcome")).isEqualTo("duplicate");
    assertThat(log.getJsonObject(1).getString("outcome")).isEqualTo("matched");
    Await.until("sent", DEADLINE, () -> fake.accepted("meta").containsKey(first.getString("event_id")));
    assertThat(fake.accepted("meta")).containsEntry(first.getString("event_id"), 1);
  }

  @Test
  @DisplayName("pending -> approved (new value) -> chargeback: Meta and TikTok get it once, at approval with that "
      + "value; the webhook gets every change; the event shows its history")
  void statusMoves() {
    capture("ses_pb5");
    Map<String, String> base = Map.of("subid", "ses_pb5", "goal", "ftd", "currency", "USD", "trans_id", "T-7");
    String eventId = data(partner.fireGet(with(base, "payout", "50", "status", "hold"))).getString("event_id");
    Await.until("pending reached the webhook", DEADLINE, () -> hooks(eventId).size() == 1);
    assertThat(fake.received("meta")).isEmpty();

    JsonObject approved = data(partner.fireGet(with(base, "payout", "55", "status", "approved")));
    assertThat(approved.getString("event_id")).isEqualTo(eventId);
    assertThat(approved.getString("conversion_status")).isEqualTo("approved");
    Await.until("approval sent", DEADLINE, () -> fake.accepted("meta").containsKey(eventId)
        && fake.accepted("tiktok").containsKey(eventId) && hooks(eventId).size() == 2);
    assertThat(fake.lastEvent("meta", eventId).getJsonObject("custom_data").getValue("value").toString())
        .isEqualTo("55");

    data(partner.fireGet(with(base, "payout", "55", "status", "chargeback")));
    Await.until("chargeback reached the webhook", DEADLINE, () -> hooks(eventId).size() == 3);
    assertThat(hooks(eventId).stream().map(h -> h.getString("uri")).toList()).containsExactly(
        "/conv?status=pending&was=&payout=50",
        "/conv?status=approved&was=pending&payout=55",
        "/conv?status=chargeback&was=approved&payout=55");
    assertThat(hooks(eventId).stream().map(h -> h.getString("change_header")).toList()).containsExactly("0", "1", "2");
    assertThat(fake.accepted("meta")).containsEntry(eventId, 1);
    assertThat(fake.accepted("tiktok")).containsEntry(eventId, 1);

    JsonObject event = event(eventId);
    assertThat(event.getString("conversion_status")).isEqualTo("chargeback");
    assertThat(event.getJsonArray("status_history").stream().map(h -> ((JsonObject) h).getString("status")))
        .containsExactly("pending", "approved", "chargeback");
    assertThat(app.count("events")).isEqualTo(1);
  }

  @Test
  @DisplayName("a click id not known yet is kept unmatched, visible, and matched once its session is captured")
  void unknownClickBecomesKnown() {
    JsonObject answer = data(partner.fireGet(Map.of("subid", "ses_late", "goal", "ftd", "payout", "30",
        "currency", "USD", "status", "approved", "trans_id", "T-8")));
    assertThat(answer.getString("outcome")).isEqualTo("unmatched");
    assertThat(answer.getString("event_id")).isNull();
    assertThat(postbacks().getJsonObject(0).getString("outcome")).isEqualTo("unmatched");
    assertThat(app.count("events")).isZero();

    capture("ses_late");
    Await.until("matched", DEADLINE, () -> "matched".equals(postbacks().getJsonObject(0).getString("outcome")));
    String eventId = postbacks().getJsonObject(0).getString("event_id");
    assertThat(event(eventId).getString("session_id")).isEqualTo("ses_late");
    Await.until("sent to Meta", DEADLINE, () -> fake.accepted("meta").containsKey(eventId));
  }

  @Test
  @DisplayName("an unknown token is answered as any unknown path; the token never appears in the logs")
  void unknownToken() {
    LogCapture logs = LogCapture.start();
    try {
      HttpResponse<Buffer> response = app.get("/api/v1/postbacks/pb_NotAToken0000000000000000?subid=x", null);
      assertThat(response.statusCode()).isEqualTo(404);
      assertThat(response.bodyAsJsonObject().getJsonObject("error").getString("code")).isEqualTo("not_found");
      capture("ses_pb9");
      data(partner.fireGet(Map.of("subid", "ses_pb9", "goal", "reg", "payout", "0", "currency", "USD",
          "status", "approved", "trans_id", "T-9")));
      assertThat(logs.text()).doesNotContain(TOKEN);
    } finally {
      logs.stop();
    }
    assertThat(app.metrics()).contains("event_router_postbacks_total{outcome=\"matched\",source=\"casino\"}");
  }

  @Test
  @DisplayName("the JSON route: conversion_status and transaction_id update one conversion; Meta gets it once, "
      + "at approval; without them an event is approved, as before")
  void jsonRouteStatus() {
    JsonObject pending = new JsonObject().put("workspace_id", WS_A).put("event_name", "FTD").put("telegram_id", 77)
        .put("value", 20).put("currency", "USD").put("conversion_status", "pending").put("transaction_id", "J-1");
    String eventId = data(app.postEvent(KEY_A, pending)).getString("event_id");
    String again = data(app.postEvent(KEY_A, pending.copy().put("conversion_status", "approved")))
        .getString("event_id");
    assertThat(again).isEqualTo(eventId);
    Await.until("approval sent", DEADLINE, () -> fake.accepted("meta").containsKey(eventId));
    assertThat(fake.accepted("meta")).containsEntry(eventId, 1);
    assertThat(event(eventId).getString("conversion_status")).isEqualTo("approved");

    String plain = data(app.postEvent(KEY_A, new JsonObject().put("workspace_id", WS_A).put("event_name", "REG")
        .put("telegram_id", 78))).getString("event_id");
    assertThat(event(plain).getString("conversion_status")).isEqualTo("approved");
    assertThat(app.count("events")).isEqualTo(2);
  }

  @Test
  @DisplayName("each source's URL template, with the partner's macros and <token> where the token goes")
  void urlTemplate() {
    JsonObject source = data(app.get("/api/v1/postback-sources", KEY_A)).getJsonArray("sources").getJsonObject(0);
    assertThat(source.getString("url_template")).endsWith("/api/v1/postbacks/<token>?subid={subid}&goal={goal}"
        + "&payout={payout}&currency={currency}&status={status}&tid={trans_id}");
  }

  private static Map<String, String> with(Map<String, String> base, String... pairs) {
    Map<String, String> all = new HashMap<>(base);
    for (int i = 0; i < pairs.length; i += 2) {
      all.put(pairs[i], pairs[i + 1]);
    }
    return all;
  }
}
