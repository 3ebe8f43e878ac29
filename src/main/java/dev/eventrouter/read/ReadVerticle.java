package dev.eventrouter.read;

import dev.eventrouter.bus.Addresses;
import dev.eventrouter.bus.EventRef;
import dev.eventrouter.db.Database;
import dev.eventrouter.event.CampaignScope;
import dev.eventrouter.event.CohortQuery;
import dev.eventrouter.event.DeliveryFilter;
import dev.eventrouter.event.EventFilter;
import dev.eventrouter.event.FunnelQuery;
import dev.eventrouter.event.ReconcileQuery;
import dev.eventrouter.store.AuditLog;
import dev.eventrouter.store.BuyerCampaigns;
import dev.eventrouter.store.CohortReports;
import dev.eventrouter.store.DeliveryViews;
import dev.eventrouter.store.EventViews;
import dev.eventrouter.store.FunnelReports;
import dev.eventrouter.store.ReconcileReports;
import dev.eventrouter.store.Reconciliation;
import dev.eventrouter.store.SpendReports;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Function;

import static dev.eventrouter.bus.BusReplies.answer;

/**
 * Answers what the debugger and the API read: an event's status, pages of events and deliveries, the integrations'
 * summary, the funnel report. Every query goes to the read pool, so a long read never makes an ingest wait for a
 * connection; the write path (resolve, store) stays the SessionVerticle's alone. The funnel report reads on a pool
 * of its own, so a report load never makes a session lookup, a list or the readiness probe wait.
 */
public final class ReadVerticle extends VerticleBase {

  private static final Logger LOG = LoggerFactory.getLogger(ReadVerticle.class);
  /** Rows of sums (a group's steps each) read for one report at most. */
  static final int MAX_SUM_ROWS = 50_000;
  /** Cohorts shown in one report at most. */
  static final int MAX_COHORTS = 10_000;

  private final Database database;
  private EventViews events;
  private DeliveryViews deliveries;
  private FunnelReports funnel;
  private SpendReports spend;
  private CohortReports cohorts;
  private ReconcileReports reconcile;
  private AuditLog audit;
  private BuyerCampaigns buyerCampaigns;

  public ReadVerticle(Database database) {
    this.database = database;
  }

  @Override
  public Future<?> start() {
    events = new EventViews(database.readPool());
    deliveries = new DeliveryViews(database.pool(), database.readPool());
    funnel = new FunnelReports(database.reportPool());
    spend = new SpendReports(database.reportPool());
    cohorts = new CohortReports(database.reportPool());
    reconcile = new ReconcileReports(database.reportPool());
    audit = new AuditLog(database.readPool());
    buyerCampaigns = new BuyerCampaigns(database.readPool());
    // Local consumers, as for the writes: the node that took a request answers it.
    return Future.all(List.of(
        consumer(Addresses.EVENTS_GET, this::find),
        consumer(Addresses.EVENTS_LIST, this::listEvents),
        consumer(Addresses.DELIVERIES_LIST, this::listDeliveries),
        consumer(Addresses.INTEGRATIONS_SUMMARY, this::summary),
        consumer(Addresses.REPORTS_FUNNEL, this::funnel),
        consumer(Addresses.REPORTS_COHORTS, this::cohorts),
        consumer(Addresses.AUDIT_LIST, body -> audit.list(UUID.fromString(body.getString("workspace_id")),
            body.getLong("before"), body.getInteger("limit")).map(entries -> Optional.of(new JsonObject()
            .put("entries", entries)))),
        consumer(Addresses.SCOPE_CAMPAIGNS, body -> buyerCampaigns.of(UUID.fromString(body.getString("workspace_id")),
            body.getJsonArray("source_ids").stream().map(String.class::cast).toList())
            .map(campaigns -> Optional.of(new JsonObject().put("campaign_ids", new JsonArray(campaigns))))),
        consumer(Addresses.REPORTS_RECONCILE, body -> {
          ReconcileQuery query = ReconcileQuery.fromJson(body);
          return reconcile.sides(query).map(sides -> Optional.of(Reconciliation.of(query, sides)
              .put("tz", sides.zone().getId())));
        })));
  }

  private Future<Void> consumer(String address, Function<JsonObject, Future<Optional<JsonObject>>> read) {
    return vertx.eventBus().<JsonObject>localConsumer(address,
        message -> answer(LOG, message, read.apply(message.body()))).completion();
  }

  /** The stored event with its deliveries and its status history, if it exists in the asking workspace. */
  private Future<Optional<JsonObject>> find(JsonObject body) {
    EventRef ref = EventRef.fromJson(body);
    return events.find(ref.workspaceId(), ref.eventId(), CampaignScope.of(body)).compose(found -> {
      if (found.isEmpty()) {
        return Future.succeededFuture(Optional.empty());
      }
      Future<JsonArray> sent = deliveries.forEvent(ref.eventId());
      Future<JsonArray> history = events.history(ref.eventId());
      return Future.all(sent, history).map(v -> Optional.of(found.get().put("deliveries", sent.result())
          .put("status_history", history.result())));
    });
  }

  /** A page of events, newest first; {@code next_before} continues below it, null on the last page. */
  private Future<Optional<JsonObject>> listEvents(JsonObject body) {
    return events.list(EventFilter.fromJson(body), CampaignScope.of(body)).map(page -> Optional.of(new JsonObject().put("events", page)));
  }

  /** The deliveries a filter names; the cursor of the next page when this one is full. */
  private Future<Optional<JsonObject>> listDeliveries(JsonObject body) {
    DeliveryFilter filter = DeliveryFilter.fromJson(body);
    return deliveries.list(filter, CampaignScope.of(body)).map(list -> {
      JsonObject last = list.isEmpty() ? null : list.getJsonObject(list.size() - 1);
      String next = list.size() < filter.limit() || last == null ? null
          : last.getString("event_id") + "-" + last.getLong("delivery_id");
      return Optional.of(new JsonObject().put("deliveries", list).put("next_cursor", next));
    });
  }

  /** A workspace's integrations as their recent deliveries show them, and its recent events by session source. */
  private Future<Optional<JsonObject>> summary(JsonObject body) {
    UUID workspaceId = UUID.fromString(body.getString("workspace_id"));
    long from = body.getLong("from_event_id");
    Future<JsonObject> integrations = deliveries.summary(workspaceId, from);
    Future<JsonObject> sources = events.countBySessionSource(workspaceId, from);
    return Future.all(integrations, sources).map(v -> Optional.of(integrations.result()
        .put("events_by_session_source", sources.result())));
  }

  /**
   * A funnel report: how far the rollups reach (read first: the sums' snapshot has at least that), then side by side
   * the sums by group (one row more than a report shows, to tell a cut one) with the totals, and the cost. A report
   * holds two of the report pool's connections at most, as the pool's size assumes.
   */
  private Future<Optional<JsonObject>> funnel(JsonObject body) {
    FunnelQuery query = FunnelQuery.fromJson(body);
    int limit = MAX_SUM_ROWS;
    Future<OffsetDateTime> upto = funnel.rolledUpTo();
    Future<SpendReports.Costs> costs = upto.compose(v -> spend.costs(query));
    Future<List<FunnelReports.Sums>> sums = upto.compose(v -> funnel.sums(query, query.groupBy(), limit + 1));
    // The groups' sums added up are the totals (the rollups' counts add up across groups), unless some were cut.
    Future<List<FunnelReports.Sums>> totals = sums.compose(rows -> rows.size() > limit
        ? funnel.sums(query, List.of(), limit) : Future.succeededFuture(FunnelReport.totals(rows)));
    return Future.all(totals, costs).map(v -> {
      boolean cut = sums.result().size() > limit;
      List<FunnelReports.Sums> rows = cut ? dropLastGroup(sums.result().subList(0, limit)) : sums.result();
      JsonObject report = FunnelReport.of(query, rows, totals.result(), cut)
          .put("rolled_up_to", upto.result().toInstant().toString());
      CostFields.add(report, query.groupBy(), costs.result());
      return Optional.of(report);
    });
  }

  /**
   * A cohort report: the cohorts (their reach read in the same snapshot) and their cost, side by side as the
   * funnel's sums and cost are. An age is reached when its day ended before the day the cohorts' reach falls on.
   */
  private Future<Optional<JsonObject>> cohorts(JsonObject body) {
    CohortQuery query = CohortQuery.fromJson(body);
    Future<CohortReports.Cohorts> read = cohorts.cohorts(query, MAX_COHORTS);
    Future<SpendReports.Costs> costs = spend.costs(query.funnel());
    return Future.all(read, costs).map(v -> {
      List<CohortReports.Cohort> rows = read.result().rows();
      boolean cut = rows.size() > MAX_COHORTS;
      OffsetDateTime upto = read.result().rolledUpTo();
      LocalDate reached = LocalDate.ofInstant(upto.toInstant(), query.funnel().zone());
      return Optional.of(CohortReport.of(query, cut ? rows.subList(0, MAX_COHORTS) : rows, costs.result(), reached,
          cut).put("rolled_up_to", upto.toInstant().toString()));
    });
  }

  /** Sums cut at a row limit end in a group that may lack steps: it is left out whole. */
  private static List<FunnelReports.Sums> dropLastGroup(List<FunnelReports.Sums> sums) {
    List<String> last = sums.get(sums.size() - 1).group();
    return sums.stream().filter(s -> !s.group().equals(last)).toList();
  }

}
