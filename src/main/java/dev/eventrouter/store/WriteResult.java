package dev.eventrouter.store;

/** What became of one event handed to {@link EventStore#insertBatch}. */
public sealed interface WriteResult permits WriteResult.Stored, WriteResult.Conflict {

  /** Stored now, or (replayed) stored earlier under the same Idempotency-Key with the same content. */
  record Stored(long eventId, String sessionId, boolean replayed) implements WriteResult {}

  /** The Idempotency-Key was used within 24 h with different content; nothing was stored. */
  record Conflict() implements WriteResult {}
}
