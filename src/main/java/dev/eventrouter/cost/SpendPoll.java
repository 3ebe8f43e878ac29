package dev.eventrouter.cost;

import dev.eventrouter.cost.SpendFailure.Kind;
import dev.eventrouter.store.CostSourceStates.Claim;
import dev.eventrouter.store.CostSourceStates;
import dev.eventrouter.store.SpendStore;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;

import java.time.DateTimeException;
import java.time.LocalDate;
import java.time.ZoneId;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.LongUnaryOperator;

/**
 * One poll of one source: the account's zone, then its days from the first to be read again up to today in that
 * zone, a request of at most {@link RangePlan#days()} days at a time, page after page. Each page is stored as it comes
 * (a re-read overwrites) and renews the claim's lease; once a request's days are all read, the rows of those days the
 * platform no longer reports are dropped. Pages are paced by the usage the platform reports; a cut-off page is asked
 * again, and "reduce the amount of data" asks again with fewer days or rows.
 */
final class SpendPoll {

  /** The least pause between pages: the window in which the host's load is seen without this poll's work. */
  static final long MIN_PAUSE_MS = 10;
  /** How often a cut-off page is asked again (PostHog's importer: 3). */
  static final int TRUNCATED_RETRIES = 3;

  private final Vertx vertx;
  private final SpendStore spend;
  private final CostSourceStates states;
  private final UUID workspaceId;
  private final String sourceId;
  private final Claim claim;
  private final long leaseMs;
  private final long pauseUnitMs;
  /** The pause after a page that took so many milliseconds, so a poll keeps to its share of a busy host's time. */
  private final LongUnaryOperator budget;
  /**
   * Whether the host was busy since the last look: asked at the end of each pause, so what it sees is the others'
   * work (ingest), never this poll's own pages.
   */
  private final BooleanSupplier busy;
  /** Starts the window the next look at the host's load covers. */
  private final Runnable lookFromNow;
  /** The pause before the next page: the least while the host is idle, the budget's while it was busy. */
  private long nextPauseMs = MIN_PAUSE_MS;

  SpendPoll(Vertx vertx, SpendStore spend, CostSourceStates states, UUID workspaceId, String sourceId, Claim claim,
            long leaseMs, long pauseUnitMs, LongUnaryOperator budget, BooleanSupplier busy, Runnable lookFromNow) {
    this.vertx = vertx;
    this.spend = spend;
    this.states = states;
    this.workspaceId = workspaceId;
    this.sourceId = sourceId;
    this.claim = claim;
    this.leaseMs = leaseMs;
    this.pauseUnitMs = pauseUnitMs;
    this.budget = budget;
    this.busy = busy;
    this.lookFromNow = lookFromNow;
  }

  /** Reads {@code days} days before today and today; completes with the rows stored. */
  Future<Long> run(SpendReader reader, int days) {
    return reader.account().compose(account -> {
      ZoneId zone;
      try {
        zone = ZoneId.of(account.zone());
      } catch (DateTimeException e) {
        return Future.failedFuture(new SpendFailure(Kind.FAILED, "the account's time zone is not one we know"));
      }
      LocalDate today = LocalDate.now(zone);
      return states.account(workspaceId, sourceId, account.zone(), account.currency())
          .compose(v -> new Reading(reader, account).from(today.minusDays(days), today));
    });
  }

  /** The reads of one poll, with what it has learned of how much to ask for. */
  private final class Reading {
    private final SpendReader reader;
    private final SpendReader.Account account;
    private final RangePlan plan;
    private long stored;

    Reading(SpendReader reader, SpendReader.Account account) {
      this.reader = reader;
      this.account = account;
      this.plan = new RangePlan(reader.maxDays(), reader.limits());
    }

    /** Reads {@code from} to {@code last}, oldest first, a request's days at a time. */
    Future<Long> from(LocalDate from, LocalDate last) {
      if (from.isAfter(last)) {
        return Future.succeededFuture(stored);
      }
      LocalDate to = min(from.plusDays(plan.days() - 1L), last);
      return request(from, to, null, 0).compose(done -> done ? spend.sweep(workspaceId, sourceId, claim.pollSeq(),
              from, to).compose(swept -> from(to.plusDays(1), last))
          : from(from, last)); // fewer days or rows: these days again
    }

    /** Reads the pages of one request; true when all were read, false when the plan shrank and it must start over. */
    private Future<Boolean> request(LocalDate from, LocalDate to, String cursor, int truncated) {
      long started = System.nanoTime();
      return reader.page(account, from, to, plan.limit(), cursor).compose(page -> spend.upsert(workspaceId,
              sourceId, claim.pollSeq(), page.rows())
          .compose(v -> states.renew(workspaceId, sourceId, claim.pollSeq(), leaseMs))
          .compose(held -> {
            if (!held) {
              return Future.failedFuture(new SpendFailure(Kind.FAILED, "the poll lost its lease"));
            }
            stored += page.rows().size();
            if (page.next() == null) {
              return Future.succeededFuture(true);
            }
            long pageMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
            lookFromNow.run(); // the look at the pause's end sees the pause only: the page's own work is left out
            long pauseMs = Math.max(page.usage().pauseMs(pauseUnitMs), nextPauseMs);
            if (pauseMs > leaseMs / 2) { // too long to hold the source: the next poll goes on
              return Future.failedFuture(new SpendFailure(Kind.RATE_LIMITED, "the platform reports "
                  + Math.round(page.usage().percent()) + "% of its rate limit used", pauseMs));
            }
            return pause(pauseMs).compose(v -> {
              nextPauseMs = busy.getAsBoolean() ? Math.max(MIN_PAUSE_MS, Math.min(budget.applyAsLong(pageMs),
                  leaseMs / 4)) : MIN_PAUSE_MS;
              return request(from, to, page.next(), 0);
            });
          }), failure -> {
            if (failure instanceof SpendFailure f && f.kind() == Kind.TRUNCATED && truncated < TRUNCATED_RETRIES) {
              return request(from, to, cursor, truncated + 1);
            }
            if (failure instanceof SpendFailure f && f.kind() == Kind.TOO_MUCH_DATA && plan.shrink()) {
              return Future.succeededFuture(false);
            }
            return Future.failedFuture(failure);
          });
    }
  }

  private Future<Void> pause(long ms) {
    if (ms <= 0) {
      return Future.succeededFuture();
    }
    Promise<Void> done = Promise.promise();
    vertx.setTimer(ms, id -> done.complete());
    return done.future();
  }

  private static LocalDate min(LocalDate a, LocalDate b) {
    return a.isBefore(b) ? a : b;
  }
}
