package dev.eventrouter.store;

import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * Gathers items submitted by concurrent requests into batches handled by one call each, so many requests share one
 * commit (or one query). A batch goes when it is full or its first item has waited {@code lingerMs} (0: at the end of
 * the current event-loop turn); up to {@code maxInFlight} batches are under way at once, and while all are busy the
 * next batch keeps filling. Each submitter's future completes with its own item's result.
 *
 * <p>Not thread-safe: use it from the one context (verticle) that created it.
 */
public final class GroupCommit<I, O> {

  /** Raised when more than {@code maxPending} items wait: shed load rather than queue without bound. */
  public static final class OverloadedException extends RuntimeException {
    public OverloadedException(int pending) {
      super(pending + " writes already waiting");
    }
  }

  private record Entry<I, O>(I item, Promise<O> promise) {}

  private final Vertx vertx;
  private final Function<List<I>, Future<List<O>>> writer;
  private final int batchSize;
  private final long lingerMs;
  private final int maxInFlight;
  private final int maxPending;
  private final ArrayDeque<Entry<I, O>> pending = new ArrayDeque<>();
  private final List<Promise<Void>> drainWaiters = new ArrayList<>();
  private int inFlight;
  private long timer = -1;
  private boolean scheduled;
  private long batches;

  public GroupCommit(Vertx vertx, Function<List<I>, Future<List<O>>> writer, int batchSize, long lingerMs,
                     int maxInFlight, int maxPending) {
    this.vertx = vertx;
    this.writer = writer;
    this.batchSize = batchSize;
    this.lingerMs = lingerMs;
    this.maxInFlight = maxInFlight;
    this.maxPending = maxPending;
  }

  public Future<O> submit(I item) {
    if (pending.size() >= maxPending) {
      return Future.failedFuture(new OverloadedException(pending.size()));
    }
    Promise<O> promise = Promise.promise();
    pending.add(new Entry<>(item, promise));
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
    while (inFlight < maxInFlight && !pending.isEmpty()) {
      List<Entry<I, O>> batch = new ArrayList<>(Math.min(batchSize, pending.size()));
      while (batch.size() < batchSize && !pending.isEmpty()) {
        batch.add(pending.poll());
      }
      inFlight++;
      batches++;
      write(batch).onComplete(done -> {
        inFlight--;
        if (!pending.isEmpty()) {
          // These waited at least one commit already: no extra linger.
          flush();
        } else if (inFlight == 0 && !drainWaiters.isEmpty()) {
          List.copyOf(drainWaiters).forEach(Promise::complete);
          drainWaiters.clear();
        }
      });
    }
  }

  private Future<List<O>> write(List<Entry<I, O>> batch) {
    Future<List<O>> result;
    try {
      result = writer.apply(batch.stream().map(Entry::item).toList());
    } catch (RuntimeException e) {
      result = Future.failedFuture(e);
    }
    return result.onComplete(done -> {
      if (done.failed()) {
        batch.forEach(entry -> entry.promise.fail(done.cause()));
        return;
      }
      List<O> outputs = done.result();
      for (int i = 0; i < batch.size(); i++) {
        batch.get(i).promise.complete(outputs.get(i));
      }
    });
  }
}
