package dev.eventrouter.session;

import dev.eventrouter.bus.BusFailure;
import dev.eventrouter.bus.IngestReply;
import dev.eventrouter.bus.IngestRequest;
import dev.eventrouter.common.LogSafe;
import dev.eventrouter.config.DatabaseConfig;
import dev.eventrouter.event.ConversionEvent;
import dev.eventrouter.event.EventIds;
import dev.eventrouter.event.Resolution;
import dev.eventrouter.store.Batcher;
import dev.eventrouter.store.ConfiguredPlan;
import dev.eventrouter.store.ConversionStore;
import dev.eventrouter.store.EventStore;
import dev.eventrouter.store.EventWriter;
import dev.eventrouter.store.NewEvent;
import dev.eventrouter.store.WriteResult;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.MeterRegistry;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.Message;
import io.vertx.pgclient.PgException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static dev.eventrouter.bus.BusReplies.logFor;
import static dev.eventrouter.bus.BusReplies.requestId;

/**
 * The write of every event: resolves its session from its sources in order, gives it its id, stores it through a
 * group commit (or, naming a transaction id, as a conversion) and replies once it is committed.
 */
final class EventWrites {

  /** The SessionVerticle's logger: these lines are the verticle's, as operators know them. */
  private static final Logger LOG = LoggerFactory.getLogger(SessionVerticle.class);

  private final EventIds ids;
  private final MeterRegistry metrics;
  private final ConversionStore conversions;
  private final ConfiguredPlan plan;
  private final SessionResolver resolver;
  private final ForwarderWakeups wakeups;
  private final Batcher<NewEvent, WriteResult> writes;
  private final Map<String, Counter> storedBySource = new HashMap<>();

  /** @param writer where events are written (the events table, or a test's faulty double) */
  EventWrites(Vertx vertx, DatabaseConfig database, EventWriter writer, EventIds ids, MeterRegistry metrics,
              ConversionStore conversions, ConfiguredPlan plan, SessionResolver resolver, ForwarderWakeups wakeups) {
    this.ids = ids;
    this.metrics = metrics;
    this.conversions = conversions;
    this.plan = plan;
    this.resolver = resolver;
    this.wakeups = wakeups;
    DistributionSummary batchSizes = DistributionSummary.builder("event_router.write.batch_size")
        .description("events per group commit: throughput follows it")
        .publishPercentileHistogram()
        .minimumExpectedValue(1.0)
        .maximumExpectedValue((double) database.writeBatchSize())
        .register(metrics);
    writes = new Batcher<NewEvent, WriteResult>(vertx, batch -> {
      batchSizes.record(batch.size());
      return writer.insertBatch(batch);
    }, database.writeBatchSize(), database.writeLingerMs(), database.poolSize(), database.maxPendingWrites())
        .isolating(EventStore::isDataError);
    // Stored events over commits shows how many requests share each commit.
    FunctionCounter.builder("event_router.write.commits", writes, Batcher::batches).register(metrics);
  }

  /** Completes once the writes already under way are committed and answered. */
  Future<Void> drained() {
    return writes.drained();
  }

  void ingest(Message<IngestRequest> message) {
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
      wakeups.wake(networks);
    }
  }

  /**
   * Answers a write that failed: refused for its own data (400, with PostgreSQL's message to its own sender only,
   * never the detail, which may quote the value), otherwise unavailable (503).
   */
  static void failWrite(Message<?> message, String what, Throwable failure) {
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
}
