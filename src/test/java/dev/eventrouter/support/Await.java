package dev.eventrouter.support;

import java.time.Duration;
import java.time.Instant;
import java.util.function.BooleanSupplier;

/** Polling with a deadline, for outcomes that arrive asynchronously (deliveries, reloads). */
public final class Await {

  private Await() {}

  public static void until(String what, Duration timeout, BooleanSupplier condition) {
    Instant deadline = Instant.now().plus(timeout);
    while (!condition.getAsBoolean()) {
      if (Instant.now().isAfter(deadline)) {
        throw new AssertionError("timed out after " + timeout.toMillis() + " ms waiting for " + what);
      }
      try {
        Thread.sleep(20); // a poll interval, not a synchronisation: the condition decides
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new AssertionError("interrupted waiting for " + what, e);
      }
    }
  }
}
