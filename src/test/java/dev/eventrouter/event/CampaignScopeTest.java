package dev.eventrouter.event;

import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class CampaignScopeTest {

  @Test
  @DisplayName("a buyer's campaigns cross the bus beside the query and come out as a SQL text[]; no scope stays none")
  void roundTrip() {
    JsonObject scoped = CampaignScope.put(new JsonObject().put("limit", 5), List.of("111", "112"));
    assertThat(scoped.getJsonArray("campaign_scope")).containsExactly("111", "112");
    assertThat(CampaignScope.of(scoped)).containsExactly("111", "112");
    JsonObject empty = CampaignScope.put(new JsonObject(), List.of());
    assertThat(CampaignScope.of(empty)).as("an empty scope matches nothing, unlike none").isEmpty();
    JsonObject unscoped = CampaignScope.put(new JsonObject().put("limit", 5), null);
    assertThat(unscoped.fieldNames()).containsExactly("limit");
    assertThat(CampaignScope.of(unscoped)).isNull();
  }
}
