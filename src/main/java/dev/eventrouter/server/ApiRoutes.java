package dev.eventrouter.server;

import dev.eventrouter.api.access.AccessApi;
import dev.eventrouter.api.costs.CostsApi;
import dev.eventrouter.api.deliveries.BreakerWatch;
import dev.eventrouter.api.deliveries.DeliveriesApi;
import dev.eventrouter.api.deliveries.IntegrationPauses;
import dev.eventrouter.api.deliveries.IntegrationsApi;
import dev.eventrouter.api.events.EventsApi;
import dev.eventrouter.api.events.IngestCounter;
import dev.eventrouter.api.postbacks.PostbacksApi;
import dev.eventrouter.api.reports.CohortsApi;
import dev.eventrouter.api.reports.ReconcileApi;
import dev.eventrouter.api.reports.ReportsApi;
import dev.eventrouter.api.sessions.SessionsApi;
import dev.eventrouter.bus.Addresses;
import dev.eventrouter.bus.BreakerOpened;
import dev.eventrouter.config.HttpConfig;
import dev.eventrouter.config.KeyRole;
import dev.eventrouter.http.AccessControl;
import dev.eventrouter.http.AuditTrail;
import dev.eventrouter.http.BuyerScope;
import dev.eventrouter.http.Edge;
import dev.eventrouter.http.RawBody;
import dev.eventrouter.http.ReportSlots;
import dev.eventrouter.http.ServerBudget;
import dev.eventrouter.http.StoreClient;
import dev.eventrouter.telegram.TelegramWebhook;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.vertx.core.Handler;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Route;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.handler.BodyHandler;
import io.vertx.ext.web.handler.PlatformHandler;

import java.util.List;
import java.util.function.Function;

import static dev.eventrouter.config.KeyRole.Permission.ACT;
import static dev.eventrouter.config.KeyRole.Permission.INGEST;
import static dev.eventrouter.config.KeyRole.Permission.READ;
import static dev.eventrouter.config.KeyRole.Permission.READ_ALL;

/**
 * The route table of the API and of Telegram's webhook: which edge checks each route runs, in which order, before
 * its resource's handler. Every check of the headers comes before any byte of a body is read.
 */
final class ApiRoutes {

  private final Vertx vertx;
  private final HttpConfig config;
  private final AccessControl access;
  private final PrometheusMeterRegistry metrics;
  private final ServerBudget budget;
  private final ReportSlots reports;
  /** The audit trail of the actions of the API's routes. */
  private AuditTrail audit;

  ApiRoutes(Vertx vertx, HttpConfig config, AccessControl access, PrometheusMeterRegistry metrics,
            ServerBudget budget, ReportSlots reports) {
    this.vertx = vertx;
    this.config = config;
    this.access = access;
    this.metrics = metrics;
    this.budget = budget;
    this.reports = reports;
  }

  /**
   * The routes of the API, mounted under each prefix, each with what it asks of the key's role (docs/api.md,
   * "Roles"): the reads a buyer's scope narrows resolve its campaigns first; each action is written to the audit log.
   */
  Router api(StoreClient store) {
    EventsApi events = new EventsApi(store);
    SessionsApi sessions = new SessionsApi(store);
    DeliveriesApi deliveries = new DeliveriesApi(store);
    BreakerWatch breakers = new BreakerWatch();
    vertx.eventBus().<JsonObject>consumer(Addresses.BREAKER_OPENED,
        notice -> breakers.opened(BreakerOpened.fromJson(notice.body())));
    IntegrationsApi integrations = new IntegrationsApi(store, breakers);
    IntegrationPauses pauses = new IntegrationPauses(store);
    IngestCounter ingestCounter = new IngestCounter(metrics);
    BuyerScope scope = new BuyerScope(store);
    AccessApi keys = new AccessApi(store);
    audit = new AuditTrail(vertx);
    Router api = Router.router(vertx);
    api.post("/events/custom").handler(ingestCounter::onAnswer);
    post(api, "/events/custom", events::ingest);
    // A prelanding page calls this one from the visitor's browser, with a publishable key: CORS for its origins.
    api.route("/sessions").handler(rc -> access.cors().handle(rc));
    post(api, "/sessions", sessions::capture, true);
    post(api, "/sessions/invites", sessions::invite);
    authenticated(api.get("/access"), null).handler(keys::access);
    authenticated(api.get("/audit"), ACT).handler(keys::audit);
    scoped(api.get("/events"), scope).handler(events::list);
    scoped(api.get("/deliveries"), scope).handler(deliveries::list);
    action(api.post("/deliveries/redeliver"), "deliveries.redeliver", rc -> "deliveries").handler(Edge::requireJson)
        .handler(deliveries::redeliver);
    authenticated(api.get("/integrations"), READ_ALL).handler(integrations::summary);
    scoped(api.get("/reports/funnel"), scope).handler(new ReportsApi(store, reports)::funnel);
    scoped(api.get("/reports/cohorts"), scope).handler(new CohortsApi(store, reports)::cohorts);
    authenticated(api.get("/reports/reconcile"), READ_ALL).handler(new ReconcileApi(store, reports)::reconcile);
    // Spend pushed as JSON or CSV, and the cost sources for the debugger (docs/costs.md).
    CostsApi costs = new CostsApi(store);
    readBody(authenticated(api.post("/costs"), INGEST), CostsApi.MAX_BODY_BYTES).handler(costs::push);
    // A buyer's sources are its ad accounts', read from its key: no campaigns to resolve.
    authenticated(api.get("/cost-sources"), READ).handler(costs::sources);
    action(api.post("/cost-sources/:source_id/poll"), "cost_source.poll", rc -> rc.pathParam("source_id"))
        .handler(costs::pollNow);
    // A partner's postback: its token in the path is its only credential, checked (with its rate limit) before the
    // body is read.
    PostbacksApi postbacks = new PostbacksApi(access, store);
    api.routeWithRegex(PostbacksApi.ROUTE).method(HttpMethod.GET).method(HttpMethod.POST)
        .setName("/postbacks/{token}").handler(beforeBody(postbacks::authenticate))
        .handler(budget.reserve(config.maxBodyBytes())).handler(RawBody.within(config.maxBodyBytes()))
        .handler(postbacks::handle);
    authenticated(api.get("/postbacks"), READ_ALL).handler(postbacks::list);
    authenticated(api.get("/postback-sources"), READ_ALL).handler(postbacks::sources);
    // No body is read (any is drained within the size limit): the integration is in the path, the event name an
    // optional query parameter.
    action(api.post("/integrations/:integration_id/test"), "integration.test", rc -> rc.pathParam("integration_id"))
        .handler(integrations::test);
    action(api.post("/integrations/:integration_id/pause"), "integration.pause",
        rc -> rc.pathParam("integration_id")).handler(pauses::pause);
    action(api.post("/integrations/:integration_id/resume"), "integration.resume",
        rc -> rc.pathParam("integration_id")).handler(pauses::resume);
    // Only evt_<digits>, so GET on /events/custom stays a 405 rather than a lookup of an id "custom".
    String event = "\\/events\\/(?<eventId>evt_[0-9]+)";
    scoped(api.getWithRegex(event).setName("/events/{event_id}"), scope).handler(events::status);
    action(api.postWithRegex(event + "\\/redeliver").setName("/events/{event_id}/redeliver"), "event.redeliver",
        rc -> rc.pathParam("eventId")).handler(events::redeliver);
    return api;
  }

  /** Telegram's webhook: authenticated with the webhook's secret, not an API key, from the headers, before the body. */
  void telegram(Router router, StoreClient store) {
    TelegramWebhook telegram = new TelegramWebhook(access, store);
    for (String path : List.of("/telegram/:workspace_id/webhook", "/telegram/:workspace_id/webhook/:bot_name")) {
      Route webhook = router.post(path).handler(beforeBody(telegram::authenticate));
      readBody(webhook, Math.max(config.maxBodyBytes(), TelegramWebhook.MAX_UPDATE_BYTES))
          .handler(Edge::requireJson)
          .handler(telegram::handle);
    }
  }

  /**
   * Keitaro's cost push at Keitaro's own path, for the tools (Dolphin, FBTool) that push spend to a Keitaro-compatible
   * tracker: its key as Keitaro's admin API takes it, checked from the headers before the body.
   */
  void keitaro(Router router, StoreClient store) {
    CostsApi costs = new CostsApi(store);
    Route route = router.post("/admin_api/v1/campaigns/:campaign/update_costs")
        .handler(beforeBody(Edge.authenticateAdmin(access))).handler(beforeBody(Edge.allow(INGEST)))
        .handler(beforeBody(Edge.rateLimit(access)));
    readBody(route, config.maxBodyBytes()).handler(Edge::requireJson).handler(costs::keitaro);
  }

  /** A JSON POST that writes data in: body size limit, key, role, rate limit, content type, then the handler. */
  private void post(Router router, String path, Handler<RoutingContext> handler) {
    post(router, path, handler, false);
  }

  private void post(Router router, String path, Handler<RoutingContext> handler, boolean publishableAllowed) {
    readBody(authenticated(router.post(path), publishableAllowed, INGEST), config.maxBodyBytes())
        .handler(Edge::requireJson).handler(handler);
  }

  private Route authenticated(Route route, KeyRole.Permission permission) {
    return authenticated(route, false, permission);
  }

  /** A read a buyer's scope narrows: its campaigns are found before the read. */
  private Route scoped(Route route, BuyerScope scope) {
    return authenticated(route, READ).handler(scope.resolve());
  }

  /**
   * An admin's action, written to the audit log with its outcome, a refusal by role included (after the rate limit:
   * a key's refusals cost it as its requests do); any body is read within the size limit (the actions take their
   * target from the path).
   */
  private Route action(Route route, String action, Function<RoutingContext, String> target) {
    route.handler(beforeBody(Edge.authenticate(access, false))).handler(beforeBody(Edge.rateLimit(access)))
        .handler(beforeBody(audit.of(action, target))).handler(beforeBody(Edge.allow(ACT)));
    return readBody(route, config.maxBodyBytes());
  }

  /**
   * Key, role (null: any) and rate limit from the headers alone: nobody unauthenticated gets a byte of a body read,
   * nor anyone whose role may not call the route.
   */
  private Route authenticated(Route route, boolean publishableAllowed, KeyRole.Permission permission) {
    return allowed(route.handler(beforeBody(Edge.authenticate(access, publishableAllowed))), permission);
  }

  private Route allowed(Route route, KeyRole.Permission permission) {
    if (permission != null) {
      route.handler(beforeBody(Edge.allow(permission)));
    }
    return route.handler(beforeBody(Edge.rateLimit(access)));
  }

  /** The node's body budget, then the body itself within the route's limit. */
  private Route readBody(Route route, int limit) {
    return route.handler(budget.reserve(limit)).handler(BodyHandler.create(false).setBodyLimit(limit));
  }

  /**
   * vertx-web runs a route's handlers in its declared order of kinds, body handlers before plain ones
   * (https://vertx.io/docs/vertx-web/java/#_route_order); a platform handler may come first, which is what these
   * checks of the headers are.
   */
  private static Handler<RoutingContext> beforeBody(Handler<RoutingContext> check) {
    return (PlatformHandler) check::handle;
  }
}
