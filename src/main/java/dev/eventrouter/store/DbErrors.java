package dev.eventrouter.store;

import io.vertx.pgclient.PgException;

import java.io.IOException;
import java.util.concurrent.TimeoutException;

/** Log-safe descriptions of database failures. */
public final class DbErrors {

  private DbErrors() {}

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
