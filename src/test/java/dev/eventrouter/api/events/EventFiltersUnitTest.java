package dev.eventrouter.api.events;

import dev.eventrouter.event.EventFilter;
import dev.eventrouter.event.EventIds;
import dev.eventrouter.http.ValidationErrors;
import io.vertx.core.MultiMap;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;

import static dev.eventrouter.support.QueryStrings.query;
import static org.assertj.core.api.Assertions.assertThat;

/** The filters of the events list, read from a query string. */
class EventFiltersUnitTest {

  private static final UUID WS = UUID.fromString("7c9e6679-7425-40de-944b-e07fc1f90ae7");
  private static final Instant NOW = Instant.parse("2026-11-22T12:00:00Z");

  private static List<String> badFields(MultiMap query) {
    return ValidationErrors.badFields(() -> EventFilters.list(WS, query, NOW));
  }

  @Test
  @DisplayName("without parameters: every event of the last 7 days up to a minute ahead, 50 at a time")
  void defaults() {
    EventFilter filter = EventFilters.list(WS, query(), NOW);
    assertThat(filter).isEqualTo(new EventFilter(WS, null, null, null, null, null,
        EventIds.firstIdAt(NOW.minus(Duration.ofDays(7))), EventIds.firstIdAt(NOW.plusSeconds(60)), 50, false));
  }

  @Test
  @DisplayName("every filter read as given; before narrows the range's end, never widens it")
  void everyFilter() {
    String before = "evt_" + EventIds.firstIdAt(NOW.minusSeconds(30));
    EventFilter filter = EventFilters.list(WS, query("event_name", "FTD", "session_source", "last_known",
        "telegram_id", "9223372036854775807", "integration_id", "meta-main", "status", "failed,expired,failed",
        "since", "2026-11-22T00:00:00Z", "until", "2026-11-22T11:00:00Z", "before", before, "limit", "200"), NOW);
    assertThat(filter.eventName()).isEqualTo("FTD");
    assertThat(filter.sessionSource()).isEqualTo("last_known");
    assertThat(filter.telegramId()).isEqualTo(Long.MAX_VALUE);
    assertThat(filter.integrationId()).isEqualTo("meta-main");
    assertThat(filter.deliveryStatuses()).containsExactlyInAnyOrder("failed", "expired");
    assertThat(filter.fromEventId()).isEqualTo(EventIds.firstIdAt(Instant.parse("2026-11-22T00:00:00Z")));
    assertThat(filter.toEventId()).as("until is earlier than before")
        .isEqualTo(EventIds.firstIdAt(Instant.parse("2026-11-22T11:00:00Z")));
    assertThat(filter.limit()).isEqualTo(200);
    assertThat(EventFilters.list(WS, query("before", before), NOW).toEventId()).as("before is earlier")
        .isEqualTo(EventIds.firstIdAt(NOW.minusSeconds(30)));
    assertThat(EventFilters.list(WS, query("before", "evt_1", "limit", "1"), NOW).toEventId()).isEqualTo(1);
    for (String source : EventFilter.SESSION_SOURCES) {
      assertThat(EventFilters.list(WS, query("session_source", source), NOW).sessionSource()).isEqualTo(source);
    }
    assertThat(EventFilters.list(WS, query("telegram_id", "1"), NOW).telegramId()).isOne();
  }

  @Test
  @DisplayName("each bad parameter is named in one 400")
  void refusals() {
    assertThat(badFields(query("session_source", "ad", "telegram_id", "0", "status", "lost", "before", "42",
        "limit", "201", "event_name", "<b>", "integration_id", "a b", "since", "yesterday", "colour", "red")))
        .containsExactlyInAnyOrder("session_source", "telegram_id", "status", "before", "limit", "event_name",
            "integration_id", "since", "colour");
    assertThat(badFields(query("telegram_id", "9223372036854775808"))).containsExactly("telegram_id");
    assertThat(badFields(query("telegram_id", "-5"))).containsExactly("telegram_id");
    assertThat(badFields(query("before", "evt_99999999999999999999"))).containsExactly("before");
    assertThat(badFields(query("before", "evt_"))).containsExactly("before");
    assertThat(badFields(query("session_source", "supplied,none"))).containsExactly("session_source");
    assertThat(badFields(query("limit", "0"))).containsExactly("limit");
    assertThat(badFields(query("since", "2026-11-23T00:00:00Z"))).containsExactly("since");
    assertThat(badFields(query("after", "evt_x"))).containsExactly("after");
    assertThat(badFields(query("after", "evt_1", "before", "evt_9"))).as("a poll does not page back")
        .containsExactly("after");
  }

  @Test
  @DisplayName("after polls oldest first from just above the cursor, never from before the range")
  void after() {
    long cursor = EventIds.firstIdAt(NOW.minusSeconds(30));
    EventFilter poll = EventFilters.list(WS, query("after", "evt_" + cursor, "event_name", "FTD"), NOW);
    assertThat(poll.oldestFirst()).isTrue();
    assertThat(poll.fromEventId()).isEqualTo(cursor + 1);
    assertThat(poll.toEventId()).isEqualTo(EventIds.firstIdAt(NOW.plusSeconds(60)));
    assertThat(poll.eventName()).isEqualTo("FTD");
    assertThat(EventFilters.list(WS, query("after", "evt_1"), NOW).fromEventId()).as("the range's start is later")
        .isEqualTo(EventIds.firstIdAt(NOW.minus(Duration.ofDays(7))));
    assertThat(EventFilters.list(WS, query("before", "evt_" + cursor), NOW).oldestFirst()).isFalse();
  }

  @Test
  @DisplayName("the next poll's cursor: past a full page; else no further than the ids still being written")
  void nextAfter() {
    Instant settled = NOW.minusSeconds(10);
    long settledId = EventIds.firstIdAt(settled) - 1;
    long old = EventIds.firstIdAt(NOW.minusSeconds(60));
    long recent = EventIds.firstIdAt(NOW.minusSeconds(2));
    assertThat(EventsApi.nextAfter(old, recent, true, settled)).as("a full page: on past it").isEqualTo(recent);
    assertThat(EventsApi.nextAfter(old, recent, false, settled)).as("a recent event may have an older neighbour "
        + "not yet written: answered again next time").isEqualTo(settledId);
    long older = EventIds.firstIdAt(NOW.minusSeconds(30));
    assertThat(EventsApi.nextAfter(old, older, false, settled)).as("settled events are not answered again")
        .isEqualTo(older);
    assertThat(EventsApi.nextAfter(old, null, false, settled)).as("nothing new: up to what is settled")
        .isEqualTo(settledId);
    assertThat(EventsApi.nextAfter(recent, null, false, settled)).as("never back").isEqualTo(recent);
  }
}
