package dev.eventrouter.api.reports;

import dev.eventrouter.bus.Addresses;
import dev.eventrouter.config.ReportZone;
import dev.eventrouter.config.WorkspaceConfig;
import dev.eventrouter.event.FunnelQuery;
import dev.eventrouter.http.ApiException.FieldError;
import dev.eventrouter.http.ApiException;
import dev.eventrouter.http.BuyerScope;
import dev.eventrouter.http.Edge;
import dev.eventrouter.http.ReportSlots;
import dev.eventrouter.http.StoreClient;
import io.vertx.core.MultiMap;
import io.vertx.ext.web.RoutingContext;

import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * {@code GET /api/v1/reports/funnel}: the key's workspace's funnel (clicks, starts, joins, each event, revenue,
 * unsubscribes, step rates) over local days, grouped by up to two dimensions and filtered on any, as JSON or CSV.
 * A valid request runs only with a slot of {@link ReportSlots} free, else it is answered 429.
 */
public final class ReportsApi {

  static final int MAX_RANGE_DAYS = 366;
  static final int MAX_FILTERS = 20;
  static final int MAX_VALUE_LENGTH = 100;
  static final String DEFAULT_GROUP = FunnelQuery.DAY;
  /** Every dimension a report groups or filters by: the rollups' and the local day. */
  static final List<String> DIMENSIONS = dimensions();

  private final StoreClient store;
  private final ReportSlots slots;

  public ReportsApi(StoreClient store, ReportSlots slots) {
    this.store = store;
    this.slots = slots;
  }

  private static List<String> dimensions() {
    List<String> all = new ArrayList<>(FunnelQuery.DIMENSIONS);
    all.add(FunnelQuery.DAY);
    return List.copyOf(all);
  }

  public void funnel(RoutingContext rc) {
    FunnelQuery query = scoped(query(Edge.workspace(rc), rc.queryParams(), Instant.now()), BuyerScope.campaigns(rc));
    ReportAnswer.send(rc, store, slots, Addresses.REPORTS_FUNNEL, query.toJson(),
        report -> report.put("from", LocalDate.ofInstant(query.from(), query.zone()).toString())
            .put("to", LocalDate.ofInstant(query.to(), query.zone()).minusDays(1).toString())
            .put("tz", tz(query.zone())).put("group_by", query.groupBy()),
        "funnel.csv", report -> FunnelCsv.of(query.groupBy(), report));
  }

  /**
   * The query narrowed to a buyer's campaigns (null: unchanged): those its campaign_id filter names among them, else
   * all of them. An empty list matches nothing.
   */
  static FunnelQuery scoped(FunnelQuery query, List<String> campaigns) {
    if (campaigns == null) {
      return query;
    }
    Map<String, List<String>> filters = new LinkedHashMap<>(query.filters());
    List<String> asked = filters.get("campaign_id");
    filters.put("campaign_id", asked == null ? campaigns : asked.stream().filter(campaigns::contains).toList());
    return new FunnelQuery(query.workspaceId(), query.from(), query.to(), query.zone(), query.groupBy(),
        Map.copyOf(filters), query.currency(), query.funnelEvents(), query.dayZone());
  }

  /** The query a request's parameters make, or a 400 naming every bad one. */
  static FunnelQuery query(WorkspaceConfig workspace, MultiMap params, Instant now) {
    List<FieldError> errors = new ArrayList<>();
    Set<String> known = Set.of("from", "to", "tz", "group_by", "filter", "format");
    params.names().stream().filter(name -> !known.contains(name)).sorted()
        .forEach(name -> errors.add(new FieldError(name, "is not a parameter of this report")));
    ZoneId zone = zone(params.get("tz"), workspace.report().zone(), errors);
    LocalDate today = LocalDate.ofInstant(now, zone);
    LocalDate to = day(params.get("to"), "to", today, errors);
    LocalDate from = day(params.get("from"), "from", to.minusDays(6), errors);
    if (from.isAfter(to)) {
      errors.add(new FieldError("from", "must not be after to"));
    } else if (ChronoUnit.DAYS.between(from, to) >= MAX_RANGE_DAYS) {
      errors.add(new FieldError("from", "the range may be at most " + MAX_RANGE_DAYS + " days"));
    }
    List<String> groupBy = groupBy(params.getAll("group_by"), errors);
    Map<String, List<String>> filters = filters(params.getAll("filter"), errors);
    String format = params.get("format");
    if (format != null && !List.of("json", "csv").contains(format)) {
      errors.add(new FieldError("format", "must be json or csv"));
    }
    if (!errors.isEmpty()) {
      throw ApiException.validation(errors);
    }
    return new FunnelQuery(workspace.id(), from.atStartOfDay(zone).toInstant(),
        to.plusDays(1).atStartOfDay(zone).toInstant(), zone, groupBy, filters, workspace.report().currency(),
        workspace.report().funnelEvents(), workspace.report().zone());
  }

  /** A zone as a request names it: a workspace's UTC is kept as the offset Z, which no request may name. */
  static String tz(ZoneId zone) {
    return zone.equals(ZoneOffset.UTC) ? "UTC" : zone.getId();
  }

  /** The zone named, else the workspace's report zone. */
  private static ZoneId zone(String text, ZoneId fallback, List<FieldError> errors) {
    if (text == null) {
      return fallback;
    }
    ZoneId zone = ReportZone.of(text);
    if (zone == null) {
      errors.add(new FieldError("tz", ReportZone.RULE));
      return ZoneOffset.UTC;
    }
    return zone;
  }

  static LocalDate day(String text, String field, LocalDate fallback, List<FieldError> errors) {
    if (text == null) {
      return fallback;
    }
    try {
      return LocalDate.parse(text);
    } catch (DateTimeParseException unreadable) {
      errors.add(new FieldError(field, "must be a day such as 2026-11-24"));
      return fallback;
    }
  }

  /** One or two dimensions, comma-separated or repeated; the day by default. */
  private static List<String> groupBy(List<String> given, List<FieldError> errors) {
    Set<String> dimensions = new LinkedHashSet<>();
    given.forEach(value -> dimensions.addAll(List.of(value.split(",", -1))));
    if (dimensions.isEmpty()) {
      return List.of(DEFAULT_GROUP);
    }
    if (dimensions.size() > 2 || !DIMENSIONS.containsAll(dimensions)) {
      errors.add(new FieldError("group_by", "must be one or two of " + String.join(", ", DIMENSIONS)));
      return List.of(DEFAULT_GROUP);
    }
    return List.copyOf(dimensions);
  }

  /** {@code filter=<dimension>:<value>}, repeatable: the same dimension twice allows either value. */
  static Map<String, List<String>> filters(List<String> given, List<FieldError> errors) {
    Map<String, List<String>> filters = new LinkedHashMap<>();
    if (given.size() > MAX_FILTERS) {
      errors.add(new FieldError("filter", "at most " + MAX_FILTERS + " filters"));
      return filters;
    }
    for (String filter : given) {
      int colon = filter.indexOf(':');
      String dimension = colon < 0 ? filter : filter.substring(0, colon);
      String value = colon < 0 ? null : filter.substring(colon + 1);
      if (value == null || !DIMENSIONS.contains(dimension) || value.length() > MAX_VALUE_LENGTH) {
        errors.add(new FieldError("filter", "must be <dimension>:<value> (an empty value for not known), the "
            + "dimension one of " + String.join(", ", DIMENSIONS) + ", the value at most " + MAX_VALUE_LENGTH
            + " characters"));
        return Map.of();
      }
      filters.computeIfAbsent(dimension, d -> new ArrayList<>()).add(value);
    }
    return filters;
  }
}
