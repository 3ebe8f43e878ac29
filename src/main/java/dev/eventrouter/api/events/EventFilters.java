package dev.eventrouter.api.events;

import dev.eventrouter.event.DeliveryFilter;
import dev.eventrouter.event.EventFilter;
import dev.eventrouter.http.FilterReader;
import io.vertx.core.MultiMap;

import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.regex.Pattern;

/**
 * The filters of {@code GET /api/v1/events}: event name, session source, Telegram user, integration and delivery
 * state, time range (see {@link FilterReader}), and paging with {@code before} (the last event id of the page
 * before) and {@code limit}; or, to poll for new events, {@code after} (the {@code next_after} of the poll before).
 */
final class EventFilters {

  static final int LIMIT = 50;
  static final int MAX_LIMIT = 200;
  private static final Set<String> PARAMETERS = Set.of("event_name", "session_source", "telegram_id",
      "integration_id", "status", "since", "until", "before", "after", "limit");
  private static final Pattern SESSION_SOURCE = Pattern.compile(String.join("|", EventFilter.SESSION_SOURCES));
  private static final Pattern TELEGRAM_ID = Pattern.compile("[1-9][0-9]{0,18}");
  private static final Pattern EVENT_ID = Pattern.compile("evt_([0-9]{1,19})");

  private EventFilters() {}

  /** The filter of a query string; every bad parameter is named in one 400. */
  static EventFilter list(UUID workspaceId, MultiMap query, Instant now) {
    FilterReader r = new FilterReader(query::get);
    for (String name : query.names()) {
      if (!PARAMETERS.contains(name)) {
        r.error(name, "unknown parameter");
      }
    }
    String eventName = r.eventName();
    String sessionSource = r.matching("session_source", SESSION_SOURCE,
        "must be one of " + String.join(", ", EventFilter.SESSION_SOURCES));
    Long telegramId = number(r, "telegram_id", TELEGRAM_ID, query.get("telegram_id"),
        "must be a Telegram user id, 1 to 9223372036854775807");
    String integrationId = r.integrationId();
    String status = query.get("status");
    List<String> statuses = status == null ? null
        : r.states(List.of(status.split(",", -1)), DeliveryFilter.STATES);
    FilterReader.Range range = r.range(now);
    Long before = number(r, "before", EVENT_ID, query.get("before"), "must be the next_before of an earlier answer");
    Long after = number(r, "after", EVENT_ID, query.get("after"), "must be the next_after of an earlier answer");
    if (before != null && after != null) {
      r.error("after", "cannot be combined with before: after polls for new events, before "
          + "pages back through older ones");
    }
    int limit = r.limit(LIMIT, MAX_LIMIT);
    r.throwIfInvalid();
    long to = before == null ? range.toEventId() : Math.min(range.toEventId(), before);
    long from = after == null ? range.fromEventId() : Math.max(range.fromEventId(), after + 1);
    return new EventFilter(workspaceId, eventName, sessionSource, telegramId, integrationId, statuses, from, to,
        limit, after != null);
  }

  /** A whole number the pattern's first group (or all of it) holds; null when absent, an error when not one. */
  private static Long number(FilterReader r, String name, Pattern pattern, String value, String rule) {
    if (value == null) {
      return null;
    }
    var m = pattern.matcher(value);
    try {
      if (m.matches()) {
        return Long.parseLong(m.groupCount() > 0 ? m.group(1) : value);
      }
    } catch (NumberFormatException tooLarge) {
      // reported below
    }
    r.error(name, rule);
    return null;
  }
}
