package dev.eventrouter.store;

import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.junit5.VertxExtension;
import io.vertx.junit5.VertxTestContext;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The batching rules, with a writer the test completes by hand (the SQL is covered by EventStoreTest). */
@ExtendWith(VertxExtension.class)
class BatcherTest {

  /** Records each batch, tells the test when one arrives, and lets the test decide when it is written. */
  private static final class ManualWriter {
    final List<List<Integer>> batches = new ArrayList<>();
    final List<Promise<List<String>>> pending = new ArrayList<>();
    Handler<Integer> onBatch = index -> {};

    Future<List<String>> write(List<Integer> batch) {
      batches.add(batch);
      Promise<List<String>> promise = Promise.promise();
      pending.add(promise);
      onBatch.handle(batches.size() - 1);
      return promise.future();
    }

    void complete(int index) {
      pending.get(index).complete(batches.get(index).stream().map(i -> "ok" + i).toList());
    }
  }

  @Test
  @DisplayName("items submitted together share one batch, and each gets its own result")
  void oneBatchForConcurrentItems(Vertx vertx, VertxTestContext test) {
    ManualWriter writer = new ManualWriter();
    vertx.runOnContext(v -> {
      Batcher<Integer, String> commit = new Batcher<>(vertx, writer::write, 100, 5, 2, 1000);
      List<Future<String>> results = new ArrayList<>();
      writer.onBatch = index -> {
        test.verify(() -> assertThat(writer.batches.get(index)).hasSize(50));
        writer.complete(index);
      };
      for (int i = 0; i < 50; i++) {
        results.add(commit.submit(i));
      }
      Future.all(results).onComplete(test.succeeding(all -> test.verify(() -> {
        assertThat(results.get(7).result()).isEqualTo("ok7");
        assertThat(writer.batches).hasSize(1);
        assertThat(commit.batches()).isEqualTo(1);
        test.completeNow();
      })));
    });
  }

  @Test
  @DisplayName("with linger 0, items submitted in one event-loop turn go together at the end of that turn")
  void lingerZeroBatchesOneTurn(Vertx vertx, VertxTestContext test) {
    ManualWriter writer = new ManualWriter();
    vertx.runOnContext(v -> {
      Batcher<Integer, String> commit = new Batcher<>(vertx, writer::write, 100, 0, 2, 1000);
      writer.onBatch = index -> {
        test.verify(() -> assertThat(writer.batches).containsExactly(List.of(1, 2, 3)));
        test.completeNow();
      };
      commit.submit(1);
      commit.submit(2);
      commit.submit(3);
      test.verify(() -> assertThat(writer.batches).isEmpty());
    });
  }

  @Test
  @DisplayName("a full batch goes at once, without waiting for the linger time")
  void fullBatchDoesNotLinger(Vertx vertx, VertxTestContext test) {
    ManualWriter writer = new ManualWriter();
    vertx.runOnContext(v -> {
      Batcher<Integer, String> commit = new Batcher<>(vertx, writer::write, 3, 60_000, 2, 1000);
      commit.submit(1);
      commit.submit(2);
      commit.submit(3).onComplete(test.succeeding(r -> test.verify(() -> {
        assertThat(r).isEqualTo("ok3");
        test.completeNow();
      })));
      test.verify(() -> assertThat(writer.batches).containsExactly(List.of(1, 2, 3)));
      writer.complete(0);
    });
  }

  @Test
  @DisplayName("while all writers are busy, new items gather into the next batch, sent when one finishes")
  void gathersWhileBusy(Vertx vertx, VertxTestContext test) {
    ManualWriter writer = new ManualWriter();
    vertx.runOnContext(v -> {
      Batcher<Integer, String> commit = new Batcher<>(vertx, writer::write, 100, 1, 1, 1000);
      writer.onBatch = index -> {
        if (index == 0) {
          // The only writer is busy with [1]: these two must wait, together.
          commit.submit(2);
          commit.submit(3).onComplete(test.succeeding(r -> test.verify(() -> {
            assertThat(r).isEqualTo("ok3");
            test.completeNow();
          })));
          test.verify(() -> assertThat(writer.batches).containsExactly(List.of(1)));
          writer.complete(0);
        } else {
          test.verify(() -> assertThat(writer.batches).containsExactly(List.of(1), List.of(2, 3)));
          writer.complete(index);
        }
      };
      commit.submit(1);
    });
  }

  @Test
  @DisplayName("a failed write fails every item of its batch")
  void failureReachesEveryItem(Vertx vertx, VertxTestContext test) {
    var checkpoint = test.checkpoint(2);
    vertx.runOnContext(v -> {
      Batcher<Integer, String> commit = new Batcher<>(vertx,
          batch -> Future.failedFuture(new IllegalStateException("down")), 10, 1, 1, 1000);
      for (int i = 0; i < 2; i++) {
        commit.submit(i).onComplete(test.failing(e -> test.verify(() -> {
          assertThat(e).hasMessage("down");
          checkpoint.flag();
        })));
      }
    });
  }

  @Test
  @DisplayName("beyond max pending the submit is refused at once, so load is shed instead of queued")
  void overload(Vertx vertx, VertxTestContext test) {
    ManualWriter writer = new ManualWriter();
    vertx.runOnContext(v -> {
      Batcher<Integer, String> commit = new Batcher<>(vertx, writer::write, 100, 60_000, 1, 2);
      commit.submit(1);
      commit.submit(2);
      commit.submit(3).onComplete(test.failing(e -> test.verify(() -> {
        assertThat(e).isInstanceOf(Batcher.OverloadedException.class);
        test.completeNow();
      })));
    });
  }

  @Test
  @DisplayName("with isolating, a batch failed by one item's data is split until only that item fails")
  void isolatesTheBadItem(Vertx vertx, VertxTestContext test) throws InterruptedException {
    List<List<Integer>> attempts = new ArrayList<>();
    var checkpoint = test.checkpoint(8);
    vertx.runOnContext(v -> {
      Batcher<Integer, String> commit = new Batcher<Integer, String>(vertx, batch -> {
        attempts.add(List.copyOf(batch));
        return batch.contains(5) ? Future.failedFuture(new IllegalArgumentException("bad item"))
            : Future.succeededFuture(batch.stream().map(i -> "ok" + i).toList());
      }, 100, 5, 1, 1000).isolating(e -> e instanceof IllegalArgumentException);
      for (int i = 0; i < 8; i++) {
        int item = i;
        commit.submit(item).onComplete(done -> test.verify(() -> {
          if (item == 5) {
            assertThat(done.failed()).isTrue();
            assertThat(done.cause()).hasMessage("bad item");
          } else {
            assertThat(done.result()).isEqualTo("ok" + item);
          }
          checkpoint.flag();
        }));
      }
    });
    assertThat(test.awaitCompletion(10, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
    assertThat(attempts).as("halves until the bad item stands alone")
        .containsExactly(List.of(0, 1, 2, 3, 4, 5, 6, 7), List.of(0, 1, 2, 3), List.of(4, 5, 6, 7), List.of(4, 5),
            List.of(4), List.of(5), List.of(6, 7));
  }

  @Test
  @DisplayName("without isolating, or for an availability failure, the batch is not split")
  void availabilityFailureIsNotSplit(Vertx vertx, VertxTestContext test) throws InterruptedException {
    List<Integer> batchSizes = new ArrayList<>();
    var checkpoint = test.checkpoint(4);
    vertx.runOnContext(v -> {
      Batcher<Integer, String> commit = new Batcher<Integer, String>(vertx, batch -> {
        batchSizes.add(batch.size());
        return Future.failedFuture(new IllegalStateException("down"));
      }, 100, 5, 1, 1000).isolating(e -> e instanceof IllegalArgumentException);
      for (int i = 0; i < 4; i++) {
        commit.submit(i).onComplete(test.failing(e -> checkpoint.flag()));
      }
    });
    assertThat(test.awaitCompletion(10, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
    assertThat(batchSizes).containsExactly(4);
  }

  @Test
  @DisplayName("an item whose deadline passed while it waited is dropped, not written")
  void expiredItemsAreNotWritten(Vertx vertx, VertxTestContext test) {
    ManualWriter writer = new ManualWriter();
    var checkpoint = test.checkpoint(2);
    vertx.runOnContext(v -> {
      Batcher<Integer, String> commit = new Batcher<>(vertx, writer::write, 100, 1, 1, 1000);
      writer.onBatch = index -> {
        if (index == 0) {
          // While the only writer is busy, one item that is already past its deadline and one that is not.
          commit.submit(2, System.currentTimeMillis() - 1).onComplete(test.failing(e -> test.verify(() -> {
            assertThat(e).isInstanceOf(Batcher.ExpiredException.class);
            checkpoint.flag();
          })));
          commit.submit(3, System.currentTimeMillis() + 60_000).onComplete(test.succeeding(r -> checkpoint.flag()));
          writer.complete(0);
        } else {
          test.verify(() -> assertThat(writer.batches.get(index)).containsExactly(3));
          writer.complete(index);
        }
      };
      commit.submit(1);
    });
  }

  @Test
  @DisplayName("a clean stop does not wait for items that expired instead of being written")
  void drainedAfterExpiry(Vertx vertx, VertxTestContext test) {
    ManualWriter writer = new ManualWriter();
    vertx.runOnContext(v -> {
      Batcher<Integer, String> batcher = new Batcher<>(vertx, writer::write, 100, 1, 1, 1000);
      writer.onBatch = index -> {
        // The only writer is busy; the next item is already past its deadline, and a stop begins.
        batcher.submit(2, System.currentTimeMillis() - 1);
        batcher.drained().onComplete(test.succeeding(done -> test.verify(() -> {
          assertThat(writer.batches).as("the expired item was never written").containsExactly(List.of(1));
          test.completeNow();
        })));
        writer.complete(0);
      };
      batcher.submit(1);
    });
  }
}
