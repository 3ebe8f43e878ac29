package dev.eventrouter.api.reports;

import dev.eventrouter.bus.Addresses;
import dev.eventrouter.config.ReportZone;
import dev.eventrouter.config.WorkspaceConfig;
import dev.eventrouter.event.CohortQuery;
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
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * {@code GET /api/v1/reports/cohorts} (docs/reports.md#cohorts): what the clicks of each day or week brought by each
 * age (days since the click), grouped by up to two of the funnel's dimensions, with their cost and ROAS, as JSON or
 * CSV. The cohorts are kept in the workspace's report zone, so a request may name no other. A valid request runs only
 * with a slot of {@link ReportSlots} free, as the funnel report does.
 */
public final class CohortsApi {

  static final List<Integer> DEFAULT_AGES = List.of(0, 1, 3, 7, 14, 30);
  static final int MAX_AGES = 12;
  /** The oldest age asked for: the rollups keep every later one in one. */
  static final int MAX_AGE = 365;

  private final StoreClient store;
  private final ReportSlots slots;

  public CohortsApi(StoreClient store, ReportSlots slots) {
    this.store = store;
    this.slots = slots;
  }

  public void cohorts(RoutingContext rc) {
    CohortQuery asked = query(Edge.workspace(rc), rc.queryParams(), Instant.now());
    CohortQuery query = new CohortQuery(ReportsApi.scoped(asked.funnel(), BuyerScope.campaigns(rc)), asked.groupBy(),
        asked.ages());
    ReportAnswer.send(rc, store, slots, Addresses.REPORTS_COHORTS, query.toJson(),
        report -> report.put("from", query.from().toString()).put("to", query.to().toString())
            .put("tz", ReportsApi.tz(query.funnel().zone())).put("group_by", query.groupBy()),
        "cohorts.csv", report -> CohortCsv.of(query.groupBy(), report));
  }

  /** The query a request's parameters make, or a 400 naming every bad one. */
  static CohortQuery query(WorkspaceConfig workspace, MultiMap params, Instant now) {
    List<FieldError> errors = new ArrayList<>();
    Set<String> known = Set.of("from", "to", "tz", "group_by", "filter", "ages", "format");
    params.names().stream().filter(name -> !known.contains(name)).sorted()
        .forEach(name -> errors.add(new FieldError(name, "is not a parameter of this report")));
    ZoneId zone = workspace.report().zone();
    String tz = params.get("tz");
    ZoneId asked = tz == null ? zone : ReportZone.of(tz);
    if (asked == null) {
      errors.add(new FieldError("tz", ReportZone.RULE));
    } else if (!asked.normalized().equals(zone.normalized())) {
      errors.add(new FieldError("tz", "cohorts are kept in the workspace's report_timezone, "
          + ReportsApi.tz(zone) + ": name that zone or none"));
    }
    LocalDate today = LocalDate.ofInstant(now, zone);
    LocalDate to = ReportsApi.day(params.get("to"), "to", today, errors);
    LocalDate from = ReportsApi.day(params.get("from"), "from", to.minusDays(6), errors);
    if (from.isAfter(to)) {
      errors.add(new FieldError("from", "must not be after to"));
    } else if (ChronoUnit.DAYS.between(from, to) >= ReportsApi.MAX_RANGE_DAYS) {
      errors.add(new FieldError("from", "the range may be at most " + ReportsApi.MAX_RANGE_DAYS + " days"));
    }
    List<String> groupBy = groupBy(params.getAll("group_by"), errors);
    Map<String, List<String>> filters = ReportsApi.filters(params.getAll("filter"), errors);
    if (filters.containsKey(FunnelQuery.DAY)) {
      errors.add(new FieldError("filter", "cohorts are chosen by their click days: from and to, not a day filter"));
    }
    List<Integer> ages = ages(params.get("ages"), errors);
    String format = params.get("format");
    if (format != null && !List.of("json", "csv").contains(format)) {
      errors.add(new FieldError("format", "must be json or csv"));
    }
    if (!errors.isEmpty()) {
      throw ApiException.validation(errors);
    }
    FunnelQuery clicks = new FunnelQuery(workspace.id(), from.atStartOfDay(zone).toInstant(),
        to.plusDays(1).atStartOfDay(zone).toInstant(), zone, CohortQuery.costGroups(groupBy), filters,
        workspace.report().currency(), workspace.report().funnelEvents(), zone);
    return new CohortQuery(clicks, groupBy, ages);
  }

  /** One or two of the funnel's dimensions and a click day or week (the click day alone by default). */
  private static List<String> groupBy(List<String> given, List<FieldError> errors) {
    Set<String> groups = new LinkedHashSet<>();
    given.forEach(value -> groups.addAll(List.of(value.split(",", -1))));
    if (groups.isEmpty()) {
      return List.of(CohortQuery.CLICK_DAY);
    }
    long days = groups.stream().filter(g -> CohortQuery.CLICK_DAY.equals(g) || CohortQuery.CLICK_WEEK.equals(g))
        .count();
    boolean known = groups.stream().allMatch(g -> FunnelQuery.DIMENSIONS.contains(g)
        || CohortQuery.CLICK_DAY.equals(g) || CohortQuery.CLICK_WEEK.equals(g));
    if (!known || days > 1 || groups.size() - days > 2) {
      errors.add(new FieldError("group_by", "must be one or two of " + String.join(", ", FunnelQuery.DIMENSIONS)
          + ", with click_day or click_week or not"));
      return List.of(CohortQuery.CLICK_DAY);
    }
    return List.copyOf(groups);
  }

  /** Days since the click, comma-separated: 0 to {@link #MAX_AGE}, at most {@link #MAX_AGES}, in order. */
  private static List<Integer> ages(String given, List<FieldError> errors) {
    if (given == null) {
      return DEFAULT_AGES;
    }
    Set<Integer> ages = new TreeSet<>();
    for (String part : given.split(",", -1)) {
      try {
        int age = Integer.parseInt(part.strip());
        if (age < 0 || age > MAX_AGE) {
          throw new NumberFormatException();
        }
        ages.add(age);
      } catch (NumberFormatException notAnAge) {
        errors.add(new FieldError("ages", "must be days since the click, 0 to " + MAX_AGE + ", comma-separated"));
        return DEFAULT_AGES;
      }
    }
    if (ages.size() > MAX_AGES) {
      errors.add(new FieldError("ages", "at most " + MAX_AGES + " ages"));
      return DEFAULT_AGES;
    }
    return List.copyOf(ages);
  }
}
