package dev.eventrouter.store;

import io.vertx.core.Future;

import java.util.List;

/**
 * Where the single writer puts events: {@link EventStore} in the service; a faulty double in the tests, so the
 * "not confirmed" and "refused" answers are tested without stopping a database.
 */
public interface EventWriter {

  /** Stores the batch in one commit; each event's result, in order. Fails as a whole when nothing was stored. */
  Future<List<WriteResult>> insertBatch(List<NewEvent> batch);
}
