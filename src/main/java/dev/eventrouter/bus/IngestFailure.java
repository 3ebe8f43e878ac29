package dev.eventrouter.bus;

/** Failure codes of {@link Addresses#EVENTS_INGEST} replies, carried by {@code ReplyException.failureCode()}. */
public final class IngestFailure {

  /** The Idempotency-Key was already used with a different body. */
  public static final int IDEMPOTENCY_CONFLICT = 409;
  /** The event could not be stored (PostgreSQL down, overloaded or too slow); nothing was acknowledged. */
  public static final int UNAVAILABLE = 503;

  private IngestFailure() {}
}
