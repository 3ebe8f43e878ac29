package dev.eventrouter.support;

import io.vertx.core.Future;

import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.BooleanSupplier;

/** Polling with a deadline, for outcomes that arrive asynchronously (deliveries, reloads), and bounded waits. */
public final class Await {

  /**
   * How long a unit test waits for one outcome that should come at once. The mutation run shortens it
   * ({@code -Dtest.wait.ms}, see the pit profile), so a mutant that makes the code hang fails its test in a moment
   * instead of being stopped as a PIT timeout, which costs a new test JVM each time.
   */
  public static final Duration WAIT = Duration.ofMillis(Long.getLong("test.wait.ms", 10_000));

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

  /** The future's result, waiting at most {@link #WAIT}; its failure is thrown as {@code Future.await()} does. */
  public static <T> T result(Future<T> future) {
    try {
      return future.await(WAIT.toMillis(), TimeUnit.MILLISECONDS);
    } catch (TimeoutException e) {
      throw new AssertionError("no outcome within " + WAIT.toMillis() + " ms", e);
    }
  }

  /** The future's failure, waiting at most {@link #WAIT}; a success is an assertion error. */
  public static Throwable failure(Future<?> future) {
    Object value;
    try {
      value = result(future);
    } catch (AssertionError noOutcome) {
      throw noOutcome;
    } catch (RuntimeException failed) {
      return future.cause();
    }
    throw new AssertionError("expected a failure, got " + value);
  }
}
