package dev.eventrouter.api.deliveries;

import dev.eventrouter.event.DeliveryFilter;
import dev.eventrouter.event.EventIds;
import dev.eventrouter.http.ApiException;
import dev.eventrouter.http.ErrorCode;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.UUID;

import static dev.eventrouter.http.ValidationErrors.badFields;
import static dev.eventrouter.support.QueryStrings.query;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The filters of the deliveries list and of bulk redelivery, read from a query string or a body. */
class DeliveryFiltersUnitTest {

  private static final UUID WS = UUID.fromString("7c9e6679-7425-40de-944b-e07fc1f90ae7");
  private static final Instant NOW = Instant.parse("2026-11-22T12:00:00Z");

  @Test
  @DisplayName("a list without parameters: every state, the last 7 days up to a minute ahead, 100 at a time")
  void listDefaults() {
    DeliveryFilter filter = DeliveryFilters.list(WS, query(), NOW);
    assertThat(filter.workspaceId()).isEqualTo(WS);
    assertThat(filter.statuses()).containsExactlyElementsOf(DeliveryFilter.STATES);
    assertThat(filter.integrationId()).isNull();
    assertThat(filter.eventName()).isNull();
    assertThat(filter.fromEventId()).isEqualTo(EventIds.firstIdAt(NOW.minus(Duration.ofDays(7))));
    assertThat(filter.toEventId()).isEqualTo(EventIds.firstIdAt(NOW.plusSeconds(60)));
    assertThat(filter.afterEventId()).isZero();
    assertThat(filter.afterDelivery()).isZero();
    assertThat(filter.limit()).isEqualTo(100);
  }

  @Test
  @DisplayName("a list's parameters are read as given; the cursor resumes after its delivery")
  void listParameters() {
    DeliveryFilter filter = DeliveryFilters.list(WS, query("integration_id", "meta-main", "status", "failed,expired",
        "event_name", "level up", "since", "2026-11-01T00:00:00Z", "until", "2026-11-02T00:00:00+01:00",
        "limit", "1000", "cursor", "evt_382707178206666752-17"), NOW);
    assertThat(filter.integrationId()).isEqualTo("meta-main");
    assertThat(filter.statuses()).containsExactlyInAnyOrder("failed", "expired");
    assertThat(filter.eventName()).isEqualTo("level up");
    assertThat(filter.fromEventId()).isEqualTo(EventIds.firstIdAt(Instant.parse("2026-11-01T00:00:00Z")));
    assertThat(filter.toEventId()).isEqualTo(EventIds.firstIdAt(Instant.parse("2026-11-01T23:00:00Z")));
    assertThat(filter.limit()).isEqualTo(1000);
    assertThat(filter.afterEventId()).isEqualTo(382707178206666752L);
    assertThat(filter.afterDelivery()).isEqualTo(17);
    assertThat(DeliveryFilter.fromJson(filter.toJson())).as("as it crosses the bus").isEqualTo(filter);
  }

  @Test
  @DisplayName("every bad list parameter is named, once")
  void listRefused() {
    assertThat(badFields(() -> DeliveryFilters.list(WS, query("status", "failed,lost", "limit", "1001",
        "cursor", "evt_1", "integration_id", "a/b", "event_name", "a.b", "colour", "red"), NOW)))
        .containsExactlyInAnyOrder("status", "limit", "cursor", "integration_id", "event_name", "colour");
    assertThat(badFields(() -> DeliveryFilters.list(WS, query("limit", "0", "since", "2026-11-23T00:00:00Z",
        "until", "2026-11-22T00:00:00Z"), NOW))).containsExactlyInAnyOrder("limit", "since");
    assertThat(badFields(() -> DeliveryFilters.list(WS, query("since", "2026-10-01T00:00:00Z",
        "until", "2026-11-02T00:00:00Z"), NOW))).as("over 31 days").containsExactly("since");
    assertThat(badFields(() -> DeliveryFilters.list(WS, query("since", "2023-12-31T00:00:00Z", "until", "x"), NOW)))
        .containsExactlyInAnyOrder("since", "until");
    assertThat(badFields(() -> DeliveryFilters.list(WS, query("since", "2023-12-31T12:00:00Z",
        "until", "2024-01-02T00:00:00Z"), NOW))).as("no event is older than 2024").containsExactly("since");
    assertThat(badFields(() -> DeliveryFilters.list(WS, query("cursor", "evt_99999999999999999999-1"), NOW)))
        .as("an id past a long").containsExactly("cursor");
    assertThat(badFields(() -> DeliveryFilters.list(WS, query("limit", "ten"), NOW))).containsExactly("limit");
  }

  @Test
  @DisplayName("the smallest and largest limits are taken")
  void limitEdges() {
    assertThat(DeliveryFilters.list(WS, query("limit", "1"), NOW).limit()).isEqualTo(1);
    assertThat(DeliveryFilters.list(WS, query("limit", "1000"), NOW).limit()).isEqualTo(1000);
    assertThat(DeliveryFilters.redeliver(WS, new JsonObject().put("limit", 1), NOW).limit()).isEqualTo(1);
    assertThat(DeliveryFilters.list(WS, query("status", "paused"), NOW).statuses()).containsExactly("paused");
  }

  @Test
  @DisplayName("31 days exactly is allowed; the last minute ahead counts the events just stored")
  void rangeEdges() {
    DeliveryFilter filter = DeliveryFilters.list(WS, query("since", "2026-10-01T00:00:00Z",
        "until", "2026-11-01T00:00:00Z"), NOW);
    assertThat(filter.toEventId() - filter.fromEventId())
        .isEqualTo(EventIds.firstIdAt(Instant.parse("2026-11-01T00:00:00Z"))
            - EventIds.firstIdAt(Instant.parse("2026-10-01T00:00:00Z")));
  }

  @Test
  @DisplayName("a bad until is reported alone, even when the since given is after the fallback until")
  void badUntilAlone() {
    assertThat(badFields(() -> DeliveryFilters.list(WS, query("since", NOW.plus(Duration.ofDays(1)).toString(),
        "until", "soon"), NOW))).containsExactly("until");
  }

  @Test
  @DisplayName("a redelivery without fields: failed, expired and unconfirmed, the last 7 days, 1000 per call")
  void redeliverDefaults() {
    DeliveryFilter filter = DeliveryFilters.redeliver(WS, new JsonObject(), NOW);
    assertThat(filter.statuses()).containsExactly("failed", "expired", "unconfirmed");
    assertThat(filter.limit()).isEqualTo(1000);
    assertThat(filter.fromEventId()).isEqualTo(EventIds.firstIdAt(NOW.minus(Duration.ofDays(7))));
    DeliveryFilter chosen = DeliveryFilters.redeliver(WS, new JsonObject().put("workspace_id", WS.toString())
        .put("status", new JsonArray().add("expired")).put("limit", 10_000).put("integration_id", "t1")
        .put("event_name", "FTD"), NOW);
    assertThat(chosen.statuses()).containsExactly("expired");
    assertThat(chosen.limit()).isEqualTo(10_000);
    assertThat(chosen.integrationId()).isEqualTo("t1");
    assertThat(chosen.eventName()).isEqualTo("FTD");
  }

  @Test
  @DisplayName("a redelivery re-queues only final states, and names each bad field once")
  void redeliverRefused() {
    assertThat(badFields(() -> DeliveryFilters.redeliver(WS, new JsonObject()
        .put("status", new JsonArray().add("delivered")), NOW))).containsExactly("status");
    assertThat(badFields(() -> DeliveryFilters.redeliver(WS, new JsonObject()
        .put("status", new JsonArray()), NOW))).containsExactly("status");
    assertThat(badFields(() -> DeliveryFilters.redeliver(WS, new JsonObject()
        .put("status", "failed"), NOW))).containsExactly("status");
    assertThat(badFields(() -> DeliveryFilters.redeliver(WS, new JsonObject()
        .put("status", new JsonArray().add(1)), NOW))).containsExactly("status");
    assertThat(badFields(() -> DeliveryFilters.redeliver(WS, new JsonObject().put("limit", 10_001)
        .put("since", 5).put("integration_id", true).put("emial", "x"), NOW)))
        .containsExactlyInAnyOrder("limit", "since", "integration_id", "emial");
    assertThat(badFields(() -> DeliveryFilters.redeliver(WS, new JsonObject().put("limit", "5"), NOW)))
        .containsExactly("limit");
    assertThat(badFields(() -> DeliveryFilters.redeliver(WS, new JsonObject().put("limit", 2.5), NOW)))
        .containsExactly("limit");
  }

  @Test
  @DisplayName("a refused filter is a validation_failed error")
  void errorCode() {
    assertThatThrownBy(() -> DeliveryFilters.list(WS, query("limit", "-1"), NOW))
        .isInstanceOfSatisfying(ApiException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.VALIDATION_FAILED));
  }
}
