package dev.eventrouter.alert;

import dev.eventrouter.common.RetryAfter;
import dev.eventrouter.common.Sha256;
import dev.eventrouter.config.AlertTarget;
import dev.eventrouter.config.IntegrationConfig;
import dev.eventrouter.forward.Outbound;
import dev.eventrouter.forward.webhook.WebhookApi;
import dev.eventrouter.telegram.BotApi;
import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonObject;

import java.util.concurrent.TimeoutException;

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

  private Future<Result> webhook(IntegrationConfig hook, long alertId, JsonObject body) {
    Buffer payload = body.toBuffer();
    String proxied = hook.proxy() == null ? "" : " (through proxy " + hook.proxy() + ")";
    return out.request(hook, HttpMethod.POST, hook.webhook().url())
        .compose(request -> {
          request.timeout(timeoutMs).putHeader("Content-Type", "application/json")
              .putHeader(ALERT_ID_HEADER, String.valueOf(alertId))
              .putHeader(WebhookApi.SIGNATURE_HEADER, "sha256=" + Sha256.hmacHex(hook.accessToken(),
                  payload.getBytes()));
          hook.webhook().headers().forEach(request::putHeader);
          return request.sendBuffer(payload);
        })
        .map(response -> {
          int status = response.statusCode();
          if (status >= 200 && status < 300) {
            return Result.SENT;
          }
          String error = "webhook HTTP " + status + (status / 100 == 3 ? " (redirects are not followed)" : "");
          return status == 408 || status == 429 || status >= 500
              ? Result.retry(error, RetryAfter.millis(response.getHeader("Retry-After"))) : Result.drop(error);
        })
        .recover(failure -> Future.succeededFuture(failure instanceof Outbound.Refused refused
            ? Result.drop(refused.getMessage())
            // The client's own message may quote the URL, whose query can hold a credential.
            : Result.retry("webhook request failed: " + (failure instanceof TimeoutException
                ? "no answer within the request timeout" : failure.getClass().getSimpleName()) + proxied, 0)));
  }
}
