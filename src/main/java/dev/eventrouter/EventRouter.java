package dev.eventrouter;

import dev.eventrouter.alert.AlertVerticle;
import dev.eventrouter.config.AppConfig;
import dev.eventrouter.config.DemoKey;
import dev.eventrouter.config.LiveConfig;
import dev.eventrouter.config.Role;
import dev.eventrouter.conversion.ConversionVerticle;
import dev.eventrouter.cost.CostStoreVerticle;
import dev.eventrouter.cost.SpendVerticle;
import dev.eventrouter.db.Database;
import dev.eventrouter.event.EventIds;
import dev.eventrouter.forward.BacklogMonitor;
import dev.eventrouter.forward.BreakerBoard;
import dev.eventrouter.forward.ForwarderVerticle;
import dev.eventrouter.forward.NetworkApi;
import dev.eventrouter.forward.PauseBoard;
import dev.eventrouter.forward.meta.MetaApi;
import dev.eventrouter.forward.google.GoogleAdsApi;
import dev.eventrouter.forward.snapchat.SnapchatApi;
import dev.eventrouter.forward.tiktok.TikTokApi;
import dev.eventrouter.forward.webhook.WebhookApi;
import dev.eventrouter.http.AccessControl;
import dev.eventrouter.http.ReportSlots;
import dev.eventrouter.http.ServerBudget;
import dev.eventrouter.read.ReadVerticle;
import dev.eventrouter.report.RecountVerticle;
import dev.eventrouter.report.RollupVerticle;
import dev.eventrouter.server.HttpVerticle;
import dev.eventrouter.server.ManagementVerticle;
import dev.eventrouter.session.SessionVerticle;
import dev.eventrouter.store.AlertOutbox;
import dev.eventrouter.store.AlertStore;
import dev.eventrouter.store.CostSourceStates;
import dev.eventrouter.store.DeliveredCounts;
import dev.eventrouter.store.DeliveryStore;
import dev.eventrouter.store.EventStore;
import dev.eventrouter.store.EventWriter;
import dev.eventrouter.store.FunnelReports;
import dev.eventrouter.store.FunnelRollups;
import dev.eventrouter.store.ReportCurrency;
import dev.eventrouter.store.SpendStore;
import dev.eventrouter.store.TelegramStore;
import dev.eventrouter.telegram.TelegramVerticle;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.vertx.core.DeploymentOptions;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.spi.cluster.ClusterManager;
import io.vertx.ext.healthchecks.HealthChecks;
import io.vertx.sqlclient.Pool;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;

/**
 * The running service: prepares the database before any verticle, then deploys in dependency order (session,
 * forwarders, HTTP), and undoes it all in reverse on {@link #close()}.
 */
public final class EventRouter {

  private static final Logger LOG = LoggerFactory.getLogger(EventRouter.class);

  private final Vertx vertx;
  private final Database database;
  private final List<String> deployments;
  private final int httpPort;
  private final int managementPort;

  private EventRouter(Vertx vertx, Database database, List<String> deployments, int httpPort, int managementPort) {
    this.vertx = vertx;
    this.database = database;
    this.deployments = deployments;
    this.httpPort = httpPort;
    this.managementPort = managementPort;
  }

  /** @param live the config in force; when it is reloaded, the new one applies to what comes next */
  public static Future<EventRouter> start(Vertx vertx, LiveConfig live, PrometheusMeterRegistry metrics) {
    return start(vertx, live, metrics, null);
  }

  /** @param cluster the cluster this node's Vert.x joined, or null when it is not clustered */
  public static Future<EventRouter> start(Vertx vertx, LiveConfig live, PrometheusMeterRegistry metrics,
                                          ClusterManager cluster) {
    return start(vertx, live, metrics, cluster, database -> new EventStore(database.pool()));
  }

  /** @param writers where the events of a prepared database are written: the events table, or a test's double */
  public static Future<EventRouter> start(Vertx vertx, LiveConfig live, PrometheusMeterRegistry metrics,
                                          ClusterManager cluster, Function<Database, EventWriter> writers) {
    AppConfig config = live.current();
    List<String> exposed = DemoKey.exposedIn(config);
    if (!exposed.isEmpty()) {
      LOG.warn("SECURITY: workspaces {} accept the published demo API key, and {}: anyone who can reach it can post "
          + "conversions for them. Give them keys of your own (docs/going-live.md, \"Make your config\")", exposed,
          DemoKey.reach(config));
    }
    List<String> exposedPublishable = DemoKey.publishableExposedIn(config);
    if (!exposedPublishable.isEmpty()) {
      LOG.warn("SECURITY: workspaces {} accept the published demo publishable key, and {}: any page on their allowed "
          + "origins can create click sessions for them. Give them publishable keys of your own (docs/api.md, "
          + "\"Prelanding kit\")", exposedPublishable, DemoKey.reach(config));
    }
    List<String> exposedPostback = DemoKey.postbackExposedIn(config);
    if (!exposedPostback.isEmpty()) {
      LOG.warn("SECURITY: workspaces {} accept the published demo postback token, and {}: anyone who can reach it can "
          + "report conversions for them. Give their postback sources tokens of your own (docs/postbacks.md)",
          exposedPostback, DemoKey.reach(config));
    }
    return Database.open(vertx, config.database(), config.http().requestTimeoutMs(),
        config.session().sourceTimeoutMs()).compose(database -> {
      List<String> deployments = new ArrayList<>();
      EventIds ids = new EventIds(database.nodeId(), Clock.systemUTC());
      AccessControl access = new AccessControl(config.workspaces(), config.http(), System::nanoTime);
      live.onChange(next -> access.update(next.workspaces()));
      AtomicReference<HttpVerticle> firstHttp = new AtomicReference<>();
      boolean ingest = config.runs(Role.INGEST);
      boolean forward = config.runs(Role.FORWARD);
      BreakerBoard breakers = forward ? new BreakerBoard(metrics) : null;
      PauseBoard pauses = forward ? new PauseBoard(metrics) : null;
      DeliveryStore deliveries = new DeliveryStore(database.pool(), database.readPool(), Database.EVENT_FREE);
      Pool background = database.backgroundPool(); // work whose transactions never store events
      HealthChecks readiness = Readiness.checks(vertx, database, live, breakers, pauses, cluster);
      ServerBudget budget = new ServerBudget(config.http().limits()).bindTo(metrics);
      ReportSlots reports = new ReportSlots(config.reports()).bindTo(metrics);
      live.onChange(next -> reports.limit(next.reports()));
      AtomicReference<ManagementVerticle> management = new AtomicReference<>();
      Future<String> chain = vertx.deployVerticle(() -> {
        ManagementVerticle verticle = new ManagementVerticle(config.management(), metrics, readiness);
        management.set(verticle);
        return verticle;
      }, new DeploymentOptions()).onSuccess(deployments::add);
      if (ingest) {
        chain = chain.compose(id -> vertx.deployVerticle(new SessionVerticle(database, ids, live, metrics,
                writers.apply(database))))
            .onSuccess(deployments::add);
        chain = chain.compose(id -> vertx.deployVerticle(new ConversionVerticle(database, ids, live, metrics)))
            .onSuccess(deployments::add);
        chain = chain.compose(id -> vertx.deployVerticle(new ReadVerticle(database)))
            .onSuccess(deployments::add);
        chain = chain.compose(id -> vertx.deployVerticle(new CostStoreVerticle(new SpendStore(background),
                new CostSourceStates(background))))
            .onSuccess(deployments::add);
        chain = chain.compose(id -> vertx.deployVerticle(new RollupVerticle(new FunnelRollups(background),
                new ReportCurrency(background), new FunnelReports(database.readPool()), live, metrics)))
            .onSuccess(deployments::add);
        chain = chain.compose(id -> vertx.deployVerticle(new RecountVerticle(new DeliveredCounts(background),
                live)))
            .onSuccess(deployments::add);
      }
      if (forward) {
        for (NetworkApi network : List.of(new MetaApi(), new TikTokApi(), new SnapchatApi(),
            new GoogleAdsApi(), new WebhookApi())) {
          chain = chain.compose(id -> vertx.deployVerticle(new ForwarderVerticle(network, deliveries, live, metrics,
                  breakers, pauses)))
              .onSuccess(deployments::add);
        }
        chain = chain.compose(id -> vertx.deployVerticle(new BacklogMonitor(deliveries::backlog, metrics)))
            .onSuccess(deployments::add);
        chain = chain.compose(id -> vertx.deployVerticle(new TelegramVerticle(new TelegramStore(database.pool()),
                live, metrics)))
            .onSuccess(deployments::add);
        // Reads ad spend from the networks: outbound, as the forwarders are (docs/costs.md).
        chain = chain.compose(id -> vertx.deployVerticle(new SpendVerticle(new SpendStore(background),
                new CostSourceStates(background), live, SpendVerticle.Pacing.SERVICE)))
            .onSuccess(deployments::add);
      }
      // Every node checks the alerts' conditions; one at a time evaluates them (docs/alerts.md).
      chain = chain.compose(id -> vertx.deployVerticle(new AlertVerticle(new AlertStore(background),
              new AlertOutbox(background), live, metrics)))
          .onSuccess(deployments::add);
      return chain
          .compose(id -> vertx.deployVerticle(() -> {
            HttpVerticle verticle = new HttpVerticle(config.http(), ingest ? access : null, metrics, readiness,
                budget, reports);
            firstHttp.compareAndSet(null, verticle);
            return verticle;
          }, new DeploymentOptions().setInstances(config.http().instances())))
          .onSuccess(deployments::add)
          .map(id -> {
            int port = firstHttp.get().actualPort();
            int managementPort = management.get().actualPort();
            LOG.info("event-router listening on {}:{}, management on {}:{} (node {}, roles {})", config.http().host(),
                port, config.management().host(), managementPort, database.nodeId(),
                config.roles().stream().map(role -> role.id).sorted().toList());
            return new EventRouter(vertx, database, deployments, port, managementPort);
          })
          .recover(failure -> undeploy(vertx, deployments)
              .eventually(database::close)
              .transform(ignored -> Future.failedFuture(failure)));
    });
  }

  public int httpPort() {
    return httpPort;
  }

  /** The management listener's port: /metrics and the detailed /health/ready. */
  public int managementPort() {
    return managementPort;
  }

  public Database database() {
    return database;
  }

  /** Stops taking requests first, then the forwarders and the writer, then the database. */
  public Future<Void> close() {
    return undeploy(vertx, deployments).eventually(database::close);
  }

  private static Future<Void> undeploy(Vertx vertx, List<String> deployments) {
    Future<Void> chain = Future.succeededFuture();
    for (int i = deployments.size() - 1; i >= 0; i--) {
      String id = deployments.get(i);
      chain = chain.eventually(() -> vertx.undeploy(id));
    }
    return chain;
  }
}
