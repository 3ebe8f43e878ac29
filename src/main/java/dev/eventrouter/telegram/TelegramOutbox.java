package dev.eventrouter.telegram;

import dev.eventrouter.common.Backoff;
import dev.eventrouter.common.CheckedRequests;
import dev.eventrouter.common.LogSafe;
import dev.eventrouter.common.RetryAfter;
import dev.eventrouter.config.DeliveryConfig;
import dev.eventrouter.config.LiveConfig;
import dev.eventrouter.config.TelegramConfig;
import dev.eventrouter.store.TelegramStore;
import dev.eventrouter.store.TelegramStore.Job;
import io.micrometer.core.instrument.MeterRegistry;
import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.ext.web.codec.BodyCodec;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.time.Instant;

/**
 * Does what updates left in the Telegram outbox: passes an update on, unchanged, to the bot's own backend (with the
 * backend's own secret in X-Telegram-Bot-Api-Secret-Token, as Telegram would have sent it), and approves join
 * requests. 2xx is done; 408, 429 (honouring Retry-After or retry_after), 5xx and no answer are retried with the
 * deliveries' backoff; any other answer fails the job, as does a backend at a private address the pass-through may
 * not reach ({@link CheckedRequests}). Up to {@link #CLAIM_LIMIT} jobs go at once, in no promised order, as Telegram
 * itself sends a webhook's updates over several connections at once (setWebhook's max_connections, 40 by default).
 * A job is given up after 24 hours, as long as Telegram itself keeps an update its webhook did not take
 * (https://core.telegram.org/bots/api#getting-updates).
 */
final class TelegramOutbox {

  private static final Logger LOG = LoggerFactory.getLogger(TelegramOutbox.class);
  static final Duration MAX_AGE = Duration.ofHours(24);
  /** Jobs claimed at once; they run concurrently. */
  static final int CLAIM_LIMIT = 20;

  private static final String PASS_THROUGH_REFUSAL = "the host of the pass_through URL resolves to a loopback, "
      + "link-local or private address; set allow_private_network to send there";

  private final LiveConfig live;
  private final TelegramStore store;
  private final CheckedRequests requests;
  private final BotApi bot;
  private final MeterRegistry metrics;
  private boolean running;
  private boolean again;

  TelegramOutbox(LiveConfig live, TelegramStore store, CheckedRequests requests, BotApi bot, MeterRegistry metrics) {
    this.live = live;
    this.store = store;
    this.requests = requests;
    this.bot = bot;
    this.metrics = metrics;
  }

  /** Runs every due job, claim after claim, while full claims come back; one run at a time per verticle. */
  void run() {
    if (running) {
      again = true;
      return;
    }
    running = true;
    again = false;
    DeliveryConfig config = live.current().delivery();
    // The lease outlasts the claim's slowest end: every job queued behind the WebClient's 5 connections to one host.
    store.claim(CLAIM_LIMIT, config.requestTimeoutMs() * (CLAIM_LIMIT + 2) + 1_000)
        .compose(jobs -> Future.join(jobs.stream().map(this::perform).toList()).map(done -> jobs.size()))
        .onComplete(done -> {
          running = false;
          if (done.failed()) {
            LOG.warn("Telegram outbox not claimed: {}", LogSafe.describe(done.cause()));
          } else if (again || done.result() == CLAIM_LIMIT) {
            run();
          }
        });
  }

  private Future<Void> perform(Job job) {
    TelegramConfig telegram = live.current().workspace(job.workspaceId()).map(workspace -> workspace.bot(job.bot()))
        .orElse(null);
    if (job.receivedAt().plus(MAX_AGE).isBefore(Instant.now())) {
      return end(job, "expired", "not done within " + MAX_AGE.toHours() + " hours of the update");
    }
    if (TelegramStore.PASS_THROUGH.equals(job.kind())) {
      return telegram == null || telegram.passThrough() == null ? end(job, "failed", "pass_through is no longer "
          + "configured") : passThrough(job, telegram.passThrough());
    }
    return telegram == null || !telegram.approveJoinRequests() || telegram.botToken() == null
        ? end(job, "failed", "approve_join_requests is no longer configured") : approve(job, telegram);
  }

  private Future<Void> passThrough(Job job, TelegramConfig.PassThrough target) {
    // The backend's answer is not read: only its status and Retry-After count. It goes direct, never through a proxy.
    return requests.request(HttpMethod.POST, target.url(), target.allowPrivateNetwork(), null, PASS_THROUGH_REFUSAL)
        .compose(request -> {
          request.timeout(live.current().delivery().requestTimeoutMs()).putHeader("Content-Type", "application/json");
          if (target.secretToken() != null) {
            request.putHeader(TelegramConfig.SECRET_HEADER, target.secretToken());
          }
          return request.as(BodyCodec.none()).sendBuffer(Buffer.buffer(job.body()));
        })
        .transform(done -> {
          if (done.succeeded()) {
            return answered(job, done.result());
          }
          return done.cause() instanceof CheckedRequests.Refused refused ? end(job, "failed", refused.getMessage())
              : retry(job, 0, BotApi.noAnswer("bot backend", done.cause()));
        });
  }

  private Future<Void> answered(Job job, HttpResponse<Void> response) {
    int status = response.statusCode();
    if (status >= 200 && status < 300) {
      return end(job, "delivered", null);
    }
    // The backend's body is not kept: it is the advertiser's and could quote anything.
    String error = "bot backend HTTP " + status;
    return status == 408 || status == 429 || status >= 500
        ? retry(job, RetryAfter.millis(response.getHeader("Retry-After")), error) : end(job, "failed", error);
  }

  private Future<Void> approve(Job job, TelegramConfig telegram) {
    JsonObject request = new JsonObject(job.body());
    return bot.approveJoinRequest(telegram, request.getValue("chat_id"), request.getLong("user_id"))
        .transform(done -> {
          if (done.succeeded()) {
            return end(job, "delivered", null);
          }
          BotApi.Failure failure = done.cause() instanceof BotApi.Failure f ? f
              : new BotApi.Failure(0, "approveChatJoinRequest: " + done.cause().getClass().getSimpleName(), 0);
          return failure.transientFailure() ? retry(job, failure.retryAfterSeconds() * 1000, failure.getMessage())
              : end(job, "failed", failure.getMessage());
        });
  }

  private Future<Void> retry(Job job, long askedMs, String error) {
    DeliveryConfig config = live.current().delivery();
    long delayMs = Math.max(askedMs, Backoff.delayMs(job.attempts() - 1, config.initialBackoffMs(),
        config.maxBackoffMs()));
    count(job, "retried");
    return store.retry(job, delayMs, error);
  }

  private Future<Void> end(Job job, String status, String error) {
    if (error != null) {
      LOG.warn("workspace {}: Telegram update {} {} {}: {}", job.workspaceId(), job.updateId(), job.kind(), status,
          error);
    }
    count(job, status);
    return store.finish(job, status, error);
  }

  private void count(Job job, String outcome) {
    metrics.counter("event_router.telegram.jobs", "kind", job.kind(), "outcome", outcome).increment();
  }
}
