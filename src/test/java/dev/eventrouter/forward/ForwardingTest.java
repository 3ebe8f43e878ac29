package dev.eventrouter.forward;

import dev.eventrouter.common.Sha256;
import dev.eventrouter.config.Network;
import dev.eventrouter.db.Database;
import dev.eventrouter.store.ClaimedDelivery;
import dev.eventrouter.store.DeliveryBacklog;
import dev.eventrouter.store.DeliveryStore;
import dev.eventrouter.support.Await;
import dev.eventrouter.support.FakeAdNetworks.Reply;
import dev.eventrouter.support.FakeAdNetworks;
import dev.eventrouter.support.LogCapture;
import dev.eventrouter.support.TestApp;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.sqlclient.Row;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;

import static dev.eventrouter.support.TestApp.KEY_A;
import static dev.eventrouter.support.TestApp.KEY_B;
import static dev.eventrouter.support.TestApp.WS_A;
import static dev.eventrouter.support.TestApp.WS_B;
import static org.assertj.core.api.Assertions.assertThat;

/** Events forwarded end to end: real service, real PostgreSQL, fake Meta and TikTok servers over real HTTP. */
class ForwardingTest extends FakeNetworksTest {

  private static final int BREAKER_FAILURES = ForwardingTestConfig.BREAKER_FAILURES;

  private void start(JsonObject... metaOverrides) {
    startWith(ForwardingTestConfig.config(databaseUrl, fake.baseUrl(), metaOverrides));
  }

  private void startWith(JsonObject config) {
    app = TestApp.start(vertx, config);
  }

  private String post(JsonObject event) {
    var response = app.postEvent(KEY_A, event);
    assertThat(response.statusCode()).as(response.bodyAsString()).isEqualTo(200);
    return response.bodyAsJsonObject().getJsonObject("data").getString("event_id");
  }

  private static JsonObject event(String name, Object value) {
    JsonObject event = new JsonObject().put("event_name", name).put("telegram_id", 555).put("workspace_id", WS_A);
    return value == null ? event : event.put("value", value).put("currency", "EUR");
  }

  private List<Row> deliveries(String eventId) {
    return app.rows("SELECT * FROM deliveries WHERE event_id = $1 ORDER BY network",
        Long.parseLong(eventId.substring(4)));
  }

  /** The event's Meta delivery, once its forwarder has made it (rows are made when a claim reaches the event). */
  private Optional<Row> meta(String eventId) {
    return deliveries(eventId).stream().filter(r -> r.getString("network").equals("meta")).findFirst();
  }

  /** The networks an event was stored for (its deliveries, made or still to make), in order. */
  private List<String> named(String eventId) {
    return app.rows("SELECT t.value ->> 0 FROM events, jsonb_each(deliver_to) AS t WHERE event_id = $1 ORDER BY 1",
        Long.parseLong(eventId.substring(4))).stream().map(r -> r.getString(0)).toList();
  }

  private void awaitStatus(String eventId, String network, String status) {
    Await.until(network + " delivery of " + eventId + " to be " + status, DEADLINE,
        () -> deliveries(eventId).stream().anyMatch(r -> r.getString("network").equals(network)
            && r.getString("status").equals(status)));
  }

  private long receivedAt(String eventId) {
    return Instant.parse(app.get("/api/v1/events/" + eventId, KEY_A).bodyAsJsonObject().getJsonObject("data")
        .getString("received_at")).getEpochSecond();
  }

  // --- the mapping table, exact payloads ---

  @ParameterizedTest(name = "{0} -> Meta {1}, TikTok {2}")
  @CsvSource({
      "FTD, Purchase, CompletePayment, 25",
      "DEP, Purchase, CompletePayment, 10.5",
      "Purchase, Purchase, CompletePayment, 99.99",
      "REG, CompleteRegistration, Registration, ",
      "Subscribe, Lead, SubmitForm, ",
      "JoinRequest, Lead, SubmitForm, 3",
      "INSTALL, AppInstall, Download, ",
      "TRIAL, StartTrial, Subscribe, ",
      "Level Up, Level Up, Level Up, "})
  @DisplayName("every row of the mapping table reaches both networks with the exact documented payload")
  void mappingTable(String name, String metaEvent, String tiktokEvent, String value) {
    start();
    Object amount = value == null ? null : new java.math.BigDecimal(value);
    String eventId = post(event(name, amount));
    awaitStatus(eventId, "meta", "delivered");
    awaitStatus(eventId, "tiktok", "delivered");
    long time = receivedAt(eventId);
    String externalId = Sha256.hex("555");

    JsonObject expectedMeta = new JsonObject().put("event_name", metaEvent).put("event_time", time)
        .put("event_id", eventId).put("action_source", "chat")
        .put("user_data", new JsonObject().put("external_id", new JsonArray().add(externalId)));
    // No click session: the page is the workspace bot's link.
    JsonObject expectedTikTok = new JsonObject().put("event", tiktokEvent).put("event_time", time)
        .put("event_id", eventId).put("user", new JsonObject().put("external_id", externalId))
        .put("page", new JsonObject().put("url", "https://t.me/" + TestApp.BOT_A));
    if (amount != null) {
      expectedMeta.put("custom_data", new JsonObject().put("value", amount).put("currency", "EUR"));
      expectedTikTok.put("properties", new JsonObject().put("value", amount).put("currency", "EUR"));
    }
    assertThat(fake.lastEvent("meta", eventId)).isEqualTo(expectedMeta);
    assertThat(fake.lastEvent("tiktok", eventId)).isEqualTo(expectedTikTok);
    FakeAdNetworks.Received meta = fake.received("meta").get(0);
    assertThat(meta.token()).isEqualTo(FakeAdNetworks.META_TOKEN);
    assertThat(meta.body().fieldNames()).containsExactly("data");
    FakeAdNetworks.Received tiktok = fake.received("tiktok").get(0);
    assertThat(tiktok.token()).isEqualTo(FakeAdNetworks.TIKTOK_TOKEN);
    assertThat(tiktok.body().getString("event_source")).isEqualTo("web");
    assertThat(tiktok.body().getString("event_source_id")).isEqualTo("C4ABCDEF");
    assertThat(deliveries(eventId)).extracting(r -> r.getString("mapped_event"))
        .containsExactly(metaEvent, tiktokEvent);
  }

  @Test
  @DisplayName("a workspace's event_map renames events and can make a new name a purchase that needs a value")
  void workspaceEventMap() {
    JsonObject config = ForwardingTestConfig.config(databaseUrl, fake.baseUrl());
    config.getJsonArray("workspaces").getJsonObject(0).put("event_map", new JsonObject()
        .put("VIP", new JsonObject().put("meta", "Purchase").put("tiktok", "CompletePayment").put("monetary", true))
        .put("REG", new JsonObject().put("tiktok", "CompleteRegistration")));
    app = TestApp.start(vertx, config);

    var refused = app.postEvent(KEY_A, event("VIP", null));
    String vip = post(event("VIP", 49));
    String reg = post(event("REG", null).put("telegram_id", 556));
    awaitStatus(vip, "meta", "delivered");
    awaitStatus(reg, "tiktok", "delivered");
    awaitStatus(reg, "meta", "delivered");

    assertThat(refused.statusCode()).isEqualTo(400);
    assertThat(refused.bodyAsString()).contains("required for VIP events");
    assertThat(fake.lastEvent("meta", vip).getString("event_name")).isEqualTo("Purchase");
    assertThat(fake.lastEvent("meta", vip).getJsonObject("custom_data").getInteger("value")).isEqualTo(49);
    assertThat(fake.lastEvent("tiktok", reg).getString("event")).isEqualTo("CompleteRegistration");
    assertThat(fake.lastEvent("meta", reg).getString("event_name")).isEqualTo("CompleteRegistration");
  }

  @Test
  @DisplayName("the click data of the event's captured session goes with it: fbc, fbp, IP, UA, page; ttclid, ttp")
  void clickDataFromSession() {
    start();
    app.postJson("/api/v1/sessions", KEY_A, new JsonObject().put("workspace_id", WS_A).put("session_id", "clk1")
        .put("fbclid", "IwAR2AbC").put("fbp", "fb.1.1596403881668.1116446470").put("ttclid", "E.C.P.xyz")
        .put("ttp", "ttp-cookie").put("client_ip", "203.0.113.7").put("user_agent", "Mozilla/5.0")
        .put("landing_url", "https://promo.example.com/?fbclid=IwAR2AbC").put("clicked_at", 1_763_600_000_000L));

    String eventId = post(event("REG", null).put("session_id", "clk1"));
    awaitStatus(eventId, "meta", "delivered");
    awaitStatus(eventId, "tiktok", "delivered");

    JsonObject meta = fake.lastEvent("meta", eventId);
    assertThat(meta.getJsonObject("user_data").getString("fbc")).isEqualTo("fb.1.1763600000000.IwAR2AbC");
    assertThat(meta.getJsonObject("user_data").getString("fbp")).isEqualTo("fb.1.1596403881668.1116446470");
    assertThat(meta.getJsonObject("user_data").getString("client_ip_address")).isEqualTo("203.0.113.7");
    assertThat(meta.getJsonObject("user_data").getString("client_user_agent")).isEqualTo("Mozilla/5.0");
    assertThat(meta.getString("event_source_url")).isEqualTo("https://promo.example.com/?fbclid=IwAR2AbC");
    JsonObject tiktok = fake.lastEvent("tiktok", eventId);
    assertThat(tiktok.getJsonObject("user").getString("ttclid")).isEqualTo("E.C.P.xyz");
    assertThat(tiktok.getJsonObject("user").getString("ttp")).isEqualTo("ttp-cookie");
    assertThat(tiktok.getJsonObject("user").getString("ip")).isEqualTo("203.0.113.7");
    assertThat(tiktok.getJsonObject("page").getString("url")).isEqualTo("https://promo.example.com/?fbclid=IwAR2AbC");
  }

  @Test
  @DisplayName("TikTok web events without a landing page carry page.url: invite-only sessions and Telegram-only events")
  void pageUrlWithoutLandingPage() {
    start();
    app.postJson("/api/v1/sessions/invites", KEY_A, new JsonObject().put("workspace_id", WS_A)
        .put("telegram_id", 777).put("session_id", "invite_only_1"));
    String invited = post(event("Subscribe", null).put("telegram_id", 777));
    String telegramOnly = post(event("REG", null).put("telegram_id", 778));
    for (String eventId : new String[] {invited, telegramOnly}) {
      // The fake refuses a web event without page.url (40002), as TikTok does: delivered means it was there.
      awaitStatus(eventId, "tiktok", "delivered");
      assertThat(fake.lastEvent("tiktok", eventId).getJsonObject("page").getString("url"))
          .isEqualTo("https://t.me/" + TestApp.BOT_A);
    }
    assertThat(app.get("/api/v1/events/" + invited, KEY_A).bodyAsJsonObject().getJsonObject("data")
        .getString("session_source")).isEqualTo("invite");
  }

  @Test
  @DisplayName("a user_data value that cannot be made valid is not sent, the event still is, and /metrics counts it")
  void invalidUserDataCounted() {
    start();
    String eventId = post(event("REG", null).put("user_data", new JsonObject().put("email", "user@")
        .put("phone", "+1 650 555 1212, +1 650 555 1313").put("first_name", "Mary")));
    awaitStatus(eventId, "meta", "delivered");
    awaitStatus(eventId, "tiktok", "delivered");

    JsonObject meta = fake.lastEvent("meta", eventId).getJsonObject("user_data");
    assertThat(meta.fieldNames()).doesNotContain("em", "ph").contains("fn");
    assertThat(fake.lastEvent("tiktok", eventId).getJsonObject("user").fieldNames())
        .doesNotContain("email", "phone").contains("first_name");
    String metrics = app.metrics();
    for (String network : new String[] {"meta", "tiktok"}) {
      for (String field : new String[] {"email", "phone"}) {
        assertThat(metrics).contains("event_router_user_data_rejected_total{field=\"" + field + "\",network=\""
            + network + "\"} 1.0");
      }
    }
    assertThat(metrics).doesNotContain("field=\"first_name\"");
  }

  @Test
  @DisplayName("test_event_code goes at the top level of the request")
  void testEventCode() {
    start(new JsonObject().put("test_event_code", "TEST123"));

    String eventId = post(event("REG", null));
    awaitStatus(eventId, "meta", "delivered");

    assertThat(fake.received("meta").get(0).body().getString("test_event_code")).isEqualTo("TEST123");
  }

  @Test
  @DisplayName("dry_run stores the exact payload instead of sending it, and the status endpoint shows it")
  void dryRun() {
    start(new JsonObject().put("dry_run", true));

    String eventId = post(event("FTD", 20));
    awaitStatus(eventId, "meta", "dry_run");
    awaitStatus(eventId, "tiktok", "delivered");

    assertThat(fake.received("meta")).isEmpty();
    JsonObject status = app.get("/api/v1/events/" + eventId, KEY_A).bodyAsJsonObject().getJsonObject("data");
    JsonObject metaDelivery = status.getJsonArray("deliveries").stream().map(JsonObject.class::cast)
        .filter(d -> d.getString("network").equals("meta")).findFirst().orElseThrow();
    assertThat(metaDelivery.getString("status")).isEqualTo("dry_run");
    JsonObject payload = metaDelivery.getJsonObject("payload");
    assertThat(payload.getJsonArray("data").getJsonObject(0).getString("event_name")).isEqualTo("Purchase");
    assertThat(payload.getJsonArray("data").getJsonObject(0).getString("event_id")).isEqualTo(eventId);
    assertThat(status.encode()).doesNotContain(FakeAdNetworks.META_TOKEN).doesNotContain(FakeAdNetworks.TIKTOK_TOKEN);
  }

  @Test
  @DisplayName("an outage: retried with backoff, the breaker opens and stops calls, then every event is delivered once")
  void outageThenRecovery() {
    start();
    LogCapture logs = LogCapture.start();
    try {
      fake.scriptMeta(body -> Reply.of(503, new JsonObject().put("error", "upstream down")));
      List<String> ids = new ArrayList<>();
      for (int i = 0; i < 3; i++) {
        ids.add(post(event("REG", null).put("telegram_id", 1000 + i)));
      }
      Await.until("the breaker to open", DEADLINE,
          () -> logs.text().contains("circuit breaker meta:" + WS_A + "/meta-main opened"));
      assertThat(fake.received("meta")).hasSize(BREAKER_FAILURES);
      // Its deliveries now wait for it: each failed call counted once, no attempt spent while open.
      Await.until("the deliveries to wait for the breaker", DEADLINE, () -> ids.stream().allMatch(id ->
          meta(id).map(r -> r.getOffsetDateTime("next_attempt_at").toInstant()
              .isAfter(Instant.now().plusMillis(1000))).orElse(false)));
      assertThat(app.rows("SELECT sum(attempts) FROM deliveries WHERE network = 'meta'").get(0).getLong(0))
          .isEqualTo(fake.received("meta").stream().mapToLong(r -> r.eventIds().size()).sum());
      DeliveryStore store = new DeliveryStore(app.pool(), app.pool(), Database.EVENT_FREE);
      // What /metrics shows as the outbox: three waiting for the breaker, none of them due yet.
      assertThat(store.backlog(Network.META).await()).isEqualTo(new DeliveryBacklog(0, 3, 0));

      fake.scriptMeta(body -> null);
      ids.forEach(id -> awaitStatus(id, "meta", "delivered"));
      assertThat(store.backlog(Network.META).await()).isEqualTo(new DeliveryBacklog(0, 0, 0));

      // While open, no call: the next one comes only when the breaker half-opens, a reset period later
      // (without it, retries would follow within the 100 ms maximum backoff).
      List<FakeAdNetworks.Received> calls = fake.received("meta");
      assertThat(Duration.between(calls.get(BREAKER_FAILURES - 1).at(), calls.get(BREAKER_FAILURES).at()))
          .isGreaterThanOrEqualTo(Duration.ofMillis(1900));
      assertThat(fake.accepted("meta")).containsOnlyKeys(ids).allSatisfy((id, count) -> assertThat(count).isOne());
      // Every request that carried an event counts as one of its attempts, and no other.
      ids.forEach(id -> assertThat(meta(id).orElseThrow().getInteger("attempts")).isEqualTo(
          (int) fake.received("meta").stream().filter(r -> r.eventIds().contains(id)).count()));
    } finally {
      logs.stop();
    }
  }

  @Test
  @DisplayName("a Retry-After longer than the backoff decides when the next attempt is")
  void retryAfterHonoured() {
    start();
    AtomicInteger calls = new AtomicInteger();
    fake.scriptMeta(body -> calls.getAndIncrement() == 0
        ? new Reply(429, FakeAdNetworks.metaError(17, null, "User request limit reached"), Map.of("Retry-After", "3"))
        : null);

    String eventId = post(event("REG", null));
    Await.until("the first attempt to be recorded", DEADLINE,
        () -> meta(eventId).map(r -> r.getInteger("attempts") == 1).orElse(false));

    Row meta = meta(eventId).orElseThrow();
    assertThat(meta.getString("status")).isEqualTo("retrying");
    assertThat(Duration.between(meta.getOffsetDateTime("updated_at"), meta.getOffsetDateTime("next_attempt_at")))
        .as("3 s from Retry-After, not the 100 ms maximum backoff").isGreaterThan(Duration.ofMillis(2500));
    awaitStatus(eventId, "meta", "delivered");
  }

  @Test
  @DisplayName("TikTok code 40100 under HTTP 200 is a rate limit: retried, then delivered")
  void tiktokRateLimitRetried() {
    start();
    AtomicInteger calls = new AtomicInteger();
    fake.scriptTikTok(body -> calls.getAndIncrement() == 0
        ? Reply.of(200, FakeAdNetworks.tiktokCode(40100, "Too many requests. Please retry in some time.")) : null);

    String eventId = post(event("REG", null));
    awaitStatus(eventId, "tiktok", "delivered");

    Row tiktok = deliveries(eventId).get(1);
    assertThat(tiktok.getInteger("attempts")).isEqualTo(2);
    assertThat(fake.received("tiktok")).hasSize(2);
    assertThat(fake.accepted("tiktok")).containsEntry(eventId, 1);
  }

  @Test
  @DisplayName("an event Meta refuses for good fails at once without retry; redeliver re-queues it, for its own "
      + "workspace only")
  void refusedEventFailsThenRedeliver() {
    start();
    fake.scriptMeta(body -> Reply.of(400, FakeAdNetworks.metaError(100, 2804019, "Invalid parameter")));

    String eventId = post(event("REG", null));
    awaitStatus(eventId, "meta", "failed");
    Row meta = meta(eventId).orElseThrow();
    assertThat(meta.getInteger("attempts")).isEqualTo(1);
    assertThat(meta.getString("last_error")).contains("code 100");
    assertThat(fake.received("meta")).hasSize(1);

    fake.scriptMeta(body -> null);
    var redeliver = app.postJson("/api/v1/events/" + eventId + "/redeliver", KEY_A, new JsonObject());
    assertThat(redeliver.statusCode()).isEqualTo(200);
    assertThat(redeliver.bodyAsJsonObject().getJsonObject("data").getInteger("requeued")).isEqualTo(1);
    awaitStatus(eventId, "meta", "delivered");
    assertThat(fake.received("meta")).hasSize(2);
    assertThat(app.postJson("/api/v1/events/" + eventId + "/redeliver", KEY_B, new JsonObject()).statusCode())
        .as("another workspace cannot re-queue it").isEqualTo(404);
  }

  @Test
  @DisplayName("a redelivery of a delivered event, written once with its outcome, re-queues nothing and sends "
      + "nothing again")
  void redeliveryOfDeliveredEvent() {
    start();
    String eventId = post(event("REG", null));
    awaitStatus(eventId, "meta", "delivered");
    awaitStatus(eventId, "tiktok", "delivered");

    var redeliver = app.postJson("/api/v1/events/" + eventId + "/redeliver", KEY_A, new JsonObject());
    assertThat(redeliver.statusCode()).isEqualTo(200);
    assertThat(redeliver.bodyAsJsonObject().getJsonObject("data").getInteger("requeued")).isZero();
    // A later event delivered is the checkpoint: the forwarders ran cycles since the redelivery.
    String later = post(event("REG", null).put("telegram_id", 556));
    awaitStatus(later, "meta", "delivered");
    awaitStatus(later, "tiktok", "delivered");
    assertThat(fake.accepted("meta")).containsEntry(eventId, 1);
    assertThat(fake.accepted("tiktok")).containsEntry(eventId, 1);
    assertThat(deliveries(eventId)).extracting(r -> r.getString("status")).containsOnly("delivered");
  }

  @Test
  @DisplayName("one invalid event in a batch: the batch is split until it stands alone, and the rest is delivered")
  void invalidEventIsolated() {
    start();
    fake.scriptMeta(body -> body.getJsonArray("data").stream()
        .anyMatch(e -> ((JsonObject) e).getString("event_name").equals("Broken"))
        ? Reply.of(400, FakeAdNetworks.metaError(100, null, "Invalid parameter")) : null);
    fake.scriptTikTok(body -> body.getJsonArray("data").stream()
        .anyMatch(e -> ((JsonObject) e).getString("event").equals("Broken"))
        ? Reply.of(200, FakeAdNetworks.tiktokCode(40002, "Invalid parameters")) : null);

    List<String> good = new ArrayList<>();
    var futures = new ArrayList<io.vertx.core.Future<?>>();
    for (int i = 0; i < 7; i++) {
      JsonObject event = event(i == 3 ? "Broken" : "REG", null).put("telegram_id", 2000 + i);
      futures.add(app.client().post(app.port(), "127.0.0.1", "/api/v1/events/custom")
          .putHeaders(TestApp.jsonHeaders(KEY_A)).sendBuffer(event.toBuffer())
          .onSuccess(r -> {
            if (!event.getString("event_name").equals("Broken")) {
              synchronized (good) {
                good.add(r.bodyAsJsonObject().getJsonObject("data").getString("event_id"));
              }
            }
          }));
    }
    io.vertx.core.Future.all(futures).await();
    Await.until("every delivery to end", DEADLINE, () -> app.rows(
        "SELECT count(*) FROM deliveries WHERE status NOT IN ('pending', 'retrying')").get(0).getLong(0) == 14);

    for (String network : new String[] {"meta", "tiktok"}) {
      assertThat(app.rows("SELECT count(*) FROM deliveries WHERE network = $1 AND status = 'failed'", network)
          .get(0).getLong(0)).isEqualTo(1);
      assertThat(fake.accepted(network)).containsOnlyKeys(good).allSatisfy((id, n) -> assertThat(n).isOne());
    }
    // Some request carried the broken event with others (the first one may be a lone early event): it was split.
    assertThat(fake.received("meta")).anySatisfy(r -> assertThat(r.eventIds()).hasSizeGreaterThan(1));
  }

  @Test
  @DisplayName("a Meta event older than 7 days expires unsent, and is never batched with fresh ones")
  void oldEventsExpire() {
    start();
    fake.scriptMeta(body -> Reply.of(500, FakeAdNetworks.metaError(2, null, "Service temporarily unavailable")));
    String old = post(event("REG", null).put("telegram_id", 1));
    String fresh = post(event("REG", null).put("telegram_id", 2));
    Await.until("both to be tried once", DEADLINE, () -> List.of(old, fresh).stream()
        .allMatch(id -> meta(id).map(r -> r.getInteger("attempts") >= 1).orElse(false)));
    // Age the event while no forwarder runs, so no claim can have read its old time.
    stopService("UPDATE events SET received_at = now() - interval '8 days' WHERE event_id = "
        + old.substring(4));
    int before = fake.received("meta").size();
    fake.scriptMeta(body -> null);

    start();
    awaitStatus(old, "meta", "expired");
    awaitStatus(fresh, "meta", "delivered");

    assertThat(fake.received("meta").subList(before, fake.received("meta").size()))
        .isNotEmpty().allSatisfy(r -> assertThat(r.eventIds()).doesNotContain(old));
    assertThat(fake.accepted("meta")).doesNotContainKey(old);
    assertThat(meta(old).orElseThrow().getString("last_error")).contains("older than 7 days");
  }

  @Test
  @DisplayName("a restart mid-delivery loses nothing and sends nothing twice; a dead node's claim comes back after its lease")
  void restartMidDelivery() {
    start();
    LogCapture logs = LogCapture.start();
    try {
      fake.scriptMeta(body -> Reply.hang());
      String first = post(event("REG", null).put("telegram_id", 1));
      Await.until("the request to hang at Meta", DEADLINE, () -> fake.received("meta").size() == 1);
      stopService(null); // waits for the request's timeout; the delivery is recorded for retry

      fake.scriptMeta(body -> Reply.of(500, FakeAdNetworks.metaError(2, null, "Service temporarily unavailable")));
      start();
      awaitStatus(first, "meta", "retrying");
      String second = post(event("REG", null).put("telegram_id", 2));
      Await.until("the second event to be tried", DEADLINE,
          () -> meta(second).map(r -> r.getInteger("attempts") >= 1).orElse(false));
      // As if a node had just claimed it and died: leased for another second, not retrying.
      stopService("UPDATE deliveries SET status = 'pending', next_attempt_at = now() + interval '1 second' "
          + "WHERE network = 'meta' AND event_id = " + second.substring(4));

      fake.scriptMeta(body -> null);
      start();
      awaitStatus(first, "meta", "delivered");
      awaitStatus(second, "meta", "delivered");
      assertThat(fake.accepted("meta")).containsOnlyKeys(first, second)
          .allSatisfy((id, count) -> assertThat(count).isOne());
      // A timeout message quotes the request URL, access_token included: it must not reach logs or rows.
      assertThat(logs.text()).doesNotContain(FakeAdNetworks.META_TOKEN);
      assertThat(app.rows("SELECT string_agg(coalesce(last_error, ''), ' ') FROM deliveries").get(0).getString(0))
          .doesNotContain(FakeAdNetworks.META_TOKEN);
    } finally {
      logs.stop();
    }
  }

  /** Stops the service cleanly, then runs the SQL (if any) with nothing of the service running. */
  private void stopService(String sql) {
    app.router().close().await();
    app.client().close();
    app = null;
    if (sql != null) {
      try (var c = dev.eventrouter.db.PostgresServer.dataSource(
          io.vertx.pgclient.PgConnectOptions.fromUri(databaseUrl)).getConnection()) {
        c.createStatement().execute(sql);
      } catch (java.sql.SQLException e) {
        throw new IllegalStateException(e);
      }
    }
  }

  @Test
  @DisplayName("a workspace with no integrations, or a disabled one, gets no deliveries")
  void noRowsWithoutEnabledIntegration() {
    start(new JsonObject().put("enabled", false));

    String a = post(event("REG", null));
    String b = app.postEvent(KEY_B, event("REG", null).put("workspace_id", WS_B)).bodyAsJsonObject()
        .getJsonObject("data").getString("event_id");

    assertThat(named(a)).containsExactly("tiktok");
    assertThat(named(b)).isEmpty();
    awaitStatus(a, "tiktok", "delivered");
    assertThat(deliveries(a)).extracting(r -> r.getString("network")).containsExactly("tiktok");
    assertThat(deliveries(b)).isEmpty();
  }

  @Test
  @DisplayName("an event's limited_data_use is stored and sent: Meta data_processing_options LDU, TikTok "
      + "limited_data_use; an event without it follows the integration (off here), so nothing is sent")
  void limitedDataUse() {
    start();
    String limited = post(event("REG", null).put("limited_data_use", true));
    String plain = post(event("REG", null).put("telegram_id", 556));
    for (String id : new String[] {limited, plain}) {
      awaitStatus(id, "meta", "delivered");
      awaitStatus(id, "tiktok", "delivered");
    }
    JsonObject meta = fake.lastEvent("meta", limited);
    assertThat(meta.getJsonArray("data_processing_options")).containsExactly("LDU");
    assertThat(meta.getInteger("data_processing_options_country")).isZero();
    assertThat(meta.getInteger("data_processing_options_state")).isZero();
    assertThat(fake.lastEvent("tiktok", limited).getBoolean("limited_data_use")).isTrue();
    assertThat(fake.lastEvent("meta", plain).containsKey("data_processing_options")).isFalse();
    assertThat(fake.lastEvent("tiktok", plain).containsKey("limited_data_use")).isFalse();
  }

  @Test
  @DisplayName("an integration's events list: the names it lists get a delivery to it, the others get none there")
  void eventFilter() {
    start(new JsonObject().put("events", new JsonArray().add("FTD").add("level up")));

    String ftd = post(event("FTD", 10));
    String custom = post(event("level up", null));
    String reg = post(event("REG", null));

    assertThat(named(ftd)).containsExactly("meta", "tiktok");
    assertThat(named(custom)).containsExactly("meta", "tiktok");
    assertThat(named(reg)).containsExactly("tiktok");
    awaitStatus(reg, "tiktok", "delivered");
    awaitStatus(ftd, "meta", "delivered");
    assertThat(deliveries(reg)).extracting(r -> r.getString("network")).containsExactly("tiktok");
    assertThat(fake.lastEvent("meta", reg)).as("nothing sent to Meta for REG").isNull();
  }

  @Test
  @DisplayName("the status endpoint lists each delivery with its state")
  void statusShowsDeliveries() {
    start();
    String eventId = post(event("FTD", 5));
    awaitStatus(eventId, "meta", "delivered");
    awaitStatus(eventId, "tiktok", "delivered");

    JsonArray list = app.get("/api/v1/events/" + eventId, KEY_A).bodyAsJsonObject().getJsonObject("data")
        .getJsonArray("deliveries");

    assertThat(list).hasSize(2);
    JsonObject meta = list.getJsonObject(0);
    assertThat(meta.fieldNames()).containsExactlyInAnyOrder("integration_id", "network", "event_name", "status",
        "attempts", "last_error", "delivered_at", "next_attempt_at", "change", "payload");
    assertThat(meta.getValue("next_attempt_at")).as("delivered: nothing next").isNull();
    assertThat(meta.getString("integration_id")).isEqualTo("meta-main");
    assertThat(meta.getString("event_name")).isEqualTo("Purchase");
    assertThat(meta.getInteger("attempts")).isEqualTo(1);
    assertThat(Instant.parse(meta.getString("delivered_at"))).isBefore(Instant.now().plusSeconds(1));
    assertThat(Map.of("tiktok", list.getJsonObject(1).getString("event_name")))
        .containsEntry("tiktok", "CompletePayment");
  }

  // --- one tenant's data never stalls another's deliveries ---

  /** A 4 KB e-mail address: its domain's 2,000 labels overflowed the stack in the e-mail pattern. */
  static final String HUGE_EMAIL = "a@" + "a.".repeat(2_000) + "aa";

  @Test
  @DisplayName("a 4 KB e-mail in one workspace's event and another workspace's event claimed in the same cycle: both "
      + "delivered at once, the e-mail dropped as invalid; no lease is left to run out")
  void hugeEmailStallsNobody() {
    JsonObject config = ForwardingTestConfig.config(databaseUrl, fake.baseUrl());
    // A long linger, so both events are claimed by one cycle; the lease is 9 s (request_timeout_ms 1000).
    config.getJsonObject("delivery").put("linger_ms", 1_000);
    config.getJsonArray("workspaces").getJsonObject(1).put("integrations", new JsonArray()
        .add(FakeAdNetworks.metaIntegration(fake.baseUrl()).put("id", "meta-b")));
    startWith(config);
    String poison = post(event("REG", null).put("user_data", new JsonObject().put("email", HUGE_EMAIL)));
    var other = app.postEvent(KEY_B, new JsonObject().put("event_name", "REG").put("telegram_id", 777)
        .put("workspace_id", WS_B));
    assertThat(other.statusCode()).isEqualTo(200);
    String otherId = other.bodyAsJsonObject().getJsonObject("data").getString("event_id");

    // Well inside the lease: without isolation, the other workspace's row waits for it to run out.
    Duration withinLease = Duration.ofSeconds(5);
    Await.until("the other workspace's event delivered", withinLease, () -> deliveries(otherId).stream()
        .anyMatch(r -> "delivered".equals(r.getString("status"))));
    Await.until("the event with the huge e-mail delivered", withinLease, () -> deliveries(poison).stream()
        .filter(r -> r.getString("network").equals("meta"))
        .anyMatch(r -> "delivered".equals(r.getString("status"))));
    assertThat(fake.lastEvent("meta", poison).getJsonObject("user_data").containsKey("em")).isFalse();
    assertThat(fake.lastEvent("meta", otherId)).isNotNull();
  }

  @Test
  @DisplayName("a delivery whose claims keep ending without an outcome is failed on its next claim after "
      + "MAX_CLAIMS, saying so; an outcome in between starts the count again; the others are claimed as usual")
  void poisonRowQuarantined() {
    JsonObject config = ForwardingTestConfig.config(databaseUrl, fake.baseUrl());
    config.put("roles", new JsonArray().add("ingest")); // no forwarder: this test claims by itself
    startWith(config);
    String poison = post(event("REG", null));
    DeliveryStore store = new DeliveryStore(app.pool(), app.pool(), Database.EVENT_FREE);
    Await.result(store.follow(Network.META, List.of(UUID.fromString(WS_A)), List.of("meta-main")));
    for (int claim = 1; claim <= DeliveryStore.MAX_CLAIMS; claim++) {
      // A lease of 0 ms: due again at once, as if each claim had died without an outcome.
      List<ClaimedDelivery> claimed = Await.result(store.claim(Network.META, 10, 0)).jobs();
      assertThat(claimed).as("claim " + claim).extracting(ClaimedDelivery::eventId)
          .containsExactly(Long.parseLong(poison.substring(4)));
    }
    String healthy = post(event("REG", null));
    List<ClaimedDelivery> last = Await.result(store.claim(Network.META, 10, 0)).jobs();
    assertThat(last).extracting(ClaimedDelivery::eventId).containsExactly(Long.parseLong(healthy.substring(4)));
    Row failed = deliveries(poison).stream().filter(r -> r.getString("network").equals("meta")).findFirst()
        .orElseThrow();
    assertThat(failed.getString("status")).isEqualTo("failed");
    assertThat(failed.getString("last_error"))
        .isEqualTo("could not be processed: 5 claims of it in a row ended without an outcome");
    assertThat(failed.getInteger("attempts")).as("never sent").isZero();
    // The healthy event was taken past the cursor, its lease ran out at once: the next claim made its row, one
    // claim counted, and claims it.
    List<ClaimedDelivery> again = Await.result(store.claim(Network.META, 10, 0)).jobs();
    assertThat(again).extracting(ClaimedDelivery::eventId)
        .as("failed, it is claimed no more").containsExactly(Long.parseLong(healthy.substring(4)));

    // The healthy row has had 2 claims; an outcome sets its count back, so MAX_CLAIMS more are still taken.
    Await.result(store.retry(again, Collections.nCopies(1, null), "meta HTTP 503", Instant.now()));
    for (int claim = 1; claim <= DeliveryStore.MAX_CLAIMS; claim++) {
      assertThat(Await.result(store.claim(Network.META, 10, 0)).jobs()).as("claim " + claim + " after the outcome")
          .hasSize(1);
    }
    assertThat(Await.result(store.claim(Network.META, 10, 0)).jobs()).isEmpty();
  }
}
