package dev.eventrouter.forward;

import java.util.concurrent.CopyOnWriteArrayList;
import io.vertx.core.http.HttpServer;
import dev.eventrouter.forward.webhook.WebhookApi;
import dev.eventrouter.config.WebhookConfig;
import dev.eventrouter.bus.Addresses;
import dev.eventrouter.bus.BreakerOpened;
import dev.eventrouter.common.Sha256;
import dev.eventrouter.config.DataProcessing;
import dev.eventrouter.config.DeliveryConfig;
import dev.eventrouter.config.IntegrationConfig;
import dev.eventrouter.config.Network;
import dev.eventrouter.forward.meta.MetaApi;
import dev.eventrouter.forward.tiktok.TikTokApi;
import dev.eventrouter.store.ClaimedDelivery;
import dev.eventrouter.support.Await;
import dev.eventrouter.support.FakeAdNetworks.Reply;
import dev.eventrouter.support.FakeAdNetworks;
import dev.eventrouter.support.LogCapture;
import dev.eventrouter.support.RecordingOutbox;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.junit5.VertxExtension;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.stream.LongStream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * One integration's channel against the fake networks (real HTTP), with the outcomes recorded instead of stored: the
 * retry, split, failure and breaker policy without a database.
 */
@ExtendWith(VertxExtension.class)
class IntegrationChannelUnitTest {

  private static final DeliveryConfig CONFIG = new DeliveryConfig(100, 0, 1000, 1000, 60_000, 1000, 2, 60_000, 300_000,
      true);

  private static final UUID WORKSPACE = UUID.fromString("7c9e6679-7425-40de-944b-e07fc1f90ae7");
  private static final IntegrationKey KEY = new IntegrationKey("meta", WORKSPACE, "m");

  private Vertx vertx;
  private FakeAdNetworks fake;
  private RecordingOutbox outcomes;
  private final SimpleMeterRegistry metrics = new SimpleMeterRegistry();
  private final BreakerBoard board = new BreakerBoard(metrics);

  @BeforeEach
  void start(Vertx vertx) {
    this.vertx = vertx;
    fake = FakeAdNetworks.start(vertx);
    outcomes = new RecordingOutbox();
  }

  @AfterEach
  void stop() {
    fake.stop();
  }

  private IntegrationConfig meta(String token, String apiBase) {
    return new IntegrationConfig("m", Network.META, "123", token, apiBase, "v25.0", "chat", null, null, true, false,
        null, DataProcessing.NONE, null, true);
  }

  private IntegrationConfig tiktok(String token) {
    return new IntegrationConfig("t", Network.TIKTOK, "C4AB", token, fake.baseUrl(), null, "web", "https://t.me/x",
        null, true, false, null, DataProcessing.NONE, null, true);
  }

  private static List<ClaimedDelivery> jobs(long... ids) {
    return LongStream.of(ids).mapToObj(id -> new ClaimedDelivery(id, 1000 + id, WORKSPACE, "m", "REG", "Lead", 0,
        42, null, null, "USD", null, Instant.now().minusSeconds(3), null, null)).toList();
  }

  private IntegrationChannel channel(NetworkApi api) {
    return new IntegrationChannel(vertx, KEY, api, outcomes, CONFIG, board, new DeliveryMetrics(metrics, "meta"));
  }

  private double deliveries(String outcome) {
    Counter counter = metrics.find("event_router.deliveries").tags("network", "meta", "workspace",
        WORKSPACE.toString(), "integration", "m", "outcome", outcome).counter();
    return counter == null ? 0 : counter.count();
  }

  private double breakerGauge() {
    return metrics.get("event_router.breaker.state").tags("network", "meta", "integration", "m").gauge().value();
  }

  @Test
  @DisplayName("accepted: the batch is recorded delivered in one step")
  void delivered() {
    IntegrationChannel channel = channel(new MetaApi());
    assertThat(board.snapshot()).containsExactly(Map.entry(KEY.toString(), "CLOSED"));
    assertThat(breakerGauge()).isZero();
    channel.close();
    Await.result(channel(new MetaApi()).send(meta(FakeAdNetworks.META_TOKEN, fake.baseUrl()), jobs(1, 2), CONFIG));
    assertThat(outcomes.recorded).containsExactly(new RecordingOutbox.Recorded("delivered", List.of(1L, 2L), null, null));
    assertThat(outcomes.matchKeysLog).as("no user data: the telegram id's external_id alone (bit 2)")
        .containsExactly(new int[] {4, 4});
    assertThat(metrics.get("event_router.match_keys").tags("key", "external_id").counter().count()).isEqualTo(2);
    assertThat(metrics.get("event_router.match_keys").tags("key", "em").counter().count()).as("registered at 0")
        .isZero();
    assertThat(metrics.find("event_router.match_keys").counters()).hasSize(7);
    assertThat(fake.received("meta").get(0).eventIds()).containsExactly("evt_1001", "evt_1002");
    JsonObject sent = fake.received("meta").get(0).body();
    assertThat(outcomes.sentPayloads).as("each delivery's payload: the body as it carried that event alone")
        .hasSize(2);
    for (int i = 0; i < 2; i++) {
      JsonObject payload = outcomes.sentPayloads.get(i);
      assertThat(payload.getJsonArray("data")).containsExactly(sent.getJsonArray("data").getValue(i));
      assertThat(payload.copy().put("data", sent.getJsonArray("data"))).as("the envelope as sent").isEqualTo(sent);
    }
    assertThat(deliveries("delivered")).isEqualTo(2);
    Timer latency = metrics.get("event_router.delivery.latency").tags("network", "meta").timer();
    assertThat(latency.count()).isEqualTo(2);
    assertThat(latency.max(TimeUnit.SECONDS)).as("from acceptance, not from the request").isGreaterThanOrEqualTo(3);
  }

  @Test
  @DisplayName("a transient answer is retried no sooner than its Retry-After, and the token is redacted")
  void retryHonoursRetryAfter() {
    fake.scriptMeta(body -> new Reply(503, FakeAdNetworks.metaError(2, null, "Service temporarily unavailable "
        + FakeAdNetworks.META_TOKEN), Map.of("Retry-After", "120")));
    Instant before = Instant.now();
    Await.result(channel(new MetaApi()).send(meta(FakeAdNetworks.META_TOKEN, fake.baseUrl()), jobs(1), CONFIG));

    RecordingOutbox.Recorded retry = outcomes.recorded.get(0);
    assertThat(retry.what()).isEqualTo("retry");
    assertThat(retry.due()).isAfterOrEqualTo(before.plusSeconds(119));
    assertThat(retry.error()).contains("code 2").contains("***").doesNotContain(FakeAdNetworks.META_TOKEN);
    assertThat(outcomes.sentPayloads).as("what was tried is kept").containsExactly(fake.received("meta").get(0).body());
    assertThat(deliveries("retried")).isEqualTo(1);
    assertThat(deliveries("delivered")).isZero();
  }

  @Test
  @DisplayName("a refused token pauses the integration and holds the batch at once, without splitting it")
  void unauthorized() {
    Outcome outcome = Await.result(channel(new MetaApi()).send(meta("bad-token-9", fake.baseUrl()), jobs(1, 2, 3),
        CONFIG));
    assertThat(outcome).isInstanceOf(Outcome.Unauthorized.class);
    assertThat(outcomes.recorded).hasSize(1);
    assertThat(outcomes.recorded.get(0).what()).isEqualTo("paused");
    assertThat(outcomes.recorded.get(0).deliveryIds()).containsExactly(1L, 2L, 3L);
    assertThat(outcomes.recorded.get(0).error()).contains("code 190").doesNotContain("bad-token-9");
    assertThat(outcomes.pauses).singleElement().satisfies(pause -> {
      assertThat(pause.integrationId()).isEqualTo("m");
      assertThat(pause.tokenSha256()).as("the refused token, by digest only")
          .isEqualTo(Sha256.hex("bad-token-9"));
    });
    assertThat(fake.received("meta")).hasSize(1);
    assertThat(deliveries("held")).isEqualTo(3);
    assertThat(deliveries("failed")).isZero();
  }

  @Test
  @DisplayName("the pause is logged once, when it begins, not on each refused request")
  void pauseLoggedOnce() {
    LogCapture logs = LogCapture.start();
    IntegrationChannel channel = channel(new MetaApi());
    Await.result(channel.send(meta("bad-token-9", fake.baseUrl()), jobs(1), CONFIG));
    Await.result(channel.send(meta("bad-token-9", fake.baseUrl()), jobs(2), CONFIG));
    logs.stop();
    assertThat(logs.text().split("paused: the network refused", -1)).hasSize(2);
    assertThat(logs.text()).doesNotContain("bad-token-9");
    assertThat(outcomes.recorded).extracting(RecordingOutbox.Recorded::what).containsExactly("paused", "paused");
  }

  @Test
  @DisplayName("invalid data splits the batch in halves until the bad event stands alone; the rest is delivered")
  void splitOnInvalidData() {
    fake.scriptMeta(body -> body.encode().contains("evt_1003")
        ? Reply.of(400, FakeAdNetworks.metaError(100, null, "Invalid parameter")) : null);
    Await.result(channel(new MetaApi())
        .send(meta(FakeAdNetworks.META_TOKEN, fake.baseUrl()), jobs(1, 2, 3, 4), CONFIG));

    assertThat(outcomes.recorded).containsExactly(
        new RecordingOutbox.Recorded("delivered", List.of(1L, 2L), null, null),
        new RecordingOutbox.Recorded("failed", List.of(3L), "meta HTTP 400 code 100: Invalid parameter", null),
        new RecordingOutbox.Recorded("delivered", List.of(4L), null, null));
  }

  @Test
  @DisplayName("after the failure threshold the breaker opens: deliveries are deferred without a request")
  void breakerDefers() {
    IntegrationChannel channel = channel(new MetaApi());
    IntegrationConfig unreachable = meta(FakeAdNetworks.META_TOKEN, "http://127.0.0.1:1");
    for (int i = 0; i < CONFIG.breakerFailures(); i++) {
      Await.result(channel.send(unreachable, jobs(i), CONFIG));
    }
    assertThat(outcomes.recorded).allSatisfy(r -> {
      assertThat(r.what()).isEqualTo("retry");
      assertThat(r.error()).as("the connection's own failure").matches("meta request failed: \\w*ConnectException: .+");
    });
    Instant before = Instant.now();
    assertThat(board.snapshot()).containsEntry("meta:" + WORKSPACE + "/m", "OPEN");
    assertThat(breakerGauge()).isEqualTo(2);
    Await.result(channel.send(meta(FakeAdNetworks.META_TOKEN, fake.baseUrl()), jobs(9), CONFIG));
    RecordingOutbox.Recorded deferred = outcomes.recorded.get(outcomes.recorded.size() - 1);
    assertThat(deferred.what()).isEqualTo("defer");
    assertThat(deferred.due()).isAfterOrEqualTo(before.plusMillis(CONFIG.breakerResetMs() - 1000));
    assertThat(fake.received("meta")).as("no request while the breaker is open").isEmpty();
    assertThat(deliveries("deferred")).isEqualTo(1);
    channel.close();
    assertThat(board.snapshot()).as("a closed channel leaves no state behind").isEmpty();
    channel.close();
    assertThat(board.snapshot()).as("closing twice is harmless").isEmpty();
    assertThat(metrics.find("event_router.breaker.state").gauge()).isNull();
  }

  @Test
  @DisplayName("the board follows the breaker: open after the threshold, half-open after the reset time, closed "
      + "after a successful request")
  void breakerStatesShown() {
    DeliveryConfig quickReset = new DeliveryConfig(100, 0, 1000, 1000, 60_000, 1000, 2, 200, 300_000, true);
    IntegrationChannel channel = new IntegrationChannel(vertx, KEY, new MetaApi(), outcomes, quickReset, board,
        new DeliveryMetrics(metrics, "meta"));
    IntegrationConfig unreachable = meta(FakeAdNetworks.META_TOKEN, "http://127.0.0.1:1");
    for (int i = 0; i < quickReset.breakerFailures(); i++) {
      Await.result(channel.send(unreachable, jobs(i), quickReset));
    }
    assertThat(board.snapshot()).containsExactly(Map.entry(KEY.toString(), "OPEN"));
    Await.until("half-open after the reset time", Await.WAIT,
        () -> "HALF_OPEN".equals(board.snapshot().get(KEY.toString())));
    assertThat(breakerGauge()).isEqualTo(1);
    Await.result(channel.send(meta(FakeAdNetworks.META_TOKEN, fake.baseUrl()), jobs(9), quickReset));
    assertThat(board.snapshot()).containsExactly(Map.entry(KEY.toString(), "CLOSED"));
    assertThat(breakerGauge()).isZero();
    channel.close();
  }

  /** The breaker notices published from now on. */
  private List<JsonObject> noticesFromNow() {
    List<JsonObject> notices = new CopyOnWriteArrayList<>();
    vertx.eventBus().<JsonObject>consumer(Addresses.BREAKER_OPENED, message -> notices.add(message.body()))
        .completion().await();
    return notices;
  }

  @Test
  @DisplayName("an open breaker is announced on the bus once; a peer's notice opens a closed breaker and no more")
  void breakerNotices() {
    List<JsonObject> notices = noticesFromNow();
    IntegrationChannel channel = channel(new MetaApi());
    Instant opened = Instant.now();
    channel.openFromPeer();
    assertThat(board.snapshot()).containsExactly(Map.entry(KEY.toString(), "OPEN"));
    Await.until("the opening announced", Await.WAIT, () -> notices.size() == 1);
    BreakerOpened notice = BreakerOpened.fromJson(notices.get(0));
    assertThat(notice).isEqualTo(new BreakerOpened("meta", WORKSPACE, "m", notice.until()));
    assertThat(notice.until()).as("open for the reset timeout")
        .isBetween(opened.plusMillis(CONFIG.breakerResetMs()), Instant.now().plusMillis(CONFIG.breakerResetMs()));
    channel.openFromPeer();
    Await.result(channel.send(meta(FakeAdNetworks.META_TOKEN, fake.baseUrl()), jobs(1), CONFIG));
    assertThat(outcomes.recorded.get(0).what()).as("held back like any open breaker").isEqualTo("defer");
    assertThat(notices).as("an open breaker is not opened, nor announced, again").hasSize(1);
    channel.close();
  }

  @Test
  @DisplayName("transient answers count toward the breaker as failed requests do; its opening notice quotes the last")
  void breakerCountsTransientAnswers() {
    fake.scriptMeta(body -> Reply.of(503, FakeAdNetworks.metaError(2, null, "Service temporarily unavailable "
        + FakeAdNetworks.META_TOKEN)));
    List<JsonObject> notices = noticesFromNow();
    IntegrationChannel channel = channel(new MetaApi());
    for (int i = 0; i < CONFIG.breakerFailures(); i++) {
      Await.result(channel.send(meta(FakeAdNetworks.META_TOKEN, fake.baseUrl()), jobs(i), CONFIG));
    }
    Await.result(channel.send(meta(FakeAdNetworks.META_TOKEN, fake.baseUrl()), jobs(9), CONFIG));

    assertThat(outcomes.recorded.get(outcomes.recorded.size() - 1).what()).isEqualTo("defer");
    assertThat(fake.received("meta")).hasSize(CONFIG.breakerFailures());
    Await.until("the opening announced", Await.WAIT, () -> notices.size() == 1);
    assertThat(BreakerOpened.fromJson(notices.get(0)).reason())
        .startsWith("meta HTTP 503 code 2: Service temporarily unavailable").doesNotContain(FakeAdNetworks.META_TOKEN);
    channel.close();
  }

  @Test
  @DisplayName("a breaker opened by requests that got no answer says so in its notice, without the token")
  void breakerOpenedByNoAnswer() {
    List<JsonObject> notices = noticesFromNow();
    IntegrationChannel channel = channel(new MetaApi());
    for (int i = 0; i < CONFIG.breakerFailures(); i++) {
      Await.result(channel.send(meta(FakeAdNetworks.META_TOKEN, "http://127.0.0.1:1"), jobs(i), CONFIG));
    }

    Await.until("the opening announced", Await.WAIT, () -> notices.size() == 1);
    assertThat(BreakerOpened.fromJson(notices.get(0)).reason()).startsWith("meta request failed")
        .doesNotContain(FakeAdNetworks.META_TOKEN);
    channel.close();
  }

  @Test
  @DisplayName("an answer that is neither retryable, nor about the token, nor about the data fails the batch whole")
  void permanentFailure() {
    fake.scriptMeta(body -> Reply.of(400, FakeAdNetworks.metaError(12345, null, "Unknown")));
    Await.result(channel(new MetaApi()).send(meta(FakeAdNetworks.META_TOKEN, fake.baseUrl()), jobs(1, 2), CONFIG));

    assertThat(outcomes.recorded).containsExactly(
        new RecordingOutbox.Recorded("failed", List.of(1L, 2L), "meta HTTP 400 code 12345: Unknown", null));
    assertThat(outcomes.sentPayloads).extracting(p -> p.getJsonArray("data").getJsonObject(0).getString("event_id"))
        .containsExactly("evt_1001", "evt_1002");
    assertThat(deliveries("failed")).isEqualTo(2);

    outcomes.sentPayloads.clear();
    DeliveryConfig unkept = new DeliveryConfig(100, 0, 1000, 1000, 60_000, 1000, 2, 60_000, 300_000, false);
    Await.result(channel(new MetaApi()).send(meta(FakeAdNetworks.META_TOKEN, fake.baseUrl()), jobs(3), unkept));
    assertThat(outcomes.sentPayloads).as("keep_payloads off: none kept").containsExactly((JsonObject) null);
  }

  @Test
  @DisplayName("an accepted request Meta acknowledges only in part: every delivery of it unconfirmed, counted, "
      + "none delivered and none split or sent again")
  void unconfirmed() {
    fake.scriptMeta(body -> Reply.of(200, new JsonObject().put("events_received", 2).put("fbtrace_id", "x")));
    Outcome outcome = Await.result(channel(new MetaApi()).send(meta(FakeAdNetworks.META_TOKEN, fake.baseUrl()),
        jobs(1, 2, 3), CONFIG));

    assertThat(outcome).isInstanceOf(Outcome.Unconfirmed.class);
    assertThat(outcomes.recorded).containsExactly(new RecordingOutbox.Recorded("unconfirmed", List.of(1L, 2L, 3L),
        "meta acknowledged 2 of the 3 events of this request (events_received) and does not say which", null));
    assertThat(deliveries("unconfirmed")).isEqualTo(3);
    assertThat(deliveries("delivered")).isZero();
    assertThat(fake.received("meta")).hasSize(1);
    assertThat(outcomes.sentPayloads).hasSize(3);
  }

  @Test
  @DisplayName("a webhook batch is one request per event, sent together; each recorded by its own answer, and the "
      + "batch's verdict is the first that is not delivered")
  void webhookFansOut() {
    List<Long> refused = new CopyOnWriteArrayList<>();
    HttpServer receiver = vertx.createHttpServer().requestHandler(request -> request.body().onSuccess(body -> {
      long eventId = Long.parseLong(request.getHeader("X-Event-Router-Event-Id").substring(4));
      boolean fail = eventId == 1002;
      if (fail) {
        refused.add(eventId);
      }
      request.response().setStatusCode(fail ? 503 : 204).end();
    })).listen(0, "127.0.0.1").await();
    IntegrationConfig hook = new IntegrationConfig("m", Network.WEBHOOK, null, "whsec-0123456789ab", null, null,
        null, null, null, true, false, null, DataProcessing.NONE, new WebhookConfig(
        "http://127.0.0.1:" + receiver.actualPort() + "/pb", "POST", Map.of(), Map.of()), true);
    Outcome outcome = Await.result(channel(new WebhookApi()).send(hook, jobs(1, 2, 3), CONFIG));

    assertThat(outcome).isEqualTo(new Outcome.Retry("webhook HTTP 503", 0));
    assertThat(refused).containsExactly(1002L);
    assertThat(outcomes.outcomesById()).containsExactlyInAnyOrder("delivered 1", "retry 2", "delivered 3");
    assertThat(outcomes.sentPayloads).as("a webhook's body is its one event's own")
        .extracting(p -> p.getString("event_id")).containsExactlyInAnyOrder("evt_1001", "evt_1002", "evt_1003");
    outcomes.recorded.clear();
    assertThat(Await.result(channel(new WebhookApi()).send(hook, jobs(1, 3), CONFIG)))
        .isInstanceOf(Outcome.Delivered.class);
    receiver.close().await();
  }

  @Test
  @DisplayName("TikTok: a rate-limit code under HTTP 200 is retried; code 0 is delivered")
  void tiktok() {
    fake.scriptTikTok(body -> Reply.of(200, FakeAdNetworks.tiktokCode(40100, "Too many requests")));
    Await.result(channel(new TikTokApi()).send(tiktok(FakeAdNetworks.TIKTOK_TOKEN), jobs(1), CONFIG));
    fake.scriptTikTok(body -> null);
    Await.result(channel(new TikTokApi()).send(tiktok(FakeAdNetworks.TIKTOK_TOKEN), jobs(2), CONFIG));

    assertThat(outcomes.recorded.get(0).what()).isEqualTo("retry");
    assertThat(outcomes.recorded.get(0).error()).isEqualTo("tiktok code 40100: Too many requests");
    assertThat(outcomes.recorded.get(1)).isEqualTo(new RecordingOutbox.Recorded("delivered", List.of(2L), null, null));
    JsonObject sent = fake.received("tiktok").get(1).body();
    assertThat(sent.getString("event_source_id")).isEqualTo("C4AB");
    assertThat(outcomes.sentPayloads.get(1)).as("the payload kept is the body sent, envelope and all")
        .isEqualTo(sent);
  }

  /** Meta, except that building the event of some deliveries, or of any batch, throws. */
  private static final class Unbuildable extends MetaDelegate {
    private final Set<Long> broken;
    private final boolean batchesBreak;

    Unbuildable(boolean batchesBreak, Long... broken) {
      this.broken = Set.of(broken);
      this.batchesBreak = batchesBreak;
    }

    @Override
    public JsonObject body(IntegrationConfig integration, List<ClaimedDelivery> jobs) {
      if (batchesBreak && jobs.size() > 1) {
        throw new IllegalStateException("a batch of " + jobs.size());
      }
      return super.body(integration, jobs);
    }

    @Override
    public JsonObject event(IntegrationConfig integration, ClaimedDelivery job) {
      if (broken.contains(job.deliveryId())) {
        throw new StackOverflowError();
      }
      return meta.event(integration, job);
    }
  }

  @Test
  @DisplayName("a batch whose request cannot be built: the deliveries that cannot be fail alone, saying so, and the "
      + "others go out as one batch")
  void unbuildableDeliveriesFailAlone() {
    IntegrationConfig integration = meta(FakeAdNetworks.META_TOKEN, fake.baseUrl());
    Outcome outcome = Await.result(channel(new Unbuildable(false, 2L)).send(integration, jobs(1, 2, 3), CONFIG));
    assertThat(outcome).isEqualTo(new Outcome.Delivered());
    assertThat(outcomes.recorded).containsExactly(
        new RecordingOutbox.Recorded("failed", List.of(2L), "could not be processed: StackOverflowError", null),
        new RecordingOutbox.Recorded("delivered", List.of(1L, 3L), null, null));
    assertThat(fake.received("meta")).singleElement()
        .satisfies(r -> assertThat(r.eventIds()).containsExactly("evt_1001", "evt_1003"));
    assertThat(deliveries("failed")).isOne();
    assertThat(deliveries("delivered")).isEqualTo(2);
  }

  @Test
  @DisplayName("when none can be built, all fail, each with its failure, and nothing is sent")
  void noneBuildable() {
    IntegrationConfig integration = meta(FakeAdNetworks.META_TOKEN, fake.baseUrl());
    Outcome outcome = Await.result(channel(new Unbuildable(false, 1L, 2L)).send(integration, jobs(1, 2), CONFIG));
    assertThat(outcome).isEqualTo(new Outcome.Failed("could not be processed: StackOverflowError"));
    assertThat(outcomes.recorded).containsExactly(
        new RecordingOutbox.Recorded("failed", List.of(1L, 2L), "could not be processed: StackOverflowError", null));
    assertThat(fake.received("meta")).isEmpty();
    assertThat(deliveries("failed")).isEqualTo(2);
  }

  @Test
  @DisplayName("when each can be built alone but not the batch, the batch's failure is all of theirs")
  void batchUnbuildable() {
    IntegrationConfig integration = meta(FakeAdNetworks.META_TOKEN, fake.baseUrl());
    Outcome outcome = Await.result(channel(new Unbuildable(true)).send(integration, jobs(1, 2), CONFIG));
    assertThat(outcome).isEqualTo(new Outcome.Failed("could not be processed: IllegalStateException"));
    assertThat(outcomes.recorded).containsExactly(new RecordingOutbox.Recorded("failed", List.of(1L, 2L),
        "could not be processed: IllegalStateException", null));
    assertThat(fake.received("meta")).isEmpty();
  }

  @Test
  @DisplayName("a host the integration may not reach: failed for good with why, nothing sent, no failure for the "
      + "breaker; the credential test answers 'refused' without a status")
  void refusedTarget() {
    IntegrationConfig publicOnly = new IntegrationConfig("m", Network.META, "123", FakeAdNetworks.META_TOKEN,
        fake.baseUrl(), "v25.0", "chat", null, null, true, false, null, DataProcessing.NONE, null);
    IntegrationChannel channel = channel(new MetaApi());
    String why = "the host of the meta URL resolves to a loopback, link-local or private address; set "
        + "allow_private_network to send there";
    for (int i = 0; i <= CONFIG.breakerFailures(); i++) {
      assertThat(Await.result(channel.send(publicOnly, jobs(i), CONFIG))).isEqualTo(new Outcome.Failed(why));
    }
    assertThat(outcomes.recorded).hasSize(CONFIG.breakerFailures() + 1)
        .allSatisfy(r -> assertThat(r).extracting(RecordingOutbox.Recorded::what, RecordingOutbox.Recorded::error)
            .containsExactly("failed", why));
    assertThat(board.snapshot()).containsExactly(Map.entry(KEY.toString(), "CLOSED"));
    assertThat(fake.received("meta")).isEmpty();

    JsonObject verdict = Await.result(channel.test(publicOnly, jobs(9).get(0), 1_000));
    assertThat(verdict.getString("verdict")).isEqualTo("refused");
    assertThat(verdict.getString("message")).isEqualTo(why);
    assertThat(verdict.containsKey("http_status")).isFalse();
    assertThat(fake.received("meta")).isEmpty();
  }
}
