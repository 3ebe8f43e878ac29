package dev.eventrouter.support;

import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.handler.BodyHandler;

import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A real HTTP server standing in for the Telegram Bot API (https://core.telegram.org/bots/api#making-requests):
 * {@code POST /bot<token>/<method>} with a JSON body, answered {@code {"ok": true, "result"}} or, for a wrong token,
 * {@code 401 {"ok": false, "error_code": 401, "description": "Unauthorized"}}. It knows createChatInviteLink (a new
 * {@code https://t.me/+...} link each call), approveChatJoinRequest, sendMessage and setWebhook; a test can queue error replies per
 * method (429 with retry_after, 400, 403). It also stands in for an advertiser's bot backend at {@code /backend},
 * recording each update passed through and answering with the queued statuses (200 when none).
 */
public final class FakeTelegram {

  public static final String TOKEN = "123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw";
  /** A second bot's: a workspace may run several. */
  public static final String TOKEN_2 = "987654321:BBxyzTcvCH1vGWJxfSeofSAs0K5PALDsbw";

  /** One Bot API call as received, with the token it came with. */
  public record Call(String method, JsonObject body, String token) {}

  /** One update as the bot backend received it (its body, and that body parsed), with its secret header. */
  public record Passed(String raw, JsonObject update, String secretHeader) {}

  private final List<Call> calls = new CopyOnWriteArrayList<>();
  private final List<Passed> passed = new CopyOnWriteArrayList<>();
  private final Map<String, Queue<JsonObject>> errors = new ConcurrentHashMap<>();
  private final Queue<Integer> backendStatuses = new ConcurrentLinkedQueue<>();
  private final AtomicInteger links = new AtomicInteger();
  private volatile List<String> allowedUpdates;
  private HttpServer server;

  public static FakeTelegram start(Vertx vertx) {
    FakeTelegram fake = new FakeTelegram();
    Router router = Router.router(vertx);
    router.post("/:bot/:method").handler(BodyHandler.create(false)).handler(fake::method);
    router.post("/backend").handler(BodyHandler.create(false)).handler(fake::backend);
    fake.server = vertx.createHttpServer().requestHandler(router).listen(0, "127.0.0.1").await();
    return fake;
  }

  public void close() {
    server.close().await();
  }

  public String baseUrl() {
    return "http://127.0.0.1:" + server.actualPort();
  }

  public String backendUrl() {
    return baseUrl() + "/backend";
  }

  /** The next call of {@code method} is answered with this error, as Telegram words one. */
  public void failNext(String method, int code, String description, Integer retryAfter) {
    JsonObject error = new JsonObject().put("ok", false).put("error_code", code).put("description", description);
    if (retryAfter != null) {
      error.put("parameters", new JsonObject().put("retry_after", retryAfter));
    }
    errors.computeIfAbsent(method, m -> new ConcurrentLinkedQueue<>()).add(error);
  }

  /** The update types getWebhookInfo says the bot chose (null: it never chose). */
  public void webhookAllowedUpdates(List<String> types) {
    allowedUpdates = types;
  }

  /** Forgets the calls received and the errors queued. */
  public void reset() {
    calls.clear();
    errors.clear();
    passed.clear();
    backendStatuses.clear();
  }

  /** The bot backend's next answers. */
  public void backendAnswers(Integer... statuses) {
    backendStatuses.addAll(List.of(statuses));
  }

  /** The texts sent with sendMessage, in order. */
  public List<String> messages() {
    return calls("sendMessage").stream().map(call -> call.body().getString("text")).toList();
  }

  public List<Call> calls(String method) {
    return calls.stream().filter(call -> call.method().equals(method)).toList();
  }

  public List<Passed> passed() {
    return List.copyOf(passed);
  }

  private void method(RoutingContext rc) {
    String method = rc.pathParam("method");
    String token = rc.pathParam("bot").substring("bot".length());
    if (!token.equals(TOKEN) && !token.equals(TOKEN_2)) {
      reply(rc, new JsonObject().put("ok", false).put("error_code", 401).put("description", "Unauthorized"));
      return;
    }
    JsonObject body = rc.body().asJsonObject();
    calls.add(new Call(method, body, token));
    Queue<JsonObject> queued = errors.get(method);
    JsonObject error = queued == null ? null : queued.poll();
    if (error != null) {
      reply(rc, error);
      return;
    }
    switch (method) {
      case "createChatInviteLink" -> reply(rc, ok(new JsonObject()
          .put("invite_link", "https://t.me/+FakeLink" + links.incrementAndGet())
          .put("creator", new JsonObject().put("id", 123456789).put("is_bot", true).put("first_name", "Bot"))
          .put("creates_join_request", body.getBoolean("creates_join_request", false))
          .put("is_primary", false).put("is_revoked", false).put("name", body.getString("name"))
          .put("expire_date", body.getLong("expire_date"))));
      case "approveChatJoinRequest" -> reply(rc, ok(true));
      case "sendMessage" -> reply(rc, ok(new JsonObject().put("message_id", calls.size())
          .put("chat", new JsonObject().put("id", body.getValue("chat_id"))).put("text", body.getString("text"))));
      case "setWebhook" -> reply(rc, ok(true).put("description", "Webhook was set"));
      case "getWebhookInfo" -> {
        JsonObject info = new JsonObject().put("url", "https://bot.example/hook").put("has_custom_certificate", false)
            .put("pending_update_count", 0);
        reply(rc, ok(allowedUpdates == null ? info : info.put("allowed_updates", new JsonArray(allowedUpdates))));
      }
      default -> reply(rc, new JsonObject().put("ok", false).put("error_code", 404).put("description", "Not Found"));
    }
  }

  private void backend(RoutingContext rc) {
    passed.add(new Passed(rc.body().asString(), rc.body().asJsonObject(),
        rc.request().getHeader("X-Telegram-Bot-Api-Secret-Token")));
    Integer status = backendStatuses.poll();
    rc.response().setStatusCode(status == null ? 200 : status).end();
  }

  private static JsonObject ok(Object result) {
    return new JsonObject().put("ok", true).put("result", result);
  }

  private static void reply(RoutingContext rc, JsonObject body) {
    int status = body.getBoolean("ok") ? 200 : body.getInteger("error_code");
    rc.response().setStatusCode(status).putHeader("Content-Type", "application/json").end(body.encode());
  }
}
