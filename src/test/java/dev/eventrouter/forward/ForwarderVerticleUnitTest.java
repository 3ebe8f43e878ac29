package dev.eventrouter.forward;

import dev.eventrouter.bus.Addresses;
import dev.eventrouter.bus.BreakerOpened;
import dev.eventrouter.bus.BusFailure;
import dev.eventrouter.bus.CredentialTest;
import dev.eventrouter.common.Sha256;
import dev.eventrouter.config.AppConfig;
import dev.eventrouter.config.ConfigLoader;
import dev.eventrouter.config.LiveConfig;
import dev.eventrouter.forward.meta.MetaApi;
import dev.eventrouter.forward.webhook.WebhookApi;
import dev.eventrouter.config.IntegrationConfig;
import dev.eventrouter.store.ClaimedDelivery;
import dev.eventrouter.store.Pause;
import dev.eventrouter.support.Await;
import dev.eventrouter.support.FakeAdNetworks;
import dev.eventrouter.support.FakeAdNetworks.Reply;
import dev.eventrouter.support.LogCapture;
import dev.eventrouter.support.RecordingOutbox;
import dev.eventrouter.support.TestApp;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.eventbus.ReplyException;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.junit5.VertxExtension;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The forwarder's cycle against an outbox double (the outbox's SQL is ForwardingTest's, on PostgreSQL): what it claims,
 * how it groups, expires, dry-runs and ends deliveries, and that it is woken by the bus.
 */
@ExtendWith(VertxExtension.class)
class ForwarderVerticleUnitTest {

  private static final UUID WS = UUID.fromString(TestApp.WS_A);

  private Vertx vertx;
  private FakeAdNetworks fake;
  private RecordingOutbox queue;
  private PrometheusMeterRegistry metrics;
  private PauseBoard pauseBoard;
  private String deployment;

  @BeforeEach
  void start(Vertx vertx) {
    this.vertx = vertx;
    fake = FakeAdNetworks.start(vertx);
    queue = new RecordingOutbox();
    metrics = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    pauseBoard = new PauseBoard(metrics);
  }

  @AfterEach
  void stop() {
    if (deployment != null) {
      Await.result(vertx.undeploy(deployment));
    }
    fake.stop();
  }

  /** WS_A with a live Meta integration and a dry-run one; a long scan, so only a wake-up starts a cycle. */
  private LiveConfig deploy() {
    return deploy(new JsonObject(), integrations(fake.baseUrl()));
  }

  private LiveConfig deploy(JsonObject delivery, JsonArray integrations) {
    return deploy(new MetaApi(), delivery, integrations);
  }

  private LiveConfig deploy(NetworkApi api, JsonObject delivery, JsonArray integrations) {
    LiveConfig live = new LiveConfig(config(delivery, integrations));
    deployment = Await.result(vertx.deployVerticle(new ForwarderVerticle(api, queue, live, metrics,
        new BreakerBoard(metrics), pauseBoard)));
    return live;
  }

  private static AppConfig config(JsonObject delivery, JsonArray integrations) {
    JsonObject config = TestApp.config("postgresql://unused@localhost:1/none");
    config.put("delivery", new JsonObject().put("linger_ms", 0).put("scan_interval_ms", 3_600_000)
        .put("request_timeout_ms", 500).mergeIn(delivery));
    config.getJsonArray("workspaces").getJsonObject(0).put("integrations", integrations);
    config.getJsonArray("workspaces").getJsonObject(1).put("integrations", integrations.copy());
    return new ConfigLoader(Map.of()).resolve(config);
  }

  private static JsonObject meta(String id, String apiBase) {
    return new JsonObject().put("id", id).put("type", "meta").put("pixel_id", "1234567890")
        .put("access_token", FakeAdNetworks.META_TOKEN).put("api_base", apiBase).put("allow_private_network", true);
  }

  private static JsonArray integrations(String liveApiBase) {
    return new JsonArray().add(meta("live", liveApiBase))
        .add(meta("dry", "https://unused.example").put("dry_run", true));
  }

  private static ClaimedDelivery job(long id, String integration, int attempts, Instant receivedAt,
                                     JsonObject userData) {
    return new ClaimedDelivery(id, 5000 + id, WS, integration, "REG", "Lead", attempts, 42, null, null, "USD", userData,
        receivedAt, null, null);
  }

  private void wake() {
    vertx.eventBus().publish(Addresses.deliveriesDue("meta"), "meta");
  }

  private static Pause pause(String token, Instant pausedAt) {
    return new Pause("meta", WS, "live", "meta HTTP 400 code 190: token expired", Sha256.hex(token), pausedAt);
  }

  private String pausedGauge() {
    return "event_router_integration_paused{integration=\"live\",network=\"meta\",workspace=\"" + WS + "\"}";
  }

  @Test
  @DisplayName("a paused integration's deliveries are held with no request, while the others' go out")
  void pausedHolds() {
    queue.pauses.add(pause(FakeAdNetworks.META_TOKEN, Instant.now()));
    deploy();
    Instant now = Instant.now();
    queue.due.addAll(List.of(job(1, "live", 0, now, null), job(2, "dry", 0, now, null)));
    wake();

    Await.until("both recorded", Await.WAIT, () -> queue.outcomesById().size() == 2);
    assertThat(queue.outcomesById()).containsExactlyInAnyOrder("held 1", "dry_run 2");
    assertThat(queue.recorded).filteredOn(r -> r.what().equals("held")).singleElement()
        .satisfies(r -> assertThat(r.error()).contains("code 190"));
    assertThat(fake.received("meta")).isEmpty();
    assertThat(pauseBoard.snapshot()).containsOnlyKeys("meta:" + WS + "/live");
    assertThat(queue.pauses).as("the token is the one refused: no resume").hasSize(1);
    Await.until("the held counted", Await.WAIT, () -> metrics.scrape().contains("outcome=\"held\""));
    assertThat(metrics.scrape()).contains(pausedGauge() + " 1.0");
  }

  @Test
  @DisplayName("a pause another node ended first: dropped here too, without a second 'resumed' line or wake-up")
  void resumedByAnotherNode() {
    queue.pauses.add(pause("the-old-token", Instant.now()));
    queue.resumedElsewhere = true;
    AtomicInteger wakeUps = new AtomicInteger();
    vertx.eventBus().consumer(Addresses.deliveriesDue("meta"), message -> wakeUps.incrementAndGet());
    LogCapture logs = LogCapture.start();
    deploy();
    Await.until("the pause dropped", Await.WAIT, () -> queue.pauses.isEmpty() && pauseBoard.snapshot().isEmpty());
    logs.stop();
    assertThat(logs.text()).doesNotContain("resumed (");
    assertThat(wakeUps).hasValue(0);
  }

  @Test
  @DisplayName("a pause whose token the config has since replaced ends at once, and its deliveries go out")
  void newTokenResumes() {
    queue.pauses.add(pause("the-old-token", Instant.now()));
    LogCapture logs = LogCapture.start();
    deploy();
    Await.until("the pause ended", Await.WAIT, () -> queue.pauses.isEmpty());
    queue.due.add(job(1, "live", 0, Instant.now(), null));
    wake();

    Await.until("delivered", Await.WAIT, () -> queue.outcomesById().contains("delivered 1"));
    logs.stop();
    assertThat(logs.text()).contains("live resumed (its access_token was changed)");
    assertThat(pauseBoard.snapshot()).isEmpty();
    assertThat(metrics.scrape()).contains(pausedGauge() + " 0.0");
  }

  @Test
  @DisplayName("a due probe sends one held delivery: accepted, the pause ends; with nothing held, it ends too")
  void probe() {
    queue.pauses.add(pause(FakeAdNetworks.META_TOKEN, Instant.now().minusSeconds(3600)));
    queue.held.add(job(7, "live", 1, Instant.now(), null));
    LogCapture logs = LogCapture.start();
    deploy(new JsonObject().put("pause_probe_ms", 100), integrations(fake.baseUrl()));

    Await.until("the pause ended", Await.WAIT, () -> queue.pauses.isEmpty());
    logs.stop();
    assertThat(fake.received("meta")).singleElement()
        .satisfies(r -> assertThat(r.eventIds()).containsExactly("evt_5007"));
    assertThat(queue.outcomesById()).containsExactly("delivered 7");
    assertThat(logs.text()).contains("resumed (a probe was accepted)")
        .doesNotContain("checking paused integrations failed");
    assertThat(queue.heldLeases).as("a lease covering one request").containsExactly(1500L);
  }

  @Test
  @DisplayName("a probe accepted but not counted as received still shows the token works: the pause ends")
  void unconfirmedProbe() {
    fake.scriptMeta(body -> Reply.of(200, new JsonObject().put("events_received", 0)));
    queue.pauses.add(pause(FakeAdNetworks.META_TOKEN, Instant.now().minusSeconds(3600)));
    queue.held.add(job(7, "live", 1, Instant.now(), null));
    deploy(new JsonObject().put("pause_probe_ms", 100), integrations(fake.baseUrl()));

    Await.until("the pause ended", Await.WAIT, () -> queue.pauses.isEmpty());
    assertThat(queue.outcomesById()).containsExactly("unconfirmed 7");
  }

  @Test
  @DisplayName("a due probe with nothing held ends the pause: there is nothing to protect")
  void probeWithNothingHeld() {
    queue.pauses.add(pause(FakeAdNetworks.META_TOKEN, Instant.now().minusSeconds(3600)));
    LogCapture logs = LogCapture.start();
    deploy(new JsonObject().put("pause_probe_ms", 100), integrations(fake.baseUrl()));

    Await.until("the pause ended", Await.WAIT, () -> queue.pauses.isEmpty());
    logs.stop();
    assertThat(fake.received("meta")).isEmpty();
    assertThat(logs.text()).contains("resumed (no delivery is held)")
        .doesNotContain("checking paused integrations failed");
  }

  @Test
  @DisplayName("a pause not yet due for a probe is left alone")
  void probeNotDue() {
    queue.pauses.add(pause(FakeAdNetworks.META_TOKEN, Instant.now()));
    queue.held.add(job(7, "live", 1, Instant.now(), null));
    deploy(new JsonObject().put("pause_probe_ms", 3_600_000), integrations(fake.baseUrl()));
    queue.due.add(job(1, "live", 0, Instant.now(), null));
    wake();

    Await.until("held", Await.WAIT, () -> queue.outcomesById().contains("held 1"));
    assertThat(queue.held).as("not probed").hasSize(1);
    assertThat(queue.pauses).hasSize(1);
    assertThat(fake.received("meta")).isEmpty();
  }

  @Test
  @DisplayName("a token refused mid-cycle: the batches after it in the same cycle are held, with no request")
  void refusedMidCycle() {
    deploy(new JsonObject().put("batch_size", 1), new JsonArray().add(meta("live", fake.baseUrl())
        .put("access_token", "revoked-token")));
    Instant now = Instant.now();
    queue.due.addAll(List.of(job(1, "live", 0, now, null), job(2, "live", 0, now, null),
        job(3, "live", 0, now, null)));
    wake();

    Await.until("all recorded", Await.WAIT, () -> queue.outcomesById().size() == 3);
    assertThat(queue.outcomesById()).containsExactly("paused 1", "held 2", "held 3");
    assertThat(fake.received("meta")).hasSize(1);
    assertThat(queue.pauses).singleElement()
        .satisfies(p -> assertThat(p.tokenSha256()).isEqualTo(Sha256.hex("revoked-token")));
    assertThat(pauseBoard.snapshot()).as("shown at once, before the next read").containsOnlyKeys(
        "meta:" + WS + "/live");
  }

  @Test
  @DisplayName("batches that go through leave the next batch of the cycle to go through too")
  void acceptedBatchesKeepSending() {
    List<Throwable> unhandled = new CopyOnWriteArrayList<>();
    vertx.exceptionHandler(unhandled::add);
    deploy(new JsonObject().put("batch_size", 1), integrations(fake.baseUrl()));
    Instant now = Instant.now();
    queue.due.addAll(List.of(job(1, "live", 0, now, null), job(2, "live", 0, now, null),
        job(3, "live", 0, now, null)));
    wake();

    Await.until("all recorded", Await.WAIT, () -> queue.outcomesById().size() == 3);
    assertThat(queue.outcomesById()).containsExactly("delivered 1", "delivered 2", "delivered 3");
    assertThat(fake.received("meta")).hasSize(3);
    assertThat(pauseBoard.snapshot()).isEmpty();
    assertThat(unhandled).as("an accepted outcome is not read as a refusal").isEmpty();
  }

  @Test
  @DisplayName("a pause ended by another node is dropped here at the next read: its deliveries go out again")
  void pauseEndedElsewhere() {
    queue.pauses.add(pause(FakeAdNetworks.META_TOKEN, Instant.now()));
    deploy(new JsonObject().put("scan_interval_ms", 50), integrations(fake.baseUrl()));
    Await.until("shown paused", Await.WAIT, () -> !pauseBoard.snapshot().isEmpty());
    queue.pauses.clear();
    Await.until("no longer shown", Await.WAIT, () -> pauseBoard.snapshot().isEmpty());
    queue.due.add(job(1, "live", 0, Instant.now(), null));

    Await.until("delivered", Await.WAIT, () -> queue.outcomesById().contains("delivered 1"));
    assertThat(metrics.scrape()).contains(pausedGauge() + " 0.0");
  }

  @Test
  @DisplayName("a probe the network refuses again keeps the pause and holds its delivery again")
  void probeRefused() {
    queue.pauses.add(pause("revoked-token", Instant.now().minusSeconds(3600)));
    queue.held.add(job(7, "live", 1, Instant.now(), null));
    LogCapture logs = LogCapture.start();
    deploy(new JsonObject().put("pause_probe_ms", 100), new JsonArray().add(meta("live", fake.baseUrl())
        .put("access_token", "revoked-token")));

    Await.until("held again", Await.WAIT, () -> queue.outcomesById().contains("paused 7"));
    logs.stop();
    assertThat(fake.received("meta")).hasSize(1);
    assertThat(queue.pauses).hasSize(1);
    assertThat(logs.text()).doesNotContain("resumed");
  }

  @Test
  @DisplayName("a pause by hand is neither ended by the config's token nor probed; a notice has the pauses read at once")
  void pausedByHand() {
    queue.pauses.add(new Pause("meta", WS, "live", "paused by hand by key \"owner\"", Pause.MANUAL,
        Instant.now().minusSeconds(3600)));
    queue.held.add(job(7, "live", 1, Instant.now(), null));
    deploy(new JsonObject().put("pause_probe_ms", 100).put("scan_interval_ms", 3_600_000),
        integrations(fake.baseUrl()));
    for (int notice = 0; notice < 3; notice++) {
      int reads = queue.pauseReads.get();
      vertx.eventBus().publish(Addresses.PAUSES_CHANGED, "meta");
      Await.until("the pauses read on the notice", Await.WAIT, () -> queue.pauseReads.get() > reads);
    }
    assertThat(queue.pauses).as("not ended by the config's token").hasSize(1);
    assertThat(queue.held).as("not probed").hasSize(1);
    assertThat(fake.received("meta")).isEmpty();
  }

  @Test
  @DisplayName("the pause of an integration no longer configured, or disabled, is neither probed nor ended")
  void pauseOfAnAbsentIntegration() {
    queue.pauses.add(new Pause("meta", WS, "gone", "code 190", Sha256.hex("x"), Instant.now().minusSeconds(3600)));
    queue.pauses.add(new Pause("meta", WS, "off", "code 190", Sha256.hex("x"), Instant.now().minusSeconds(3600)));
    queue.held.add(job(7, "gone", 1, Instant.now(), null));
    queue.held.add(job(8, "off", 1, Instant.now(), null));
    LogCapture logs = LogCapture.start();
    deploy(new JsonObject().put("pause_probe_ms", 100).put("scan_interval_ms", 50), new JsonArray()
        .add(meta("off", fake.baseUrl()).put("enabled", false)));

    Await.until("a few reads of the pauses", Await.WAIT, () -> queue.pauseReads.get() >= 4);
    assertThat(queue.pauses).hasSize(2);
    logs.stop();
    assertThat(queue.held).as("none probed").hasSize(2);
    assertThat(fake.received("meta")).isEmpty();
    assertThat(logs.text()).as("skipped, not failed on").doesNotContain("checking paused integrations failed");
  }

  @Test
  @DisplayName("a refused probe is not repeated at the next reads of the pauses, only pause_probe_ms after it")
  void refusedProbeWaitsForItsInterval() {
    queue.pauses.add(pause("revoked-token", Instant.now().minusSeconds(3600)));
    queue.held.add(job(7, "live", 1, Instant.now(), null));
    queue.held.add(job(8, "live", 1, Instant.now(), null));
    deploy(new JsonObject().put("pause_probe_ms", 60_000).put("scan_interval_ms", 50), new JsonArray()
        .add(meta("live", fake.baseUrl()).put("access_token", "revoked-token")));

    Await.until("held again", Await.WAIT, () -> queue.outcomesById().contains("paused 7"));
    int reads = queue.pauseReads.get();
    Await.until("a few more reads of the pauses", Await.WAIT, () -> queue.pauseReads.get() >= reads + 4);
    assertThat(fake.received("meta")).as("one probe").hasSize(1);
    assertThat(queue.held).extracting(ClaimedDelivery::deliveryId).containsExactly(8L);
    assertThat(pauseBoard.snapshot()).containsOnlyKeys("meta:" + WS + "/live");
  }

  @Test
  @DisplayName("a probe that finds nothing to claim while the store still holds a delivery (another node's probe "
      + "has it) leaves the pause: the next deliveries are held, with no request")
  void probeFindsNothingButOneIsStillHeld() {
    queue.pauses.add(pause(FakeAdNetworks.META_TOKEN, Instant.now().minusSeconds(3600)));
    queue.heldInFlight.add(job(7, "live", 1, Instant.now(), null));
    LogCapture logs = LogCapture.start();
    deploy(new JsonObject().put("pause_probe_ms", 100), integrations(fake.baseUrl()));
    Await.until("the start-up claim", Await.WAIT, () -> queue.claims() == 1);
    queue.due.add(job(1, "live", 0, Instant.now(), null));
    wake();

    Await.until("recorded", Await.WAIT, () -> !queue.recorded.isEmpty());
    logs.stop();
    assertThat(queue.resumes).as("asked to end only if none is held").containsExactly(true);
    assertThat(queue.outcomesById()).containsExactly("held 1");
    assertThat(queue.pauses).hasSize(1);
    assertThat(fake.received("meta")).isEmpty();
    assertThat(pauseBoard.snapshot()).containsOnlyKeys("meta:" + WS + "/live");
    assertThat(logs.text()).doesNotContain("resumed");
  }

  @Test
  @DisplayName("a failed read of the pauses is logged, and the forwarder starts and claims all the same")
  void pausesReadFails() {
    queue.failNextPauses = new IllegalStateException("database down");
    LogCapture logs = LogCapture.start();
    deploy();
    Await.until("the start-up claim", Await.WAIT, () -> queue.claims() == 1);
    queue.due.add(job(1, "live", 0, Instant.now(), null));
    wake();

    Await.until("delivered", Await.WAIT, () -> queue.outcomesById().contains("delivered 1"));
    logs.stop();
    assertThat(logs.text()).contains("meta forwarder: checking paused integrations failed: "
        + "java.lang.IllegalStateException");
  }

  @Test
  @DisplayName("woken by the bus, it sends each integration's deliveries, dry-runs the dry ones, ends the rest")
  void cycle() {
    deploy();
    Instant now = Instant.now();
    queue.due.addAll(List.of(
        job(1, "live", 0, now, null),
        job(2, "dry", 0, now, null),
        job(3, "gone", 0, now, null),
        job(4, "live", 3, now.minus(Duration.ofDays(8)), null)));
    wake();

    Await.until("every delivery recorded", Await.WAIT, () -> queue.outcomesById().size() == 4);
    assertThat(queue.recorded).as("no write for an empty group")
        .allSatisfy(r -> assertThat(r.deliveryIds()).isNotEmpty());
    assertThat(queue.outcomesById()).containsExactlyInAnyOrder("delivered 1", "dry_run 2", "failed 3", "expired 4");
    assertThat(fake.received("meta")).hasSize(1);
    assertThat(fake.received("meta").get(0).eventIds()).containsExactly("evt_5001");
    assertThat(queue.dryRunPayloads.get(0).getJsonArray("data").getJsonObject(0).getString("event_id"))
        .isEqualTo("evt_5002");
    // Counted once each outcome is written, so the figures can lag the recording by a moment.
    Await.until("the outcomes counted", Await.WAIT, () -> List.of("delivered", "dry_run", "failed", "expired")
        .stream().allMatch(outcome -> metrics.scrape().contains("outcome=\"" + outcome + "\"")));
    assertThat(metrics.scrape())
        .contains("event_router_deliveries_total{integration=\"live\",network=\"meta\",outcome=\"delivered\","
            + "workspace=\"" + WS + "\"} 1.0")
        .contains("integration=\"dry\",network=\"meta\",outcome=\"dry_run\"")
        .contains("integration=\"gone\",network=\"meta\",outcome=\"failed\"")
        .contains("integration=\"live\",network=\"meta\",outcome=\"expired\"")
        .contains("event_router_breaker_state{integration=\"live\",network=\"meta\",workspace=\"" + WS
            + "\"} 0.0");
  }

  @Test
  @DisplayName("a rejected user_data value is counted once, on the first attempt only")
  void rejectedCountedOnFirstAttempt() {
    deploy();
    JsonObject bad = new JsonObject().put("email", "user@");
    queue.due.addAll(List.of(job(1, "live", 0, Instant.now(), bad), job(2, "live", 2, Instant.now(), bad)));
    wake();

    Await.until("both delivered", Await.WAIT, () -> queue.outcomesById().size() == 2);
    assertThat(metrics.scrape()).contains("event_router_user_data_rejected_total{field=\"email\",network=\"meta\"} 1.0");
    assertThat(metrics.scrape()).as("only the field given and refused is counted")
        .doesNotContain("field=\"phone\"");
  }

  @Test
  @DisplayName("a full claim starts the next cycle at once; a stopped forwarder claims nothing more")
  void drainsThenStops() {
    deploy();
    for (int i = 0; i < 4 * 500 + 3; i++) {
      queue.due.add(job(i, "dry", 1, Instant.now(), null));
    }
    wake();
    Await.until("all claimed and dry-run", Await.WAIT, () -> queue.outcomesById().size() == 4 * 500 + 3);
    assertThat(queue.claims()).as("a full claim of 2000, then the remaining 3").isGreaterThanOrEqualTo(2);

    Await.result(vertx.undeploy(deployment));
    deployment = null;
    int claimsAtStop = queue.claims();
    queue.due.add(job(99_999, "dry", 1, Instant.now(), null));
    wake();
    assertThat(queue.claims()).isEqualTo(claimsAtStop);
    assertThat(queue.due).hasSize(1);
  }

  @Test
  @DisplayName("a claim asks for four batches (of due rows, and as many of new events), leased for their requests one "
      + "after another and a margin, once the config's integrations of its network have cursors")
  void claimShape() {
    deploy();
    Await.until("the start-up claim", Await.WAIT, () -> queue.claims() == 1);
    assertThat(queue.claimLog.get(0).limit()).isEqualTo(4 * 500);
    assertThat(queue.claimLog.get(0).leaseMs()).isEqualTo(500 * (2 * 4 + 4) + 1000);
    assertThat(queue.followed).containsExactly("meta " + WS + " live", "meta " + WS + " dry",
        "meta " + TestApp.WS_B + " live", "meta " + TestApp.WS_B + " dry");
  }

  @Test
  @DisplayName("a webhook forwarder, one request per event, claims 20 at a time, or a smaller batch_size")
  void webhookClaimShape() {
    for (int batchSize : new int[] {500, 10}) {
      RecordingOutbox outbox = new RecordingOutbox();
      LiveConfig live = new LiveConfig(config(new JsonObject().put("batch_size", batchSize), new JsonArray()));
      String id = Await.result(vertx.deployVerticle(new ForwarderVerticle(new WebhookApi(), outbox, live, metrics,
          new BreakerBoard(metrics), pauseBoard)));
      Await.until("the start-up claim", Await.WAIT, () -> outbox.claims() == 1);
      assertThat(outbox.claimLog.get(0).limit()).isEqualTo(Math.min(batchSize, 20));
      Await.result(vertx.undeploy(id));
    }
  }

  @Test
  @DisplayName("each claim is settled once its deliveries have their outcomes, so its cursors move past them only "
      + "then")
  void settlesAfterTheOutcomes() {
    queue.due.add(job(1, "live", 0, Instant.now(), null));
    queue.due.add(job(2, "live", 0, Instant.now(), null));
    deploy();

    Await.until("the claim settled", Await.WAIT, () -> !queue.settled.isEmpty());
    RecordingOutbox.Settled first = queue.settled.get(0);
    assertThat(first.claim().jobs()).extracting(ClaimedDelivery::deliveryId).containsExactly(1L, 2L);
    assertThat(first.outcomesBefore()).isEqualTo(2);
  }

  @Test
  @DisplayName("work already due is taken up at start, without a wake-up")
  void startsWithWorkDue() {
    queue.due.add(job(1, "live", 0, Instant.now(), null));
    deploy();

    Await.until("the due delivery sent", Await.WAIT, () -> queue.outcomesById().size() == 1);
    assertThat(queue.outcomesById()).containsExactly("delivered 1");
  }

  @Test
  @DisplayName("a wake-up waits linger_ms before claiming, so a burst of events goes out in one batch")
  void lingers() {
    deploy(new JsonObject().put("linger_ms", 200), integrations(fake.baseUrl()));
    Await.until("the start-up claim", Await.WAIT, () -> queue.claims() == 1);
    Instant woken = Instant.now();
    wake();

    Await.until("the claim after the wake-up", Await.WAIT, () -> queue.claims() == 2);
    assertThat(queue.claimLog.get(1).at()).isAfterOrEqualTo(woken.plusMillis(190));
  }

  @Test
  @DisplayName("a failed claim is logged and the next wake-up claims again")
  void failedClaim() {
    deploy();
    Await.until("the start-up claim", Await.WAIT, () -> queue.claims() == 1);
    LogCapture logs = LogCapture.start();
    try {
      queue.failNextClaim = new IllegalStateException("database down");
      wake();
      Await.until("the failure logged", Await.WAIT, () -> logs.text().contains("claiming deliveries failed"));
      queue.due.add(job(1, "live", 0, Instant.now(), null));
      wake();
      Await.until("the delivery sent", Await.WAIT, () -> queue.outcomesById().size() == 1);
    } finally {
      logs.stop();
    }
  }

  @Test
  @DisplayName("a disabled integration, or one of another network, ends its deliveries as no longer configured")
  void notConfiguredHere() {
    JsonArray integrations = integrations(fake.baseUrl())
        .add(meta("off", fake.baseUrl()).put("enabled", false))
        .add(new JsonObject().put("id", "tt").put("type", "tiktok").put("pixel_code", "C4AB")
            .put("access_token", "t").put("page_url", "https://x.example/"));
    deploy(new JsonObject(), integrations);
    queue.due.addAll(List.of(job(1, "off", 0, Instant.now(), null), job(2, "tt", 0, Instant.now(), null)));
    wake();

    Await.until("both ended", Await.WAIT, () -> queue.outcomesById().size() == 2);
    assertThat(queue.recorded).extracting(RecordingOutbox.Recorded::what).containsOnly("failed");
    assertThat(queue.recorded.get(0).error()).isEqualTo("integration off is no longer configured or enabled");
  }

  @Test
  @DisplayName("when every delivery of an integration is too old, they expire and nothing else is sent or stored")
  void onlyExpired() {
    deploy();
    Instant old = Instant.now().minus(Duration.ofDays(8));
    queue.due.addAll(List.of(job(1, "live", 0, old, null), job(2, "dry", 0, old, null)));
    wake();

    Await.until("both expired", Await.WAIT, () -> queue.outcomesById().size() == 2);
    assertThat(queue.recorded).extracting(RecordingOutbox.Recorded::what).containsExactly("expired", "expired");
    assertThat(queue.recorded).allSatisfy(r -> assertThat(r.deliveryIds()).hasSize(1));
    assertThat(fake.received("meta")).isEmpty();
  }

  @Test
  @DisplayName("cursors are asked for once per config: not again at the next cycle, again after a reload")
  void followsEachConfigOnce() {
    LiveConfig live = deploy();
    Await.until("the start-up claim", Await.WAIT, () -> queue.claims() == 1);
    wake();
    Await.until("a second cycle", Await.WAIT, () -> queue.claims() == 2);
    assertThat(queue.followed).hasSize(4);

    live.replace(config(new JsonObject(), new JsonArray().add(meta("added", fake.baseUrl()))));
    wake();
    Await.until("a cycle under the new config", Await.WAIT, () -> queue.claims() == 3);
    assertThat(queue.followed).hasSize(6).endsWith("meta " + WS + " added", "meta " + TestApp.WS_B + " added");
  }

  @Test
  @DisplayName("an integration removed by a reload loses its channel: added again, it starts with a closed breaker")
  void removedIntegrationClosesItsChannel() {
    JsonObject oneFailureOpens = new JsonObject().put("breaker", new JsonObject().put("failure_threshold", 1));
    LiveConfig live = deploy(oneFailureOpens, integrations("http://127.0.0.1:1"));
    queue.due.add(job(1, "live", 0, Instant.now(), null));
    wake();
    Await.until("the failed request recorded", Await.WAIT, () -> queue.outcomesById().size() == 1);
    assertThat(queue.outcomesById()).containsExactly("retry 1");
    queue.due.add(job(3, "live", 0, Instant.now(), null));
    wake();
    Await.until("the next cycle's delivery recorded", Await.WAIT, () -> queue.outcomesById().size() == 2);
    assertThat(queue.outcomesById()).as("the open breaker is kept from one cycle to the next")
        .containsExactly("retry 1", "defer 3");

    assertThat(breakerGauges()).containsExactly("live=2.0");
    live.replace(config(oneFailureOpens, new JsonArray()));
    int claims = queue.claims();
    wake();
    Await.until("a cycle under the new config", Await.WAIT, () -> queue.claims() > claims);
    assertThat(breakerGauges()).as("the removed integration's channel is closed, its gauge gone").isEmpty();
    live.replace(config(oneFailureOpens, integrations(fake.baseUrl())));
    queue.due.add(job(2, "live", 0, Instant.now(), null));
    wake();

    Await.until("the second delivery recorded", Await.WAIT, () -> queue.outcomesById().size() == 3);
    assertThat(queue.outcomesById()).containsExactly("retry 1", "defer 3", "delivered 2");
    assertThat(breakerGauges()).containsExactly("live=0.0");
    Await.result(vertx.undeploy(deployment));
    deployment = null;
    assertThat(breakerGauges()).as("a stopped forwarder closes its channels").isEmpty();
  }

  /** The breaker gauges in /metrics, as integration=value. */
  private List<String> breakerGauges() {
    return metrics.find("event_router.breaker.state").gauges().stream()
        .map(g -> g.getId().getTag("integration") + "=" + g.value()).toList();
  }

  @Test
  @DisplayName("a breaker-opened notice opens this network's channel of a configured integration, and nothing else")
  void peerOpenedBreaker() {
    deploy();
    publishOpened("tiktok", WS, "live");
    publishOpened("meta", WS, "gone");
    publishOpened("meta", UUID.randomUUID(), "live");
    // The bus delivers one sender's messages to a consumer in order: once this one is seen, so were the others.
    publishOpened("meta", WS, "dry");
    Await.until("the dry integration's breaker open", Await.WAIT, () -> breakerGauges().contains("dry=2.0"));
    assertThat(breakerGauges()).as("another network's, an unknown integration's, another workspace's: ignored")
        .containsExactly("dry=2.0");
    publishOpened("meta", WS, "live");
    Await.until("the live integration's breaker open", Await.WAIT, () -> breakerGauges().contains("live=2.0"));
    queue.due.add(job(1, "live", 0, Instant.now(), null));
    wake();
    Await.until("the delivery recorded", Await.WAIT, () -> queue.outcomesById().size() == 1);
    assertThat(queue.outcomesById()).as("held back without a request").containsExactly("defer 1");
    assertThat(fake.received("meta")).isEmpty();
  }

  @Test
  @DisplayName("a credential test over the bus: one event with the asked test code, past an open breaker and "
      + "outside the outbox; the network's verdict is the reply; an integration not here fails 404")
  void credentialTest() {
    deploy();
    publishOpened("meta", WS, "live");
    Await.until("the live integration's breaker open", Await.WAIT, () -> breakerGauges().contains("live=2.0"));

    JsonObject verdict = Await.result(vertx.eventBus().<JsonObject>request(Addresses.integrationTest("meta"),
        new CredentialTest(WS, "live", "FTD", "TEST9", 5_000).toJson())).body();
    assertThat(verdict.getString("verdict")).isEqualTo("accepted");
    assertThat(verdict.getString("event_name")).isEqualTo("Purchase");
    assertThat(verdict.getString("test_event_code")).isEqualTo("TEST9");
    assertThat(fake.received("meta")).singleElement().satisfies(request -> {
      assertThat(request.body().getString("test_event_code")).isEqualTo("TEST9");
      assertThat(request.eventIds()).containsExactly(verdict.getString("event_id"));
    });
    assertThat(queue.recorded).as("nothing recorded in the outbox").isEmpty();

    fake.scriptMeta(body -> Reply.hang());
    long start = System.nanoTime();
    JsonObject timedOut = Await.result(vertx.eventBus().<JsonObject>request(Addresses.integrationTest("meta"),
        new CredentialTest(WS, "live", "REG", "TEST9", 200).toJson())).body();
    assertThat(timedOut.getString("verdict")).isEqualTo("unavailable");
    assertThat(Duration.ofNanos(System.nanoTime() - start)).as("bounded by the asker's shorter timeout")
        .isLessThan(Duration.ofMillis(480));

    Throwable missing = Await.failure(vertx.eventBus().request(Addresses.integrationTest("meta"),
        new CredentialTest(WS, "gone", "REG", "TEST9", 5_000).toJson()));
    assertThat(((ReplyException) missing).failureCode()).isEqualTo(BusFailure.NOT_FOUND);
    Throwable otherWorkspace = Await.failure(vertx.eventBus().request(Addresses.integrationTest("meta"),
        new CredentialTest(UUID.randomUUID(), "live", "REG", "TEST9", 5_000).toJson()));
    assertThat(((ReplyException) otherWorkspace).failureCode()).isEqualTo(BusFailure.NOT_FOUND);
  }

  private void publishOpened(String network, UUID workspace, String integration) {
    vertx.eventBus().publish(Addresses.BREAKER_OPENED, new BreakerOpened(network, workspace, integration, Instant.now().plusSeconds(30)).toJson());
  }

  @Test
  @DisplayName("successive cycles send through the same open channel")
  void successiveCycles() {
    deploy();
    queue.due.add(job(1, "live", 0, Instant.now(), null));
    wake();
    Await.until("the first delivery", Await.WAIT, () -> queue.outcomesById().size() == 1);
    queue.due.add(job(2, "live", 0, Instant.now(), null));
    wake();

    Await.until("the second delivery", Await.WAIT, () -> queue.outcomesById().size() == 2);
    assertThat(queue.outcomesById()).containsExactly("delivered 1", "delivered 2");
  }

  @Test
  @DisplayName("a wake-up during a cycle is kept: one more cycle follows that one, never one beside it")
  void wakeDuringCycle() {
    fake.scriptMeta(body -> body.encode().contains("evt_5001") ? Reply.hang() : null);
    deploy();
    queue.due.add(job(1, "live", 0, Instant.now(), null));
    wake();
    Await.until("the first request under way", Await.WAIT, () -> fake.received("meta").size() == 1);
    queue.due.add(job(2, "live", 0, Instant.now(), null));
    wake();

    Await.until("both recorded", Await.WAIT, () -> queue.outcomesById().size() == 2);
    assertThat(queue.outcomesById()).as("the hanging request times out before the second cycle begins")
        .containsExactly("retry 1", "delivered 2");
  }

  @Test
  @DisplayName("the periodic scan finds work that nobody announced")
  void scanFindsWork() {
    deploy(new JsonObject().put("scan_interval_ms", 50), integrations(fake.baseUrl()));
    Await.until("the start-up claim", Await.WAIT, () -> queue.claims() >= 1);
    queue.due.add(job(1, "live", 0, Instant.now(), null));

    Await.until("the delivery found by a scan", Await.WAIT, () -> queue.outcomesById().size() == 1);
    assertThat(queue.outcomesById()).containsExactly("delivered 1");
  }

  @Test
  @DisplayName("an outcome that cannot be written is logged; the deliveries keep their lease and the forwarder goes on")
  void outcomeWriteFails() {
    deploy();
    Await.until("the start-up claim", Await.WAIT, () -> queue.claims() == 1);
    LogCapture logs = LogCapture.start();
    try {
      queue.failNextRecord = new IllegalStateException("database down");
      queue.due.add(job(1, "live", 0, Instant.now(), null));
      wake();
      Await.until("the failure logged", Await.WAIT,
          () -> logs.text().contains("processing the deliveries of integration live failed"));
      queue.due.add(job(2, "live", 0, Instant.now(), null));
      wake();
      Await.until("the next delivery recorded", Await.WAIT, () -> queue.outcomesById().size() == 1);
      assertThat(queue.outcomesById()).containsExactly("delivered 2");
    } finally {
      logs.stop();
    }
  }

  @Test
  @DisplayName("a stop lets the cycle under way record its outcomes, and starts no other even when woken meanwhile")
  void stopDrains() {
    fake.scriptMeta(body -> Reply.hang());
    deploy();
    queue.due.add(job(1, "live", 0, Instant.now(), null));
    wake();
    Await.until("the request under way", Await.WAIT, () -> fake.received("meta").size() == 1);
    int claims = queue.claims();
    var stopped = vertx.undeploy(deployment);
    deployment = null;
    queue.due.add(job(2, "live", 0, Instant.now(), null));
    wake();

    Await.result(stopped);
    assertThat(queue.outcomesById()).containsExactly("retry 1");
    assertThat(queue.claims()).isEqualTo(claims);
  }

  /**
   * Meta, except that an e-mail starting with "poison" makes its rule throw a StackOverflowError, as a pattern's
   * recursion did: a failure no input check here foresees, raised where the forwarder builds a delivery's data.
   */
  private static final class PoisonedMeta extends MetaDelegate {
    private final UserDataMapping poisoned = new UserDataMapping(JsonArray::new, List.of(new UserField("email", "em",
        value -> {
          if (value.startsWith("poison")) {
            throw new StackOverflowError();
          }
          return value;
        }, UserField.Form.HASHED)), List.of());

    @Override
    public JsonObject event(IntegrationConfig integration, ClaimedDelivery job) {
      poisoned.user(job);
      return meta.event(integration, job);
    }

    @Override
    public UserDataMapping userData() {
      return poisoned;
    }
  }

  private static ClaimedDelivery ofWorkspace(UUID workspace, long id, String integration, String email) {
    return new ClaimedDelivery(id, 5000 + id, workspace, integration, "REG", "Lead", 0, 42, null, null, "USD",
        new JsonObject().put("email", email), Instant.now(), null, null);
  }

  @Test
  @DisplayName("an Error while building one workspace's delivery, claimed first in the cycle: that delivery alone "
      + "fails, saying it could not be processed; another workspace's and the same batch's others go out at once")
  void poisonFailsAlone() {
    deploy(new PoisonedMeta(), new JsonObject(), integrations(fake.baseUrl()));
    Await.until("the start-up claim", Await.WAIT, () -> queue.claims() == 1);
    UUID other = UUID.fromString(TestApp.WS_B);
    queue.due.addAll(List.of(ofWorkspace(WS, 1, "live", "poison@x.example"),
        ofWorkspace(WS, 2, "live", "fine@x.example"), ofWorkspace(other, 3, "live", "fine@y.example"),
        ofWorkspace(WS, 4, "dry", "poison@x.example"), ofWorkspace(WS, 5, "dry", "fine@x.example")));
    wake();

    Await.until("all recorded", Await.WAIT, () -> queue.outcomesById().size() == 5);
    assertThat(queue.outcomesById()).containsExactlyInAnyOrder("failed 1", "delivered 2", "delivered 3",
        "failed 4", "dry_run 5");
    assertThat(queue.recorded).filteredOn(r -> r.what().equals("failed")).hasSize(2)
        .allSatisfy(r -> assertThat(r.error()).isEqualTo("could not be processed: StackOverflowError"));
    assertThat(fake.received("meta")).flatExtracting(FakeAdNetworks.Received::eventIds)
        .containsExactlyInAnyOrder("evt_5002", "evt_5003");
    assertThat(queue.claims()).as("one claim after the start-up one took them all").isEqualTo(2);
    List<String> failedCounts = List.of("dry", "live").stream()
        .map(integration -> "event_router_deliveries_total{integration=\"" + integration + "\",network=\"meta\","
            + "outcome=\"failed\",workspace=\"" + WS + "\"} 1.0").toList();
    Await.until("each failure counted", Await.WAIT,
        () -> failedCounts.stream().allMatch(metrics.scrape()::contains));
  }

  @Test
  @DisplayName("a failure thrown while one integration's group is prepared, before any request: that group is left "
      + "to its lease, and the next group of the same claim, another workspace's, goes out at once")
  void groupFailureIsolated() {
    LogCapture logs = LogCapture.start();
    deploy();
    UUID other = UUID.fromString(TestApp.WS_B);
    // No received_at: reading it throws while the group is sorted into expired and fresh, a bug's stand-in.
    ClaimedDelivery broken = new ClaimedDelivery(1, 5001, WS, "live", "REG", "Lead", 0, 42, null, null, "USD", null,
        null, null, null);
    queue.due.addAll(List.of(broken, ofWorkspace(other, 2, "live", "fine@y.example")));
    wake();

    Await.until("the other workspace's delivered", Await.WAIT, () -> queue.outcomesById().contains("delivered 2"));
    logs.stop();
    assertThat(queue.outcomesById()).containsExactly("delivered 2");
    assertThat(logs.text()).contains("meta forwarder: processing the deliveries of integration live failed: "
        + "java.lang.NullPointerException");
  }
}
