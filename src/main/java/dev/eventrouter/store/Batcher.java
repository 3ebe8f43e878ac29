package dev.eventrouter.store;

import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * Gathers items submitted by concurrent requests into batches handled by one call each, so many requests share one
 * commit (or one query). A batch goes when it is full or its first item has waited {@code lingerMs} (0: at the end of
 * the current event-loop turn); up to {@code maxInFlight} batches are under way at once, and while all are busy the
 * next batch keeps filling. Each submitter's future completes with its own item's result.
 *
 * <p>An item may carry a deadline: once it has passed, its submitter has been answered already (with "not
 * confirmed"), so the item is dropped rather than written. With {@link #isolating}, a batch that fails for one item's
 * data is written again in halves until that item stands alone, so one bad item never fails the others.
 *
 * <p>Not thread-safe: use it from the one context (verticle) that created it.
 */
public final class Batcher<I, O> {

  /** Raised when more than {@code maxPending} items wait: shed load rather than queue without bound. */
  public static final class OverloadedException extends RuntimeException {
    public OverloadedException(int pending) {
      super(pending + " writes already waiting");
    }
  }

  /** Raised for an item whose deadline passed before its batch was written: it was not written. */
  public static final class ExpiredException extends RuntimeException {
    public ExpiredException() {
      super("deadline passed before the write started", null, false, false);
    }
  }

  private static final long NO_DEADLINE = Long.MAX_VALUE;

  private record Entry<I, O>(I item, long deadlineMs, Promise<O> promise) {}

  private final Vertx vertx;
  private final Function<List<I>, Future<List<O>>> writer;
  private final int batchSize;
  private final long lingerMs;
  private final int maxInFlight;
  private final int maxPending;
  private Predicate<Throwable> itemError = failure -> false;
  private final ArrayDeque<Entry<I, O>> pending = new ArrayDeque<>();
  private final List<Promise<Void>> drainWaiters = new ArrayList<>();
  private int inFlight;
  private long timer = -1;
  private boolean scheduled;
  private long batches;

  public Batcher(Vertx vertx, Function<List<I>, Future<List<O>>> writer, int batchSize, long lingerMs,
                 int maxInFlight, int maxPending) {
    this.vertx = vertx;
    this.writer = writer;
    this.batchSize = batchSize;
    this.lingerMs = lingerMs;
    this.maxInFlight = maxInFlight;
    this.maxPending = maxPending;
  }

  /**
   * Writes a failed batch again in halves when {@code itemError} says the failure came from one item's data rather
   * than from the writer being unavailable.
   */
  public Batcher<I, O> isolating(Predicate<Throwable> itemError) {
    this.itemError = itemError;
    return this;
  }

  public Future<O> submit(I item) {
    return submit(item, NO_DEADLINE);
  }

  /** @param deadlineMs epoch milliseconds after which the item is no longer written */
  public Future<O> submit(I item, long deadlineMs) {
    if (pending.size() >= maxPending) {
      return Future.failedFuture(new OverloadedException(pending.size()));
    }
    Promise<O> promise = Promise.promise();
    pending.add(new Entry<>(item, deadlineMs, promise));
    if (pending.size() >= batchSize) {
      flush();
    } else if (!scheduled) {
      scheduled = true;
      if (lingerMs == 0) {
        vertx.runOnContext(v -> lingered());
      } else {
        timer = vertx.setTimer(lingerMs, id -> lingered());
      }
    }
    return promise.future();
  }

  /** Completes once every submitted item is written (or failed): for a clean stop. */
  public Future<Void> drained() {
    if (pending.isEmpty() && inFlight == 0) {
      return Future.succeededFuture();
    }
    Promise<Void> promise = Promise.promise();
    drainWaiters.add(promise);
    flush();
    return promise.future();
  }

  /** Batches written so far; lets tests and metrics see that requests share commits. */
  public long batches() {
    return batches;
  }

  private void lingered() {
    timer = -1;
    if (scheduled) {
      flush();
    }
  }

  private void flush() {
    scheduled = false;
    if (timer >= 0) {
      vertx.cancelTimer(timer);
      timer = -1;
    }
    long now = System.currentTimeMillis();
    while (inFlight < maxInFlight && !pending.isEmpty()) {
      List<Entry<I, O>> batch = new ArrayList<>(Math.min(batchSize, pending.size()));
      while (batch.size() < batchSize && !pending.isEmpty()) {
        Entry<I, O> entry = pending.poll();
        if (entry.deadlineMs() < now) {
          entry.promise().fail(new ExpiredException());
        } else {
          batch.add(entry);
        }
      }
      if (batch.isEmpty()) {
        continue;
      }
      inFlight++;
      batches++;
      write(batch).onComplete(done -> {
        inFlight--;
        // These waited at least one commit already: no extra linger.
        flush();
      });
    }
    // Also when the last waiting items expired instead of being written: a clean stop must not wait for them.
    if (pending.isEmpty() && inFlight == 0 && !drainWaiters.isEmpty()) {
      List.copyOf(drainWaiters).forEach(Promise::complete);
      drainWaiters.clear();
    }
  }

  /** Completes when every item of the batch has its answer. */
  private Future<Void> write(List<Entry<I, O>> batch) {
    Future<List<O>> result;
    try {
      result = writer.apply(batch.stream().map(Entry::item).toList());
    } catch (RuntimeException e) {
      result = Future.failedFuture(e);
    }
    return result.transform(done -> {
      if (done.succeeded()) {
        List<O> outputs = done.result();
        for (int i = 0; i < batch.size(); i++) {
          batch.get(i).promise.complete(outputs.get(i));
        }
      } else if (batch.size() > 1 && itemError.test(done.cause())) {
        // Nothing of the batch was written (one statement, or one transaction); the halves go again in turn.
        int half = batch.size() / 2;
        return write(batch.subList(0, half)).eventually(() -> write(batch.subList(half, batch.size())));
      } else {
        batch.forEach(entry -> entry.promise.fail(done.cause()));
      }
      return Future.succeededFuture();
    });
  }
}
