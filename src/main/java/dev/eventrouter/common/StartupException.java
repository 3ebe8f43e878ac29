package dev.eventrouter.common;

import io.vertx.pgclient.PgException;

import java.net.BindException;

/**
 * A start-up failure whose message is the one line an operator reads: what failed, where, and what to do. Main prints
 * it and exits non-zero.
 */
public final class StartupException extends RuntimeException {

  public StartupException(String message) {
    super(message, null, false, false);
  }

  /** The one line for any start-up failure; values that may be secret (PostgreSQL messages) are left out. */
  public static String explain(Throwable failure) {
    for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
      if (cause instanceof StartupException startup) {
        return "event-router cannot start: " + startup.getMessage();
      }
      if (cause instanceof BindException bind) {
        return "event-router cannot start: cannot listen on the configured http.host and http.port ("
            + bind.getMessage() + "): stop whatever uses that port, or set another http.port";
      }
    }
    String message = failure.getMessage();
    String firstLine = message == null || message.isBlank() || failure instanceof PgException
        ? LogSafe.describe(failure)
        : failure.getClass().getSimpleName() + ": " + message.lines().findFirst().orElse("");
    return "event-router cannot start: " + firstLine + " (the log above has the details)";
  }
}
