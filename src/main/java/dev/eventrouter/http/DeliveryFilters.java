package dev.eventrouter.http;

import dev.eventrouter.event.DeliveryFilter;
import dev.eventrouter.event.EventIds;
import dev.eventrouter.http.ApiException.FieldError;
import io.vertx.core.MultiMap;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The filters of {@code GET /api/v1/deliveries} (query parameters) and {@code POST /api/v1/deliveries/redeliver}
 * (a JSON body): which integration, states, event name and time range. The range is of the time events were
 * received, 7 days back by default (what the networks still take) and at most {@value #MAX_RANGE_DAYS} days wide,
 * so a call reads a bounded number of day partitions.
 */
final class DeliveryFilters {

  static final int MAX_RANGE_DAYS = 31;
  static final int LIST_LIMIT = 100;
  static final int MAX_LIST_LIMIT = 1000;
  static final int REDELIVER_LIMIT = 1000;
  static final int MAX_REDELIVER_LIMIT = 10_000;
  static final List<String> STATES = List.of("pending", "retrying", "paused", "delivered", "unconfirmed", "failed",
      "expired", "dry_run");
  /** What a redelivery may re-queue: the final states a sender can do something about. */
  static final List<String> REQUEUEABLE = List.of("failed", "expired", "unconfirmed");
  private static final Duration DEFAULT_RANGE = Duration.ofDays(7);
  private static final Set<String> QUERY_PARAMETERS = Set.of("integration_id", "status", "event_name", "since",
      "until", "limit", "cursor");
  private static final Set<String> BODY_FIELDS = Set.of("workspace_id", "integration_id", "status", "event_name",
      "since", "until", "limit");
  private static final Pattern INTEGRATION_ID = Pattern.compile("[A-Za-z0-9_.-]{1,64}");
  private static final Pattern EVENT_NAME = Pattern.compile("[A-Za-z0-9_ -]{1,50}");
  private static final Pattern CURSOR = Pattern.compile("evt_([0-9]{1,19})-([0-9]{1,19})");

  private DeliveryFilters() {}

  /** A list's filter from the query string; every bad parameter is named in one 400. */
  static DeliveryFilter list(UUID workspaceId, MultiMap query, Instant now) {
    Reader r = new Reader(name -> query.get(name));
    for (String name : query.names()) {
      if (!QUERY_PARAMETERS.contains(name)) {
        r.errors.add(new FieldError(name, "unknown parameter"));
      }
    }
    String status = query.get("status");
    List<String> statuses = status == null ? STATES : r.states(List.of(status.split(",", -1)), STATES);
    long[] after = r.cursor(query.get("cursor"));
    return r.filter(workspaceId, statuses, after, now, LIST_LIMIT, MAX_LIST_LIMIT);
  }

  /** A redelivery's filter from its body (whose workspace_id, if any, the edge has checked). */
  static DeliveryFilter redeliver(UUID workspaceId, JsonObject body, Instant now) {
    // A value of the wrong JSON type is reported once, here, and then read as absent.
    Reader r = new Reader(name -> body.getValue(name) instanceof String text ? text
        : name.equals("limit") && body.getValue(name) instanceof Integer n ? String.valueOf(n) : null);
    for (String name : body.fieldNames()) {
      if (!BODY_FIELDS.contains(name)) {
        r.errors.add(new FieldError(name, "unknown field"));
      }
    }
    for (String name : List.of("integration_id", "event_name", "since", "until")) {
      if (body.getValue(name) != null && !(body.getValue(name) instanceof String)) {
        r.errors.add(new FieldError(name, "must be a string"));
      }
    }
    Object status = body.getValue("status");
    List<String> statuses = REQUEUEABLE;
    if (status instanceof JsonArray array && !array.isEmpty()
        && array.stream().allMatch(String.class::isInstance)) {
      statuses = r.states(array.stream().map(String.class::cast).toList(), REQUEUEABLE);
    } else if (status != null) {
      r.errors.add(new FieldError("status", "must be a non-empty array of " + String.join(", ", REQUEUEABLE)));
    }
    if (body.getValue("limit") != null && !(body.getValue("limit") instanceof Integer)) {
      r.errors.add(new FieldError("limit", "must be a whole number from 1 to " + MAX_REDELIVER_LIMIT));
    }
    return r.filter(workspaceId, statuses, new long[] {0, 0}, now, REDELIVER_LIMIT, MAX_REDELIVER_LIMIT);
  }

  /** Reads the fields both forms share, collecting one error per bad field. */
  private static final class Reader {
    private final Function<String, String> values;
    private final List<FieldError> errors = new ArrayList<>();

    Reader(Function<String, String> values) {
      this.values = values;
    }

    List<String> states(List<String> given, List<String> allowed) {
      boolean valid = allowed.containsAll(given);
      if (!valid) {
        errors.add(new FieldError("status", "each must be one of " + String.join(", ", allowed)));
      }
      return List.copyOf(Set.copyOf(given)); // with an error, the filter is refused whole
    }

    /** Where a list resumes: after this (event id, delivery id); {0, 0} from the start. */
    long[] cursor(String cursor) {
      long[] after = {0, 0};
      if (cursor != null) {
        Matcher m = CURSOR.matcher(cursor);
        try {
          if (!m.matches()) {
            throw new NumberFormatException("not a cursor");
          }
          after = new long[] {Long.parseLong(m.group(1)), Long.parseLong(m.group(2))};
        } catch (NumberFormatException invalid) { // also an id past a long
          errors.add(new FieldError("cursor", "must be a next_cursor of an earlier answer"));
        }
      }
      return after;
    }

    DeliveryFilter filter(UUID workspaceId, List<String> statuses, long[] after, Instant now, int defaultLimit,
                          int maxLimit) {
      String integration = matching("integration_id", INTEGRATION_ID, "must be an integration id of the workspace");
      String eventName = matching("event_name", EVENT_NAME, "must be 1 to 50 letters, digits, _ - or spaces");
      int readSoFar = errors.size();
      Instant until = instant("until", now.plusSeconds(60));
      Instant since = instant("since", now.minus(DEFAULT_RANGE));
      // A bad since or until is reported as such, not also as a range it did not ask for.
      boolean read = errors.size() == readSoFar;
      if (read && !since.isBefore(until)) {
        errors.add(new FieldError("since", "must be before until"));
      } else if (read && Duration.between(since, until).compareTo(Duration.ofDays(MAX_RANGE_DAYS)) > 0) {
        errors.add(new FieldError("since", "must be at most " + MAX_RANGE_DAYS + " days before until"));
      }
      int limit = limit(defaultLimit, maxLimit);
      if (!errors.isEmpty()) {
        throw ApiException.validation(errors);
      }
      return new DeliveryFilter(workspaceId, integration, statuses, eventName, EventIds.firstIdAt(since),
          EventIds.firstIdAt(until), after[0], after[1], limit);
    }

    private String matching(String name, Pattern pattern, String rule) {
      String value = values.apply(name);
      boolean invalid = value != null && !pattern.matcher(value).matches();
      if (invalid) {
        errors.add(new FieldError(name, rule));
      }
      return value; // with an error, the filter is refused whole
    }

    private Instant instant(String name, Instant fallback) {
      String value = values.apply(name);
      if (value == null) {
        return fallback;
      }
      try {
        Instant at = OffsetDateTime.parse(value).toInstant();
        if (at.isAfter(EventIds.EPOCH)) {
          return at;
        }
      } catch (DateTimeParseException invalid) {
        // reported below
      }
      errors.add(new FieldError(name, "must be an ISO-8601 instant such as 2026-11-20T00:00:00Z, after 2024"));
      return fallback;
    }

    private int limit(int defaultLimit, int maxLimit) {
      String value = values.apply("limit");
      int limit = defaultLimit;
      if (value != null) {
        try {
          limit = Integer.parseInt(value);
        } catch (NumberFormatException invalid) {
          limit = 0; // reported below
        }
        if (limit < 1 || limit > maxLimit) {
          errors.add(new FieldError("limit", "must be a whole number from 1 to " + maxLimit));
        }
      }
      return limit;
    }
  }
}
