package dev.eventrouter.session;

import dev.eventrouter.bus.Addresses;
import dev.eventrouter.bus.BusFailure;
import dev.eventrouter.bus.EventRef;
import dev.eventrouter.bus.IngestReply;
import dev.eventrouter.bus.IngestRequest;
import dev.eventrouter.bus.LocalCodec;
import dev.eventrouter.bus.TelegramUpdate;
import dev.eventrouter.common.LogSafe;
import dev.eventrouter.config.AppConfig;
import dev.eventrouter.config.LiveConfig;
import dev.eventrouter.config.WorkspaceConfig;
import dev.eventrouter.db.Database;
import dev.eventrouter.event.ClickSession;
import dev.eventrouter.event.ConversionEvent;
import dev.eventrouter.event.DeliveryFilter;
import dev.eventrouter.event.EventIds;
import dev.eventrouter.event.InviteSession;
import dev.eventrouter.event.Resolution;
import dev.eventrouter.store.Batcher;
import dev.eventrouter.store.ConfiguredPlan;
import dev.eventrouter.store.ConversionStore;
import dev.eventrouter.store.DeliveryViews;
import dev.eventrouter.store.EventStore;
import dev.eventrouter.store.EventViews;
import dev.eventrouter.store.EventWriter;
import dev.eventrouter.store.NewEvent;
import dev.eventrouter.store.SessionStore;
import dev.eventrouter.store.TelegramStore;
import dev.eventrouter.store.WriteResult;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.MeterRegistry;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.eventbus.Message;
import io.vertx.core.json.JsonObject;
import io.vertx.pgclient.PgException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

import static dev.eventrouter.bus.BusReplies.answer;
import static dev.eventrouter.bus.BusReplies.logFor;
import static dev.eventrouter.bus.BusReplies.requestId;

/**
 * Owns the sessions and the write of every event: resolves the event's session from its sources in order, gives it
 * its id, stores it through a group commit and replies once it is committed. Also stores captured click and invite
 * sessions, redeliveries and Telegram updates. What the debugger reads is the ReadVerticle's.
 */
public final class SessionVerticle extends VerticleBase {

  private static final Logger LOG = LoggerFactory.getLogger(SessionVerticle.class);
  private static final long PURGE_EVERY_MS = TimeUnit.MINUTES.toMillis(10);

  private final Database database;
  private final EventIds ids;
  private final LiveConfig live;
  private final MeterRegistry metrics;
  private final EventWriter writer;
  private EventStore events;
  private EventViews eventViews;
  private ConversionStore conversions;
  private ConfiguredPlan plan;
  private DeliveryViews deliveries;
  private SessionStore sessions;
  private TelegramStore telegram;
  private SessionResolver resolver;
  private Batcher<NewEvent, WriteResult> writes;
  private final Map<String, Counter> storedBySource = new HashMap<>();
  private final Set<String> wakesDue = new HashSet<>();

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
    events = new EventStore(database.pool());
    eventViews = new EventViews(database.readPool());
    conversions = new ConversionStore(database.pool());
    plan = new ConfiguredPlan(live);
    deliveries = new DeliveryViews(database.pool(), database.readPool());
    sessions = new SessionStore(database.pool());
    telegram = new TelegramStore(database.pool());
    resolver = new SessionResolver(SessionSources.inOrder(vertx, database.readPool(), this::attributionWindowDays),
        () -> live.current().session().sourceTimeoutMs());
    DistributionSummary batchSizes = DistributionSummary.builder("event_router.write.batch_size")
        .description("events per group commit: throughput follows it")
        .publishPercentileHistogram()
        .minimumExpectedValue(1.0)
        .maximumExpectedValue((double) config.database().writeBatchSize())
        .register(metrics);
    writes = new Batcher<NewEvent, WriteResult>(vertx, batch -> {
      batchSizes.record(batch.size());
      return writer.insertBatch(batch);
    }, config.database().writeBatchSize(),
        config.database().writeLingerMs(), config.database().poolSize(), config.database().maxPendingWrites())
        .isolating(EventStore::isDataError);
    // Stored events over commits shows how many requests share each commit.
    FunctionCounter.builder("event_router.write.commits", writes, Batcher::batches).register(metrics);
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
        vertx.eventBus().<IngestRequest>localConsumer(Addresses.EVENTS_INGEST, this::ingest).completion(),
        vertx.eventBus().<JsonObject>localConsumer(Addresses.EVENTS_REDELIVER, this::redeliver).completion(),
        vertx.eventBus().<JsonObject>localConsumer(Addresses.DELIVERIES_REDELIVER, this::redeliverMatching)
            .completion(),
        reply(Addresses.SESSIONS_CAPTURE, json -> sessions.save(ClickSession.fromJson(json))),
        reply(Addresses.SESSIONS_INVITE, json -> sessions.save(InviteSession.fromJson(json))),
        vertx.eventBus().<JsonObject>localConsumer(Addresses.SESSIONS_INVITE_LINK, this::inviteLink).completion(),
        vertx.eventBus().<JsonObject>localConsumer(Addresses.TELEGRAM_UPDATE, this::telegramUpdate).completion()));
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

  private void ingest(Message<IngestRequest> message) {
    IngestRequest request = message.body();
    ConversionEvent event = request.event();
    List<NewEvent.Delivery> outbox = plan.deliveries(event.workspaceId(), event.eventName(), event.status());
    resolver.resolve(event.workspaceId(), event.telegramId(), event.sessionId())
        .compose(session -> write(new NewEvent(ids.next(), event, request.receivedAt(), request.idempotencyKey(),
            request.requestHash(), session, outbox), request.deadline()))
        .onComplete(done -> {
          if (done.failed()) {
            failWrite(message, "event", done.cause());
          } else if (done.result() instanceof WriteResult.Stored stored) {
            message.reply(new IngestReply(EventIds.format(stored.eventId()), stored.sessionId(),
                IngestReply.PROCESSED, stored.replayed()));
          } else {
            message.fail(BusFailure.IDEMPOTENCY_CONFLICT, "idempotency key reused with a different body");
          }
        });
  }

  /**
   * Stores an event: through the group commit; or, when it names a transaction id, in a transaction of its own that
   * makes it a new conversion or a change of the one that id made (its deliveries as the change's status says).
   */
  private Future<WriteResult> write(NewEvent event, Instant deadline) {
    if (event.event().transactionId() == null) {
      return writes.submit(event, deadline.toEpochMilli())
          .onSuccess(outcome -> stored(outcome, event.session(), event.deliveries().stream()
              .map(NewEvent.Delivery::network).toList()));
    }
    return conversions.reportEvent(event, plan).map(reported -> {
      stored(reported.result(), event.session(), reported.networks());
      return reported.result();
    });
  }

  /**
   * Counts the stored event by how its session was found ({@code session_source="none"} counts the unattributed)
   * and wakes the forwarders of its deliveries.
   */
  private void stored(WriteResult outcome, Resolution session, List<String> networks) {
    if (outcome instanceof WriteResult.Stored stored && !stored.replayed()) {
      storedBySource.computeIfAbsent(session.source(),
          source -> metrics.counter("event_router.events.stored", "session_source", source)).increment();
      wakeForwarders(networks);
    }
  }

  /** Re-queues the event's failed, expired and unconfirmed deliveries and wakes their forwarders. */
  private void redeliver(Message<JsonObject> message) {
    EventRef ref = EventRef.fromJson(message.body());
    answer(LOG, message, ifEventExists(ref, found -> deliveries.requeue(ref.workspaceId(), ref.eventId())
        .map(networks -> {
          wakeForwarders(networks);
          return new JsonObject().put("event_id", EventIds.format(ref.eventId())).put("requeued", networks.size());
        })));
  }

  /**
   * Re-queues the failed, expired and unconfirmed deliveries a filter names, at most its limit, and wakes their
   * forwarders.
   */
  private void redeliverMatching(Message<JsonObject> message) {
    DeliveryFilter filter = DeliveryFilter.fromJson(message.body());
    answer(LOG, message, deliveries.requeue(filter).map(networks -> {
      wakeForwarders(networks.stream().distinct().toList());
      return Optional.of(new JsonObject().put("requeued", networks.size())
          .put("more", networks.size() == filter.limit()));
    }));
  }

  /** Runs {@code then} on the stored event when the asking workspace has it; empty when it does not. */
  private Future<Optional<JsonObject>> ifEventExists(EventRef ref, Function<JsonObject, Future<JsonObject>> then) {
    return eventViews.find(ref.workspaceId(), ref.eventId()).compose(found -> found.isEmpty()
        ? Future.succeededFuture(Optional.empty())
        : then.apply(found.get()).map(Optional::of));
  }

  /**
   * Tells the forwarders of these networks, on every node, that deliveries are due: once per event-loop turn, however
   * many events were stored in it (a committed batch answers all its events in one turn).
   */
  private void wakeForwarders(List<String> networks) {
    boolean scheduled = !wakesDue.isEmpty();
    wakesDue.addAll(networks);
    if (!scheduled && !wakesDue.isEmpty()) {
      vertx.runOnContext(v -> {
        wakesDue.forEach(network -> vertx.eventBus().publish(Addresses.deliveriesDue(network), network));
        wakesDue.clear();
      });
    }
  }

  /**
   * Answers a write that failed: refused for its own data (400, with PostgreSQL's message to its own sender only,
   * never the detail, which may quote the value), otherwise unavailable (503).
   */
  private static void failWrite(Message<?> message, String what, Throwable failure) {
    if (EventStore.isDataError(failure)) {
      PgException refused = (PgException) failure;
      logFor(message, () -> LOG.warn("request {}: {} refused by the database: {}", requestId(message), what,
          LogSafe.describe(refused)));
      message.fail(BusFailure.REFUSED, "The database refused a value of this request: " + refused.getErrorMessage()
          + " (SQLSTATE " + refused.getSqlState() + "). It was not stored; change it before sending again.");
    } else {
      logFor(message, () -> LOG.warn("request {}: {} not stored, answered unavailable: {}", requestId(message), what,
          LogSafe.describe(failure)));
      message.fail(BusFailure.UNAVAILABLE, what + " not stored");
    }
  }

  /**
   * A consumer that stores a session it is sent and replies with the same JSON once stored; the postbacks that
   * waited for that session are told.
   */
  private Future<Void> reply(String address, Function<JsonObject, Future<Void>> store) {
    return vertx.eventBus().<JsonObject>localConsumer(address, message -> store.apply(message.body()).onComplete(done -> {
      if (done.failed()) {
        failWrite(message, address, done.cause());
      } else {
        message.reply(message.body());
        vertx.eventBus().publish(Addresses.SESSIONS_SAVED, new JsonObject()
            .put("workspace_id", message.body().getString("workspace_id"))
            .put("session_id", message.body().getString("session_id")), new DeliveryOptions().setLocalOnly(true));
      }
    })).completion();
  }
}
