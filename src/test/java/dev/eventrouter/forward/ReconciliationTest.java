package dev.eventrouter.forward;

import dev.eventrouter.support.Await;
import dev.eventrouter.support.FakeAdNetworks;
import dev.eventrouter.support.FakeAdNetworks.Reply;
import dev.eventrouter.support.TestApp;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static dev.eventrouter.support.TestApp.KEY_A;
import static dev.eventrouter.support.TestApp.WS_A;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Receipt reconciliation against the fake networks and a real PostgreSQL: a request Meta acknowledges with fewer
 * events_received than were sent, or TikTok answers 20001 (partial success), leaves its deliveries unconfirmed,
 * not delivered: shown in the status, listed, counted, and re-queued by a bulk redelivery.
 */
class ReconciliationTest extends FakeNetworksTest {

  @Test
  @DisplayName("Meta counting one event fewer and TikTok's 20001: every delivery unconfirmed with the network's "
      + "words, none delivered; a redelivery once the networks take them all delivers them under the same ids")
  void shortReceipts() {
    fake.scriptMeta(body -> Reply.of(200, new JsonObject()
        .put("events_received", body.getJsonArray("data").size() - 1).put("fbtrace_id", "AbC")));
    fake.scriptTikTok(body -> Reply.of(200, FakeAdNetworks.tiktokCode(20001, "Partial success")));
    app = TestApp.start(vertx, ForwardingTestConfig.config(databaseUrl, fake.baseUrl()));

    List<String> ids = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      var response = app.postEvent(KEY_A, new JsonObject().put("event_name", "REG").put("telegram_id", 700 + i)
          .put("workspace_id", WS_A));
      ids.add(response.bodyAsJsonObject().getJsonObject("data").getString("event_id"));
    }
    Await.until("all ten deliveries answered", DEADLINE,
        () -> count("meta", "unconfirmed") + count("tiktok", "unconfirmed") == 10);
    assertThat(count("meta", "delivered") + count("tiktok", "delivered")).isZero();

    JsonArray deliveries = app.get("/api/v1/events/" + ids.get(0), KEY_A).bodyAsJsonObject().getJsonObject("data")
        .getJsonArray("deliveries");
    assertThat(deliveries.stream().map(JsonObject.class::cast).map(d -> d.getString("status")))
        .containsOnly("unconfirmed");
    assertThat(deliveries.getJsonObject(0).getString("last_error")).startsWith("meta acknowledged ")
        .endsWith("(events_received) and does not say which");
    assertThat(deliveries.getJsonObject(1).getString("last_error"))
        .isEqualTo("tiktok code 20001 (partial success): Partial success");
    assertThat(deliveries.getJsonObject(0).getValue("delivered_at")).isNull();

    JsonArray listed = app.get("/api/v1/deliveries?status=unconfirmed&limit=100", KEY_A).bodyAsJsonObject()
        .getJsonObject("data").getJsonArray("deliveries");
    assertThat(listed).hasSize(10);
    String metrics = app.metrics();
    assertThat(metrics).contains("event_router_deliveries_total{integration=\"meta-main\",network=\"meta\","
        + "outcome=\"unconfirmed\",workspace=\"" + WS_A + "\"} 5.0");
    assertThat(metrics).contains("event_router_deliveries_total{integration=\"tiktok-main\",network=\"tiktok\","
        + "outcome=\"unconfirmed\",workspace=\"" + WS_A + "\"} 5.0");

    fake.reset();
    JsonObject requeued = app.postJson("/api/v1/deliveries/redeliver", KEY_A,
        new JsonObject().put("status", new JsonArray().add("unconfirmed"))).bodyAsJsonObject().getJsonObject("data");
    assertThat(requeued.getInteger("requeued")).isEqualTo(10);
    Await.until("all delivered", DEADLINE, () -> count("meta", "delivered") + count("tiktok", "delivered") == 10);
    assertThat(fake.accepted("meta")).containsOnlyKeys(ids);
    assertThat(fake.accepted("tiktok")).containsOnlyKeys(ids);
  }
}
