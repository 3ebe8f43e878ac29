package dev.eventrouter.telegram;

import dev.eventrouter.common.CheckedRequests;
import dev.eventrouter.config.TelegramConfig;
import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;

import java.time.Instant;
import java.util.List;
import java.util.concurrent.TimeoutException;

/**
 * The few Bot API methods the connector calls (https://core.telegram.org/bots/api#making-requests): a JSON POST to
 * {@code <api_base>/bot<token>/<method>}, answered {@code {"ok": true, "result": ...}} or {@code {"ok": false,
 * "error_code", "description", "parameters": {"retry_after"}}}. The token is part of the URL, so no failure message
 * here quotes the URL or anything the HTTP client says about it. Each call goes out as {@link CheckedRequests}
 * make it: an {@code api_base} that names this host as written (a local Bot API server) is called as it is; any other
 * is resolved and called at its checked address, and refused when it resolves to a private one.
 */
public final class BotApi {

  /**
   * A refusal in Telegram's words, no answer, or a call the service would not make; {@code retryAfterSeconds} &gt; 0
   * on a 429.
   */
  public static final class Failure extends RuntimeException {
    private final int code;
    private final long retryAfterSeconds;
    private final boolean transientFailure;

    Failure(int code, String description, long retryAfterSeconds) {
      this(code, description, retryAfterSeconds, code == 0 || code == 429 || code >= 500);
    }

    private Failure(int code, String description, long retryAfterSeconds, boolean transientFailure) {
      super(description, null, false, false);
      this.code = code;
      this.retryAfterSeconds = retryAfterSeconds;
      this.transientFailure = transientFailure;
    }

    /** A call not made, as its api_base may not be called ({@link CheckedRequests.Refused}): final. */
    static Failure notSent(String description) {
      return new Failure(0, description, 0, false);
    }

    /** Telegram's error_code (an HTTP status), or 0 when Telegram did not answer. */
    public int code() {
      return code;
    }

    public long retryAfterSeconds() {
      return retryAfterSeconds;
    }

    /** Worth trying again: rate limited, Telegram's own trouble, or no answer. */
    public boolean transientFailure() {
      return transientFailure;
    }
  }

  private static final String REFUSAL = "the host of the bot's api_base resolves to a loopback, link-local or "
      + "private address; the Bot API is called at a public address, or at localhost, 127.0.0.1 or [::1] as written";

  private final CheckedRequests requests;
  private final long timeoutMs;

  /** @param requests how the calls go out (through a bot's proxy, when it has one) */
  public BotApi(CheckedRequests requests, long timeoutMs) {
    this.requests = requests;
    this.timeoutMs = timeoutMs;
  }

  /**
   * A join-request invite link of one of the bot's channels (https://core.telegram.org/bots/api#createchatinvitelink):
   * anyone may open it until it expires, and each join through it is a chat_join_request update naming it.
   */
  public Future<String> createInviteLink(TelegramConfig bot, String channel, String name, Instant expires) {
    return call(bot, "createChatInviteLink", new JsonObject().put("chat_id", chatId(channel))
        .put("name", name).put("expire_date", expires.getEpochSecond()).put("creates_join_request", true))
        .compose(result -> result instanceof JsonObject link && link.getValue("invite_link") instanceof String url
            ? Future.succeededFuture(url)
            : Future.failedFuture(new Failure(0, "createChatInviteLink answered no invite_link", 0)));
  }

  /** https://core.telegram.org/bots/api#approvechatjoinrequest */
  public Future<Void> approveJoinRequest(TelegramConfig bot, Object chatId, long userId) {
    return call(bot, "approveChatJoinRequest", new JsonObject().put("chat_id", chatId).put("user_id", userId))
        .mapEmpty();
  }

  /**
   * A plain-text message to a chat (https://core.telegram.org/bots/api#sendmessage): no parse_mode, so nothing in the
   * text is read as markup, and no link preview.
   */
  public Future<Void> sendMessage(TelegramConfig bot, String chatId, String text) {
    return call(bot, "sendMessage", new JsonObject().put("chat_id", chatId(chatId)).put("text", text)
        .put("link_preview_options", new JsonObject().put("is_disabled", true))).mapEmpty();
  }

  /**
   * Points the bot's updates at the receiver, with the secret Telegram will send back
   * (https://core.telegram.org/bots/api#setwebhook). Answers Telegram's description ("Webhook was set").
   */
  public Future<String> setWebhook(TelegramConfig bot, String url, List<String> allowedUpdates) {
    return call(bot, "setWebhook", new JsonObject().put("url", url).put("secret_token", bot.webhookSecret())
        .put("allowed_updates", new JsonArray(List.copyOf(allowedUpdates))))
        .map(result -> "webhook set");
  }

  /**
   * The update types the bot is subscribed to now, or null when it never chose (Telegram's default then)
   * (https://core.telegram.org/bots/api#getwebhookinfo).
   */
  public Future<List<String>> allowedUpdates(TelegramConfig bot) {
    return call(bot, "getWebhookInfo", new JsonObject()).map(result -> result instanceof JsonObject info
        && info.getValue("allowed_updates") instanceof JsonArray types
        ? types.stream().filter(String.class::isInstance).map(String.class::cast).toList() : null);
  }

  Future<Object> call(TelegramConfig bot, String method, JsonObject params) {
    return requests.request(HttpMethod.POST, bot.apiBase() + "/bot" + bot.botToken() + "/" + method,
            bot.localApi(), bot.proxy(), REFUSAL)
        .compose(request -> request.timeout(timeoutMs).sendJsonObject(params))
        .transform(done -> done.succeeded() ? answer(method, done.result())
            : Future.failedFuture(done.cause() instanceof CheckedRequests.Refused refused
                ? Failure.notSent(method + ": " + refused.getMessage())
                : new Failure(0, noAnswer(method, done.cause())
                    + (bot.proxy() == null ? "" : " through proxy " + bot.proxy()), 0)));
  }

  /** A request without an answer, told without the HTTP client's own message (it may quote the URL). */
  static String noAnswer(String what, Throwable cause) {
    return what + ": no answer (" + (cause instanceof TimeoutException ? "timed out"
        : cause.getClass().getSimpleName()) + ")";
  }

  private static Future<Object> answer(String method, HttpResponse<Buffer> response) {
    JsonObject body;
    try {
      body = response.body() == null ? null : new JsonObject(response.body());
    } catch (DecodeException | ClassCastException notJson) {
      body = null;
    }
    if (body != null && Boolean.TRUE.equals(body.getValue("ok"))) {
      return Future.succeededFuture(body.getValue("result"));
    }
    int code = body != null && body.getValue("error_code") instanceof Number n ? n.intValue() : response.statusCode();
    String description = body != null && body.getValue("description") instanceof String d ? d
        : "HTTP " + response.statusCode();
    long retryAfter = body != null && body.getValue("parameters") instanceof JsonObject p
        && p.getValue("retry_after") instanceof Number n ? n.longValue() : 0;
    return Future.failedFuture(new Failure(code, method + ": " + code + " " + description, retryAfter));
  }

  /** A numeric chat id goes as a number, a {@code @username} as a string: Telegram takes either. */
  static Object chatId(String channelId) {
    return channelId.startsWith("@") ? channelId : Long.valueOf(channelId);
  }
}
