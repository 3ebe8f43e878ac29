package dev.eventrouter.session;

import dev.eventrouter.bus.Addresses;
import dev.eventrouter.bus.IngestFailure;
import dev.eventrouter.bus.IngestReply;
import dev.eventrouter.bus.IngestRequest;
import dev.eventrouter.config.DatabaseConfig;
import dev.eventrouter.event.EventIds;
import dev.eventrouter.store.EventStore;
import dev.eventrouter.store.GroupCommit;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.eventbus.Message;
import io.vertx.core.json.JsonObject;
import io.vertx.pgclient.PgException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.concurrent.TimeUnit;

/**
 * Owns the write of every event: gives it its id, stores it through a group commit and replies once it is
 * committed. (Session resolution joins here in the sessions slice.)
 */
public final class SessionVerticle extends VerticleBase {

  private static final Logger LOG = LoggerFactory.getLogger(SessionVerticle.class);
  private static final long PURGE_EVERY_MS = TimeUnit.MINUTES.toMillis(10);

  private final EventStore store;
  private final EventIds ids;
  private final DatabaseConfig config;
  private GroupCommit<EventStore.Pending, EventStore.Outcome> writes;

  public SessionVerticle(EventStore store, EventIds ids, DatabaseConfig config) {
    this.store = store;
    this.ids = ids;
    this.config = config;
  }

  @Override
  public Future<?> start() {
    writes = new GroupCommit<>(vertx, store::insertBatch, config.writeBatchSize(), config.writeLingerMs(),
        config.poolSize(), config.maxPendingWrites());
    vertx.setPeriodic(PURGE_EVERY_MS, id -> store.purgeExpiredKeys()
        .onSuccess(n -> LOG.debug("purged {} expired idempotency keys", n))
        .onFailure(e -> LOG.warn("purging expired idempotency keys failed: {}", e.getMessage())));
    return vertx.eventBus().<JsonObject>consumer(Addresses.EVENTS_INGEST, this::ingest).completion();
  }

  /** Lets writes already under way commit and be answered before the pool closes. */
  @Override
  public Future<?> stop() {
    return writes.drained();
  }

  private void ingest(Message<JsonObject> message) {
    IngestRequest request = IngestRequest.fromJson(message.body());
    writes.submit(new EventStore.Pending(ids.next(), request)).onComplete(done -> {
      if (done.failed()) {
        LOG.warn("event not stored, answered unavailable: {}", describe(done.cause()));
        message.fail(IngestFailure.UNAVAILABLE, "event not stored");
      } else if (done.result() instanceof EventStore.Stored stored) {
        message.reply(new IngestReply(EventIds.format(stored.eventId()), stored.sessionId(),
            IngestReply.PROCESSED, stored.replayed()).toJson());
      } else {
        message.fail(IngestFailure.IDEMPOTENCY_CONFLICT, "idempotency key reused with a different body");
      }
    });
  }

  /** A PostgreSQL error message can quote the parameters, which hold user data: log only its SQLSTATE. */
  private static String describe(Throwable failure) {
    return failure instanceof PgException pg
        ? "PostgreSQL error " + pg.getSqlState()
        : failure.getClass().getSimpleName() + ": " + failure.getMessage();
  }
}
