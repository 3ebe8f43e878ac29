package dev.eventrouter.bus;

/** Failure codes of event-bus replies, carried by {@code ReplyException.failureCode()}; HTTP statuses by design. */
public final class BusFailure {

  /** The database refused a value of the request (a data or constraint error); retrying it unchanged cannot help. */
  public static final int REFUSED = 400;
  /** Nothing stored under that id for that workspace. */
  public static final int NOT_FOUND = 404;
  /** The Idempotency-Key was already used with a different body. */
  public static final int IDEMPOTENCY_CONFLICT = 409;
  /** The store could not do it (PostgreSQL down, overloaded or too slow); nothing was acknowledged. */
  public static final int UNAVAILABLE = 503;

  private BusFailure() {}
}
