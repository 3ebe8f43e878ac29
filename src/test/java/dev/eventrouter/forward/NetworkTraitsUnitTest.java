package dev.eventrouter.forward;

import dev.eventrouter.config.DataProcessing;
import dev.eventrouter.config.IntegrationConfig;
import dev.eventrouter.config.Network;
import dev.eventrouter.event.ClickData;
import dev.eventrouter.forward.meta.MetaApi;
import dev.eventrouter.forward.tiktok.TikTokApi;
import dev.eventrouter.forward.webhook.WebhookApi;
import dev.eventrouter.store.ClaimedDelivery;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/** What every network has by default, which Google Ads and Snapchat change: requests, skips, waits, ages, tests. */
class NetworkTraitsUnitTest {

  private static ClaimedDelivery job(long id) {
    return new ClaimedDelivery(id, id, UUID.randomUUID(), "i", "REG", "Lead", 0, 42, null, null, "USD", null,
        Instant.now(), null, null);
  }

  @Test
  @DisplayName("one request a batch where the network batches, one an event where it does not; no skip, no wait")
  void defaults() {
    ClaimedDelivery a = job(1);
    ClaimedDelivery b = job(2);
    assertThat(new MetaApi().requests(List.of(a, b))).containsExactly(List.of(a, b));
    assertThat(new WebhookApi().requests(List.of(a, b))).containsExactly(List.of(a), List.of(b));
    JsonObject body = new JsonObject().put("data", "x");
    assertThat(new WebhookApi().payloads(body, 1)).singleElement().isSameAs(body);
    assertThat(new WebhookApi().userField()).isNull();
    for (NetworkApi api : List.of(new MetaApi(), new TikTokApi(), new WebhookApi())) {
      assertThat(api.skip(a)).isNull();
      assertThat(api.notBefore(a)).isNull();
      assertThat(api.testClick()).isSameAs(ClickData.NONE);
      assertThat(api.maxEventAge()).isEqualTo(Duration.ofDays(7));
    }
  }

  @Test
  @DisplayName("only Google Ads corrects what it took; a credential test's verdict per event is its one event's")
  void correctsAndTests() {
    IntegrationConfig meta = new IntegrationConfig("m", Network.META, "1", "t", "https://x.example", "v25.0", "chat",
        null, "TEST", true, false, null, DataProcessing.NONE, null);
    assertThat(meta.corrects()).isFalse();
    assertThat(meta.withTestEventCode("T2").corrects()).isFalse();
    JsonObject verdict = CredentialCheck.answered(job(3), meta,
        new Outcome.PerEvent(List.of(new Outcome.Failed("row refused"))), 200, null);
    assertThat(verdict.getString("verdict")).isEqualTo("refused");
    assertThat(verdict.getString("message")).isEqualTo("row refused");
    assertThat(CredentialCheck.answered(job(4), meta, new Outcome.PerEvent(List.of(new Outcome.Delivered())), 200,
        null).getString("verdict")).isEqualTo("accepted");
  }
}
