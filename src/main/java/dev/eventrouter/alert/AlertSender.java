package dev.eventrouter.alert;

import dev.eventrouter.common.CheckedRequests;
import dev.eventrouter.common.RetryAfter;
import dev.eventrouter.config.AlertTarget;
import dev.eventrouter.config.IntegrationConfig;
import dev.eventrouter.forward.Outbound;
import dev.eventrouter.forward.Outcome;
import dev.eventrouter.forward.webhook.WebhookApi;
import dev.eventrouter.telegram.BotApi;
import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonObject;

/**
 * Sends one alert to its target: a Telegram chat through the Bot API's sendMessage, or a webhook, signed as webhook
 * integrations are ({@code X-Event-Router-Signature: sha256=<HMAC-SHA256 of the body with the secret>}), through the
 * same address checks and proxy, never following a redirect. Answers what became of it; never fails.
 */
final class AlertSender {

  /** The header a receiver drops a retried alert by: the same on every attempt. */
  static final String ALERT_ID_HEADER = "X-Event-Router-Alert-Id";

  /** What became of a send: {@code sent}; else {@code retry} (worth another try, after at least retryAfterMs) or not. */
  record Result(boolean sent, boolean retry, long retryAfterMs, String error) {
    static final Result SENT = new Result(true, false, 0, null);

    static Result retry(String error, long retryAfterMs) {
      return new Result(false, true, retryAfterMs, error);
    }

    static Result drop(String error) {
      return new Result(false, false, 0, error);
    }
  }

  private static final WebhookApi WEBHOOKS = new WebhookApi();

  private final BotApi bots;
  private final Outbound out;
  private final long timeoutMs;

  AlertSender(BotApi bots, Outbound out, long timeoutMs) {
    this.bots = bots;
    this.out = out;
    this.timeoutMs = timeoutMs;
  }

  /** @param message the alert as queued; a webhook gets it with its {@code alert_id} */
  Future<Result> send(AlertTarget target, long alertId, JsonObject message) {
    Future<Result> sent = target instanceof AlertTarget.Telegram chat ? telegram(chat, message.getString("text"))
        : webhook(((AlertTarget.Webhook) target).webhook(), alertId, message.copy().put("alert_id",
            String.valueOf(alertId)));
    return sent.recover(failure -> Future.succeededFuture(Result.retry("could not be sent: "
        + failure.getClass().getSimpleName(), 0)));
  }

  private Future<Result> telegram(AlertTarget.Telegram chat, String text) {
    return bots.sendMessage(chat.bot(), chat.chatId(), text).map(Result.SENT).recover(failure -> {
      if (failure instanceof BotApi.Failure refused) {
        // Telegram's words, never the token (BotApi keeps the URL out of them).
        return Future.succeededFuture(refused.transientFailure()
            ? Result.retry(refused.getMessage(), refused.retryAfterSeconds() * 1000)
            : Result.drop(refused.getMessage()));
      }
      return Future.failedFuture(failure);
    });
  }

  /** Signed, answered and described as a webhook integration's request is ({@link WebhookApi}). */
  private Future<Result> webhook(IntegrationConfig hook, long alertId, JsonObject body) {
    Buffer payload = body.toBuffer();
    return out.request(hook, HttpMethod.POST, hook.webhook().url())
        .compose(request -> {
          request.timeout(timeoutMs).putHeader("Content-Type", "application/json")
              .putHeader(ALERT_ID_HEADER, String.valueOf(alertId));
          hook.webhook().headers().forEach(request::putHeader);
          return WebhookApi.signed(request, hook, payload.getBytes()).sendBuffer(payload);
        })
        .map(response -> result(WEBHOOKS.classify(response.statusCode(), response.body(),
            RetryAfter.millis(response.getHeader("Retry-After")))))
        .recover(failure -> Future.succeededFuture(failure instanceof CheckedRequests.Refused refused
            ? Result.drop(refused.getMessage())
            : Result.retry(Outbound.through(hook, WEBHOOKS.describe(failure)), 0)));
  }

  /** A webhook's verdict: delivered, retried (with its Retry-After) or failed (WebhookApi answers no other). */
  private static Result result(Outcome outcome) {
    if (outcome instanceof Outcome.Delivered) {
      return Result.SENT;
    }
    return outcome instanceof Outcome.Retry retry ? Result.retry(retry.error(), retry.retryAfterMs())
        : Result.drop(((Outcome.Failed) outcome).error());
  }
}
