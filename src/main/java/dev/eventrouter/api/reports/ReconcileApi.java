package dev.eventrouter.api.reports;

import dev.eventrouter.bus.Addresses;
import dev.eventrouter.config.Network;
import dev.eventrouter.config.WorkspaceConfig;
import dev.eventrouter.event.ReconcileQuery;
import dev.eventrouter.http.ApiException.FieldError;
import dev.eventrouter.http.ApiException;
import dev.eventrouter.http.Edge;
import dev.eventrouter.http.ReportSlots;
import dev.eventrouter.http.StoreClient;
import io.vertx.core.MultiMap;
import io.vertx.ext.web.RoutingContext;

import java.time.Instant;
import java.time.LocalDate;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * {@code GET /api/v1/reports/reconcile} (docs/reports.md#reconcile): what was delivered to Meta's or TikTok's
 * integrations for the clicks of each ad, beside the network's own count of those conversions, as JSON or CSV. A
 * valid request runs only with a slot of {@link ReportSlots} free, as the other reports do.
 */
public final class ReconcileApi {

  /** The days one request may span: the cost import keeps the networks' counts per day. */
  static final int MAX_RANGE_DAYS = 92;

  private final StoreClient store;
  private final ReportSlots slots;

  public ReconcileApi(StoreClient store, ReportSlots slots) {
    this.store = store;
    this.slots = slots;
  }

  public void reconcile(RoutingContext rc) {
    ReconcileQuery query = query(Edge.workspace(rc), rc.queryParams(), Instant.now());
    ReportAnswer.send(rc, store, slots, Addresses.REPORTS_RECONCILE, query.toJson(),
        report -> report.put("from", query.from().toString()).put("to", query.to().toString())
            .put("group_by", query.groupBy()),
        "reconcile.csv", ReconcileCsv::of);
  }

  /** The query a request's parameters make, or a 400 naming every bad one. */
  static ReconcileQuery query(WorkspaceConfig workspace, MultiMap params, Instant now) {
    List<FieldError> errors = new ArrayList<>();
    Set<String> known = Set.of("from", "to", "network", "group_by", "format");
    params.names().stream().filter(name -> !known.contains(name)).sorted()
        .forEach(name -> errors.add(new FieldError(name, "is not a parameter of this report")));
    LocalDate today = LocalDate.ofInstant(now, workspace.report().zone());
    LocalDate to = ReportsApi.day(params.get("to"), "to", today.minusDays(1), errors);
    LocalDate from = ReportsApi.day(params.get("from"), "from", to.minusDays(6), errors);
    if (from.isAfter(to)) {
      errors.add(new FieldError("from", "must not be after to"));
    } else if (ChronoUnit.DAYS.between(from, to) >= MAX_RANGE_DAYS) {
      errors.add(new FieldError("from", "the range may be at most " + MAX_RANGE_DAYS + " days"));
    }
    String network = params.get("network") == null ? Network.META.id : params.get("network");
    if (!List.of(Network.META.id, Network.TIKTOK.id).contains(network)) {
      errors.add(new FieldError("network", "must be meta or tiktok"));
    }
    String groupBy = params.get("group_by") == null ? ReconcileQuery.AD : params.get("group_by");
    if (!ReconcileQuery.GROUPS.contains(groupBy)) {
      errors.add(new FieldError("group_by", "must be one of " + String.join(", ", ReconcileQuery.GROUPS)));
    }
    String format = params.get("format");
    if (format != null && !List.of("json", "csv").contains(format)) {
      errors.add(new FieldError("format", "must be json or csv"));
    }
    if (!errors.isEmpty()) {
      throw ApiException.validation(errors);
    }
    return new ReconcileQuery(workspace.id(), network, from, to, workspace.report().zone(), groupBy,
        workspace.report().reconcile().actions(network), workspace.report().reconcile().threshold());
  }
}
