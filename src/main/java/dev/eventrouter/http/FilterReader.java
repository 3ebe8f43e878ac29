package dev.eventrouter.http;

import dev.eventrouter.event.DeliveryFilter;
import dev.eventrouter.event.EventIds;
import dev.eventrouter.http.ApiException.FieldError;

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
 * Reads the filters the list endpoints share (integration, event name, states, time range, limit), from a query
 * string or a JSON body, collecting one error per bad field so a 400 names them all. The time range is of when
 * events were received, 7 days back by default (what the networks still take) and at most
 * {@value #MAX_RANGE_DAYS} days wide, so a call reads a bounded number of day partitions.
 */
public final class FilterReader {

  static final int MAX_RANGE_DAYS = 31;
  static final Pattern INTEGRATION_ID = Pattern.compile("[A-Za-z0-9_.-]{1,64}");
  static final Pattern EVENT_NAME = Pattern.compile("[A-Za-z0-9_ -]{1,50}");
  private static final Duration DEFAULT_RANGE = Duration.ofDays(7);
  private static final Pattern CURSOR = Pattern.compile("evt_([0-9]{1,19})-([0-9]{1,19})");

  /** The range asked for, as event ids: from the first id of {@code since}, up to (not with) that of {@code until}. */
  public record Range(long fromEventId, long toEventId) {}

  private final Function<String, String> values;
  private final List<FieldError> errors = new ArrayList<>();

  public FilterReader(Function<String, String> values) {
    this.values = values;
  }

  /** A field's error, answered with the others at {@link #throwIfInvalid}. */
  public void error(String field, String message) {
    errors.add(new FieldError(field, message));
  }

  public List<String> states(List<String> given, List<String> allowed) {
    boolean valid = allowed.containsAll(given);
    if (!valid) {
      errors.add(new FieldError("status", "each must be one of " + String.join(", ", allowed)));
    }
    return List.copyOf(Set.copyOf(given)); // with an error, the filter is refused whole
  }

  /** Where a list resumes: after this (event id, delivery id); {0, 0} from the start. */
  public long[] cursor(String cursor) {
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

  public DeliveryFilter deliveryFilter(UUID workspaceId, List<String> statuses, long[] after, Instant now,
                                       int defaultLimit, int maxLimit) {
    String integration = integrationId();
    String eventName = eventName();
    Range range = range(now);
    int limit = limit(defaultLimit, maxLimit);
    throwIfInvalid();
    return new DeliveryFilter(workspaceId, integration, statuses, eventName, range.fromEventId(), range.toEventId(),
        after[0], after[1], limit);
  }

  public String integrationId() {
    return matching("integration_id", INTEGRATION_ID, "must be an integration id of the workspace");
  }

  public String eventName() {
    return matching("event_name", EVENT_NAME, "must be 1 to 50 letters, digits, _ - or spaces");
  }

  /** since and until, checked together: since before until, at most {@value #MAX_RANGE_DAYS} days apart. */
  public Range range(Instant now) {
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
    return new Range(EventIds.firstIdAt(since), EventIds.firstIdAt(until));
  }

  public void throwIfInvalid() {
    if (!errors.isEmpty()) {
      throw ApiException.validation(errors);
    }
  }

  public String matching(String name, Pattern pattern, String rule) {
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

  public int limit(int defaultLimit, int maxLimit) {
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
