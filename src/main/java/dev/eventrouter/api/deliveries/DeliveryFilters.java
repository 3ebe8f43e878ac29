package dev.eventrouter.api.deliveries;

import dev.eventrouter.event.DeliveryFilter;
import dev.eventrouter.http.FilterReader;
import io.vertx.core.MultiMap;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.UUID;

/**
 * The filters of {@code GET /api/v1/deliveries} (query parameters) and {@code POST /api/v1/deliveries/redeliver}
 * (a JSON body): which integration, states, event name and time range (see {@link FilterReader}).
 */
final class DeliveryFilters {

  static final int LIST_LIMIT = 100;
  static final int MAX_LIST_LIMIT = 1000;
  static final int REDELIVER_LIMIT = 1000;
  static final int MAX_REDELIVER_LIMIT = 10_000;
  /** What a redelivery may re-queue: the final states a sender can do something about. */
  static final List<String> REQUEUEABLE = List.of("failed", "expired", "unconfirmed");
  private static final Set<String> QUERY_PARAMETERS = Set.of("integration_id", "status", "event_name", "since",
      "until", "limit", "cursor");
  private static final Set<String> BODY_FIELDS = Set.of("workspace_id", "integration_id", "status", "event_name",
      "since", "until", "limit");

  private DeliveryFilters() {}

  /** A list's filter from the query string; every bad parameter is named in one 400. */
  static DeliveryFilter list(UUID workspaceId, MultiMap query, Instant now) {
    FilterReader r = new FilterReader(name -> query.get(name));
    for (String name : query.names()) {
      if (!QUERY_PARAMETERS.contains(name)) {
        r.error(name, "unknown parameter");
      }
    }
    String status = query.get("status");
    List<String> statuses = status == null ? DeliveryFilter.STATES
        : r.states(List.of(status.split(",", -1)), DeliveryFilter.STATES);
    long[] after = r.cursor(query.get("cursor"));
    return r.deliveryFilter(workspaceId, statuses, after, now, LIST_LIMIT, MAX_LIST_LIMIT);
  }

  /** A redelivery's filter from its body (whose workspace_id, if any, the edge has checked). */
  static DeliveryFilter redeliver(UUID workspaceId, JsonObject body, Instant now) {
    // A value of the wrong JSON type is reported once, here, and then read as absent.
    FilterReader r = new FilterReader(name -> body.getValue(name) instanceof String text ? text
        : name.equals("limit") && body.getValue(name) instanceof Integer n ? String.valueOf(n) : null);
    for (String name : body.fieldNames()) {
      if (!BODY_FIELDS.contains(name)) {
        r.error(name, "unknown field");
      }
    }
    for (String name : List.of("integration_id", "event_name", "since", "until")) {
      if (body.getValue(name) != null && !(body.getValue(name) instanceof String)) {
        r.error(name, "must be a string");
      }
    }
    Object status = body.getValue("status");
    List<String> statuses = REQUEUEABLE;
    if (status instanceof JsonArray array && !array.isEmpty()
        && array.stream().allMatch(String.class::isInstance)) {
      statuses = r.states(array.stream().map(String.class::cast).toList(), REQUEUEABLE);
    } else if (status != null) {
      r.error("status", "must be a non-empty array of " + String.join(", ", REQUEUEABLE));
    }
    if (body.getValue("limit") != null && !(body.getValue("limit") instanceof Integer)) {
      r.error("limit", "must be a whole number from 1 to " + MAX_REDELIVER_LIMIT);
    }
    return r.deliveryFilter(workspaceId, statuses, new long[] {0, 0}, now, REDELIVER_LIMIT, MAX_REDELIVER_LIMIT);
  }
}
