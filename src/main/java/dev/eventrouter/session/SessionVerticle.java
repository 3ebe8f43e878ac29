package dev.eventrouter.session;

import dev.eventrouter.bus.Addresses;
import dev.eventrouter.bus.IngestRequest;
import dev.eventrouter.bus.LocalCodec;
import dev.eventrouter.bus.TelegramUpdate;
import dev.eventrouter.common.LogSafe;
import dev.eventrouter.config.AppConfig;
import dev.eventrouter.config.LiveConfig;
import dev.eventrouter.config.WorkspaceConfig;
import dev.eventrouter.db.Database;
import dev.eventrouter.event.ClickSession;
import dev.eventrouter.event.EventIds;
import dev.eventrouter.event.InviteSession;
import dev.eventrouter.store.AuditLog;
import dev.eventrouter.store.ConfiguredPlan;
import dev.eventrouter.store.ConversionStore;
import dev.eventrouter.store.DeliveryViews;
import dev.eventrouter.store.EventStore;
import dev.eventrouter.store.EventViews;
import dev.eventrouter.store.EventWriter;
import dev.eventrouter.store.ManualPauses;
import dev.eventrouter.store.SessionStore;
import dev.eventrouter.store.TelegramStore;
import io.micrometer.core.instrument.MeterRegistry;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.eventbus.Message;
import io.vertx.core.json.JsonObject;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

import static dev.eventrouter.bus.BusReplies.answer;

/**
 * Owns the sessions and the write of every event: resolves the event's session from its sources in order, gives it
 * its id, stores it through a group commit and replies once it is committed ({@link EventWrites}). Also stores
 * captured click and invite sessions, redeliveries ({@link Redeliveries}) and Telegram updates. What the debugger
 * reads is the ReadVerticle's.
 */
public final class SessionVerticle extends VerticleBase {

  private static final Logger LOG = LoggerFactory.getLogger(SessionVerticle.class);
  private static final long PURGE_EVERY_MS = TimeUnit.MINUTES.toMillis(10);

  private final Database database;
  private final EventIds ids;
  private final LiveConfig live;
  private final MeterRegistry metrics;
  private final EventWriter writer;
  private SessionStore sessions;
  private TelegramStore telegram;
  private EventWrites writes;

  /** @param writer where events are written (the events table, or a test's faulty double) */
  public SessionVerticle(Database database, EventIds ids, LiveConfig live, MeterRegistry metrics, EventWriter writer) {
    this.database = database;
    this.writer = writer;
    this.ids = ids;
    this.live = live;
    this.metrics = metrics;
  }

  @Override
  public Future<?> start() {
    LocalCodec.register(vertx);
    AppConfig config = live.current();
    EventStore events = new EventStore(database.pool());
    EventViews eventViews = new EventViews(database.readPool());
    ConversionStore conversions = new ConversionStore(database.pool());
    ConfiguredPlan plan = new ConfiguredPlan(live);
    DeliveryViews deliveries = new DeliveryViews(database.pool(), database.readPool());
    sessions = new SessionStore(database.pool());
    telegram = new TelegramStore(database.pool());
    SessionResolver resolver = new SessionResolver(SessionSources.inOrder(vertx, database.readPool(),
        this::attributionWindowDays), () -> live.current().session().sourceTimeoutMs());
    ForwarderWakeups wakeups = new ForwarderWakeups(vertx);
    writes = new EventWrites(vertx, config.database(), writer, ids, metrics, conversions, plan, resolver, wakeups);
    Redeliveries redeliveries = new Redeliveries(eventViews, deliveries, wakeups);
    vertx.setPeriodic(PURGE_EVERY_MS, id -> {
      events.purgeExpiredKeys()
          .onSuccess(n -> LOG.debug("purged {} expired idempotency keys", n))
          .onFailure(e -> LOG.warn("purging expired idempotency keys failed: {}", LogSafe.describe(e)));
      telegram.purge(config.database().retentionDays())
          .onFailure(e -> LOG.warn("purging finished Telegram jobs and expired links failed: {}",
              LogSafe.describe(e)));
      sessions.purge(sessionRetention())
          .onSuccess(n -> LOG.debug("purged {} sessions past their attribution and delivery windows", n))
          .onFailure(e -> LOG.warn("purging old sessions failed: {}", LogSafe.describe(e)));
    });
    // Local consumers: the node that took a request stores and answers it; on a clustered bus no other member
    // can be asked, or delay an answer.
    return Future.all(List.of(
        vertx.eventBus().<IngestRequest>localConsumer(Addresses.EVENTS_INGEST, writes::ingest).completion(),
        vertx.eventBus().<JsonObject>localConsumer(Addresses.EVENTS_REDELIVER, redeliveries::redeliver).completion(),
        vertx.eventBus().<JsonObject>localConsumer(Addresses.DELIVERIES_REDELIVER, redeliveries::redeliverMatching)
            .completion(),
        reply(Addresses.SESSIONS_CAPTURE, json -> sessions.save(ClickSession.fromJson(json))),
        reply(Addresses.SESSIONS_INVITE, json -> sessions.save(InviteSession.fromJson(json))),
        vertx.eventBus().<JsonObject>localConsumer(Addresses.SESSIONS_INVITE_LINK, this::inviteLink).completion(),
        vertx.eventBus().<JsonObject>localConsumer(Addresses.TELEGRAM_UPDATE, this::telegramUpdate).completion(),
        new ActionWrites(vertx, new AuditLog(database.pool()), new ManualPauses(database.pool())).listen()));
  }

  /** A session's invite link from its workspace's pool; the pool's filler is told one went (or none was left). */
  private void inviteLink(Message<JsonObject> message) {
    JsonObject body = message.body();
    UUID workspaceId = UUID.fromString(body.getString("workspace_id"));
    answer(LOG, message, telegram.claimLink(workspaceId, body.getString("chat_id"), body.getString("session_id"),
            body.getInteger("reserve", 0))
        .map(link -> {
          vertx.eventBus().publish(Addresses.TELEGRAM_LINK_TAKEN, workspaceId.toString());
          return Optional.of(new JsonObject().put("invite_link", link));
        }));
  }

  /**
   * Queues what a Telegram update leaves to do and answers the session of its invite link. Only a join request
   * through a link that carries a session is approved: the channel's other links (an admin's own) stay as the admin
   * handles them.
   */
  private void telegramUpdate(Message<JsonObject> message) {
    TelegramUpdate update = TelegramUpdate.fromJson(message.body());
    Future<String> stored = update.inviteLink() == null ? Future.succeededFuture(null)
        : telegram.boundSession(update.workspaceId(), update.inviteLink());
    answer(LOG, message, stored.compose(pooled -> {
      String session = pooled != null ? pooled : update.namedSession();
      List<String> kinds = new ArrayList<>();
      List<String> bodies = new ArrayList<>();
      if (update.passThrough() != null) {
        kinds.add(TelegramStore.PASS_THROUGH);
        bodies.add(update.passThrough());
      }
      if (update.approve() != null && session != null) {
        kinds.add(TelegramStore.APPROVE);
        bodies.add(update.approve().encode());
      }
      return telegram.queue(update.workspaceId(), update.bot(), update.updateId(), kinds, bodies).map(queued -> {
        if (!kinds.isEmpty()) {
          vertx.eventBus().publish(Addresses.TELEGRAM_DUE, "due");
        }
        return Optional.of(new JsonObject().put("session_id", session));
      });
    }));
  }

  /** Each workspace's session retention as configured now (so it follows reloads). */
  private SessionStore.Retention sessionRetention() {
    Map<UUID, Integer> windows = new HashMap<>();
    live.current().workspaces().forEach(w -> windows.put(w.id(), w.attributionWindowDays()));
    return SessionStore.Retention.of(windows, WorkspaceConfig.DEFAULT_ATTRIBUTION_WINDOW_DAYS);
  }

  private int attributionWindowDays(UUID workspaceId) {
    return live.current().workspace(workspaceId).map(WorkspaceConfig::attributionWindowDays)
        .orElse(WorkspaceConfig.DEFAULT_ATTRIBUTION_WINDOW_DAYS);
  }

  /** Lets writes already under way commit and be answered before the pool closes. */
  @Override
  public Future<?> stop() {
    return writes.drained();
  }

  /**
   * A consumer that stores a session it is sent and replies with the same JSON once stored; the postbacks that
   * waited for that session are told.
   */
  private Future<Void> reply(String address, Function<JsonObject, Future<Void>> store) {
    return vertx.eventBus().<JsonObject>localConsumer(address, message -> store.apply(message.body()).onComplete(done -> {
      if (done.failed()) {
        EventWrites.failWrite(message, address, done.cause());
      } else {
        message.reply(message.body());
        vertx.eventBus().publish(Addresses.SESSIONS_SAVED, new JsonObject()
            .put("workspace_id", message.body().getString("workspace_id"))
            .put("session_id", message.body().getString("session_id")), new DeliveryOptions().setLocalOnly(true));
      }
    })).completion();
  }
}
