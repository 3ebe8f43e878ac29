package dev.eventrouter.common;

import io.vertx.pgclient.PgException;

import java.io.IOException;
import java.util.concurrent.TimeoutException;

/** Describes failures for logs and stored errors without the values they may quote. */
public final class LogSafe {

  private LogSafe() {}

  /**
   * A request path as logs may show it: the URL token of a postback route ({@code /postbacks/<token>}) masked, as
   * it is a credential.
   */
  public static String path(String path) {
    return path == null ? null : path.replaceAll("(/postbacks/)[^/?#]+", "$1***");
  }

  /**
   * PostgreSQL and driver messages can quote parameter values (user data, Telegram ids), so only what cannot carry
   * them is told: the SQLSTATE, a timeout, a network error's message; anything else by its type alone.
   */
  public static String describe(Throwable failure) {
    if (failure instanceof PgException pg) {
      return "PostgreSQL error " + pg.getSqlState();
    }
    if (failure instanceof TimeoutException || failure instanceof IOException) {
      return failure.getClass().getSimpleName() + ": " + failure.getMessage();
    }
    return failure.getClass().getName();
  }
}
