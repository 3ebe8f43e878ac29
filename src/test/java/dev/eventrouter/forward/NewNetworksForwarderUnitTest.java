package dev.eventrouter.forward;

import dev.eventrouter.bus.Addresses;
import dev.eventrouter.config.AppConfig;
import dev.eventrouter.config.ConfigLoader;
import dev.eventrouter.config.LiveConfig;
import dev.eventrouter.event.ClickData;
import dev.eventrouter.event.ClickIds;
import dev.eventrouter.forward.google.GoogleAdsApi;
import dev.eventrouter.forward.snapchat.SnapchatApi;
import dev.eventrouter.store.ClaimedDelivery;
import dev.eventrouter.support.Await;
import dev.eventrouter.support.FakeAdNetworks;
import dev.eventrouter.support.FakeGoogleAds;
import dev.eventrouter.support.RecordingOutbox;
import dev.eventrouter.support.TestApp;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The forwarders of Google Ads and Snapchat against the fake networks (real HTTP), their outcomes recorded instead of
 * stored: skipped and deferred deliveries, a partial failure row by row, uploads and adjustments in two requests,
 * access tokens refreshed and refused, Snapchat's validate path.
 */
@ExtendWith(VertxExtension.class)
class NewNetworksForwarderUnitTest {

  private static final UUID WS = UUID.fromString(TestApp.WS_A);

  private Vertx vertx;
  private FakeAdNetworks fake;
  private RecordingOutbox queue;
  private PrometheusMeterRegistry metrics;
  private String deployment;

  @BeforeEach
  void start(Vertx vertx) {
    this.vertx = vertx;
    fake = FakeAdNetworks.start(vertx);
    queue = new RecordingOutbox();
    metrics = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
  }

  @AfterEach
  void stop() {
    if (deployment != null) {
      Await.result(vertx.undeploy(deployment));
    }
    fake.stop();
  }

  private void deploy(NetworkApi api, JsonObject integration) {
    JsonObject config = TestApp.config("postgresql://unused@localhost:1/none");
    config.put("delivery", new JsonObject().put("linger_ms", 0).put("scan_interval_ms", 3_600_000)
        .put("request_timeout_ms", 2_000));
    config.getJsonArray("workspaces").getJsonObject(0).put("integrations", new JsonArray().add(integration));
    AppConfig app = new ConfigLoader(Map.of()).resolve(config);
    deployment = Await.result(vertx.deployVerticle(new ForwarderVerticle(api, queue, new LiveConfig(app), metrics,
        new BreakerBoard(metrics), new PauseBoard(metrics))));
  }

  private static ClaimedDelivery job(long id, String integration, String mapped, ClickIds ids, Instant at) {
    return new ClaimedDelivery(id, 7000 + id, WS, integration, "FTD", mapped, 0, 42L, "s", new BigDecimal("5"),
        "EUR", new JsonObject().put("email", "a@example.com"), at,
        new ClickData(null, null, null, null, null, "203.0.113.1", "UA", "https://lp.example/", ids), null,
        "approved", null, 0, null);
  }

  private void wake(String network) {
    vertx.eventBus().publish(Addresses.deliveriesDue(network), network);
  }

  private static final ClickIds GCLID = new ClickIds("Cj0-good", null, null, null, null);

  @Test
  @DisplayName("Google: a partial failure row by row, no click id skipped, an early adjustment deferred, uploads "
      + "and adjustments in two requests, the login customer id sent")
  void google() {
    deploy(new GoogleAdsApi(), FakeGoogleAds.integration(fake.baseUrl()).put("login_customer_id", "111-222-3333"));
    Instant now = Instant.now();
    Instant old = now.minus(Duration.ofDays(2));
    queue.due.addAll(List.of(
        job(1, "google-main", "111", GCLID, now),
        job(2, "google-main", "111", new ClickIds(FakeGoogleAds.BAD_GCLID, null, null, null, null), now),
        job(3, "google-main", "111", ClickIds.NONE, now),
        job(4, "google-main", "111:RETRACTION", GCLID, now),
        job(5, "google-main", "111:RESTATEMENT", GCLID, old)));
    wake("google_ads");

    Await.until("all five recorded", Await.WAIT, () -> queue.outcomesById().size() == 5);
    assertThat(queue.outcomesById()).containsExactlyInAnyOrder("delivered 1", "failed 2", "skipped 3", "defer 4",
        "failed 5");
    assertThat(queue.recorded).filteredOn(r -> r.what().equals("failed")).extracting(RecordingOutbox.Recorded::error)
        .containsExactlyInAnyOrder("google conversionUploadError UNPARSEABLE_GCLID: The click ID could not be decoded.",
            "google conversionAdjustmentUploadError CONVERSION_NOT_FOUND: The conversion for this conversion action "
                + "and conversion identifier can't be found.");
    assertThat(queue.recorded).filteredOn(r -> r.what().equals("skipped")).singleElement()
        .satisfies(r -> assertThat(r.error()).startsWith("no Google click id"));
    assertThat(queue.recorded).filteredOn(r -> r.what().equals("defer")).singleElement()
        .satisfies(r -> assertThat(r.due()).isAfter(now.plus(Duration.ofHours(24))));
    assertThat(fake.received("google_ads")).singleElement().satisfies(r -> assertThat(r.eventIds())
        .containsExactly("evt_7001", "evt_7002"));
    assertThat(fake.received("google_ads/adjust")).singleElement().satisfies(r -> assertThat(r.eventIds())
        .containsExactly("evt_7005"));
    assertThat(fake.google().lastLoginCustomerId).isEqualTo("1112223333");
    assertThat(fake.google().refreshes()).isOne();
    assertThat(metrics.scrape()).contains("outcome=\"skipped\"");
  }

  @Test
  @DisplayName("Google: an expired access token is refreshed once on Google's 401; a refused refresh token pauses")
  void googleTokens() {
    deploy(new GoogleAdsApi(), FakeGoogleAds.integration(fake.baseUrl()));
    queue.due.add(job(1, "google-main", "111", GCLID, Instant.now()));
    wake("google_ads");
    Await.until("the first delivered", Await.WAIT, () -> queue.outcomesById().contains("delivered 1"));
    fake.google().expireTokens();
    queue.due.add(job(2, "google-main", "222", new ClickIds(null, "0AA-b", null, null, null), Instant.now()));
    wake("google_ads");
    Await.until("the second delivered", Await.WAIT, () -> queue.outcomesById().contains("delivered 2"));
    assertThat(fake.google().refreshes()).isEqualTo(2);
    assertThat(fake.received("google_ads")).extracting(FakeAdNetworks.Received::status).containsExactly(200, 401, 200);
    assertThat(fake.google().lastLoginCustomerId).isNull();

    Await.result(vertx.undeploy(deployment));
    deployment = null;
    deploy(new GoogleAdsApi(), FakeGoogleAds.integration(fake.baseUrl()).put("refresh_token", "revoked-one"));
    queue.due.add(job(3, "google-main", "111", GCLID, Instant.now()));
    wake("google_ads");
    Await.until("paused", Await.WAIT, () -> queue.outcomesById().contains("paused 3"));
    assertThat(queue.pauses).singleElement().satisfies(p -> assertThat(p.reason())
        .isEqualTo("google OAuth HTTP 400 invalid_grant: Token has been expired or revoked."));
  }

  @Test
  @DisplayName("Snapchat: events to /v3/<pixel>/events with the token in the query; a test code to the validate path")
  void snapchat() {
    deploy(new SnapchatApi(), FakeAdNetworks.snapchatIntegration(fake.baseUrl()).put("page_url",
        "https://lp.example/"));
    queue.due.add(job(1, "snap-main", "PURCHASE", new ClickIds(null, null, null, "sc-1", null), Instant.now()));
    wake("snapchat");
    Await.until("delivered", Await.WAIT, () -> queue.outcomesById().contains("delivered 1"));
    assertThat(fake.received("snapchat")).singleElement().satisfies(r -> {
      assertThat(r.token()).isEqualTo(FakeAdNetworks.SNAPCHAT_TOKEN);
      assertThat(r.body().getJsonArray("data").getJsonObject(0).getJsonObject("user_data")
          .getString("sc_click_id")).isEqualTo("sc-1");
    });

    Await.result(vertx.undeploy(deployment));
    deployment = null;
    deploy(new SnapchatApi(), FakeAdNetworks.snapchatIntegration(fake.baseUrl()).put("test_event_code", "T"));
    queue.due.add(job(2, "snap-main", "PURCHASE", ClickIds.NONE, Instant.now()));
    wake("snapchat");
    Await.until("validated", Await.WAIT, () -> queue.outcomesById().contains("delivered 2"));
    assertThat(fake.received("snapchat/validate")).hasSize(1);
    assertThat(fake.received("snapchat")).hasSize(1);
  }
}
