package dev.eventrouter.server;

import dev.eventrouter.api.costs.CostsApi;
import dev.eventrouter.api.deliveries.BreakerWatch;
import dev.eventrouter.api.deliveries.DeliveriesApi;
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
import dev.eventrouter.http.AccessControl;
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

  ApiRoutes(Vertx vertx, HttpConfig config, AccessControl access, PrometheusMeterRegistry metrics,
            ServerBudget budget, ReportSlots reports) {
    this.vertx = vertx;
    this.config = config;
    this.access = access;
    this.metrics = metrics;
    this.budget = budget;
    this.reports = reports;
  }

  /** The routes of the API, mounted under each prefix. */
  Router api(StoreClient store) {
    EventsApi events = new EventsApi(store);
    SessionsApi sessions = new SessionsApi(store);
    DeliveriesApi deliveries = new DeliveriesApi(store);
    BreakerWatch breakers = new BreakerWatch();
    vertx.eventBus().<JsonObject>consumer(Addresses.BREAKER_OPENED,
        notice -> breakers.opened(BreakerOpened.fromJson(notice.body())));
    IntegrationsApi integrations = new IntegrationsApi(store, breakers);
    IngestCounter ingestCounter = new IngestCounter(metrics);
    Router api = Router.router(vertx);
    api.post("/events/custom").handler(ingestCounter::onAnswer);
    post(api, "/events/custom", events::ingest);
    // A prelanding page calls this one from the visitor's browser, with a publishable key: CORS for its origins.
    api.route("/sessions").handler(rc -> access.cors().handle(rc));
    post(api, "/sessions", sessions::capture, true);
    post(api, "/sessions/invites", sessions::invite);
    authenticated(api.get("/events")).handler(events::list);
    authenticated(api.get("/deliveries")).handler(deliveries::list);
    post(api, "/deliveries/redeliver", deliveries::redeliver);
    authenticated(api.get("/integrations")).handler(integrations::summary);
    authenticated(api.get("/reports/funnel")).handler(new ReportsApi(store, reports)::funnel);
    authenticated(api.get("/reports/cohorts")).handler(new CohortsApi(store, reports)::cohorts);
    authenticated(api.get("/reports/reconcile")).handler(new ReconcileApi(store, reports)::reconcile);
    // Spend pushed as JSON or CSV, and the cost sources for the debugger (docs/costs.md).
    CostsApi costs = new CostsApi(store);
    readBody(authenticated(api.post("/costs")), CostsApi.MAX_BODY_BYTES).handler(costs::push);
    authenticated(api.get("/cost-sources")).handler(costs::sources);
    readBody(authenticated(api.post("/cost-sources/:source_id/poll")), config.maxBodyBytes())
        .handler(costs::pollNow);
    // A partner's postback: its token in the path is its only credential, checked (with its rate limit) before the
    // body is read.
    PostbacksApi postbacks = new PostbacksApi(access, store);
    api.routeWithRegex(PostbacksApi.ROUTE).method(HttpMethod.GET).method(HttpMethod.POST)
        .setName("/postbacks/{token}").handler(beforeBody(postbacks::authenticate))
        .handler(budget.reserve(config.maxBodyBytes())).handler(RawBody.within(config.maxBodyBytes()))
        .handler(postbacks::handle);
    authenticated(api.get("/postbacks")).handler(postbacks::list);
    authenticated(api.get("/postback-sources")).handler(postbacks::sources);
    // No body is read (any is drained within the size limit): the integration is in the path, the event name an
    // optional query parameter.
    readBody(authenticated(api.post("/integrations/:integration_id/test")), config.maxBodyBytes())
        .handler(integrations::test);
    // Only evt_<digits>, so GET on /events/custom stays a 405 rather than a lookup of an id "custom".
    String event = "\\/events\\/(?<eventId>evt_[0-9]+)";
    authenticated(api.getWithRegex(event).setName("/events/{event_id}")).handler(events::status);
    authenticated(api.postWithRegex(event + "\\/redeliver").setName("/events/{event_id}/redeliver"))
        .handler(events::redeliver);
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
        .handler(beforeBody(Edge.authenticateAdmin(access))).handler(beforeBody(Edge.rateLimit(access)));
    readBody(route, config.maxBodyBytes()).handler(Edge::requireJson).handler(costs::keitaro);
  }

  /** A JSON POST: body size limit, key, rate limit, content type, then the handler. */
  private void post(Router router, String path, Handler<RoutingContext> handler) {
    post(router, path, handler, false);
  }

  private void post(Router router, String path, Handler<RoutingContext> handler, boolean publishableAllowed) {
    readBody(authenticated(router.post(path), publishableAllowed), config.maxBodyBytes())
        .handler(Edge::requireJson).handler(handler);
  }

  private Route authenticated(Route route) {
    return authenticated(route, false);
  }

  /** Key and rate limit from the headers alone: nobody unauthenticated gets a byte of a body read. */
  private Route authenticated(Route route, boolean publishableAllowed) {
    return route.handler(beforeBody(Edge.authenticate(access, publishableAllowed)))
        .handler(beforeBody(Edge.rateLimit(access)));
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
