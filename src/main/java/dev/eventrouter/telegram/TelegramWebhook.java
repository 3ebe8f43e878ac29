package dev.eventrouter.telegram;

import dev.eventrouter.api.events.EventValidator;
import dev.eventrouter.api.events.EventsApi;
import dev.eventrouter.bus.Addresses;
import dev.eventrouter.bus.IngestReply;
import dev.eventrouter.bus.TelegramUpdate;
import dev.eventrouter.common.Sha256;
import dev.eventrouter.config.TelegramConfig;
import dev.eventrouter.config.WorkspaceConfig;
import dev.eventrouter.event.ConversionEvent;
import dev.eventrouter.event.InviteSession;
import dev.eventrouter.http.AccessControl;
import dev.eventrouter.http.ApiException.FieldError;
import dev.eventrouter.http.ApiException;
import dev.eventrouter.http.ErrorCode;
import dev.eventrouter.http.JsonBody;
import dev.eventrouter.http.Responses;
import dev.eventrouter.http.StoreClient;
import dev.eventrouter.telegram.UpdateReader.Attribution;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;

import java.time.Instant;
import java.util.List;
import java.util.UUID;

/**
 * {@code POST /telegram/{workspace_id}/webhook} (the workspace's default bot, its first) and
 * {@code POST /telegram/{workspace_id}/webhook/{bot_name}} (any of its bots): the updates of a workspace's bot, sent
 * by Telegram
 * (https://core.telegram.org/bots/api#update), read for what attribution needs ({@link UpdateReader}), so the bot
 * needs no code of its own:
 * <ul>
 *   <li>a {@code message} {@code /start <session_id>} (the deep link {@code t.me/<bot>?start=<session_id>}): the
 *   session becomes the user's invite session, and the workspace's {@code start_event}, when it names one, is
 *   recorded with it;</li>
 *   <li>a {@code chat_join_request}, or a {@code chat_member} update of a user joining through a link that needs no
 *   approval (through one that does, the request was recorded already), through an invite link made
 *   for a captured session (the pool's links, bound in the store) or whose name carries one ({@code er:<session_id>}):
 *   that session becomes the user's invite session, and a {@code JoinRequest} event is recorded with it; the
 *   workspace may have the request approved. Only a join to one of the bot's channels, when it has some: a join to
 *   any other chat of the bot is neither attributed nor approved.</li>
 * </ul>
 * Every other update is acknowledged and ignored. Every update, whatever it holds, is queued for the bot's own
 * backend when the bot passes updates through, before it is answered. An update's event is stored under the
 * Idempotency-Key {@code telegram-update-<update_id>} (the default bot's) or {@code telegram-update-<bot>-<update_id>}
 * (update ids are counted per bot), so an update Telegram sends again (after a failed answer) is recorded once; the
 * invite session is an upsert. The invite session records the bot and the channel; a later event of the user is
 * linked to it whichever of the workspace's bots it came through. Authenticated by the secret Telegram sends in
 * {@code X-Telegram-Bot-Api-Secret-Token}; nothing an update holds is logged.
 */
public final class TelegramWebhook {

  static final String SECRET_HEADER = TelegramConfig.SECRET_HEADER;
  /**
   * The body limit of this route when http.max_body_bytes is smaller: an update refused for its size would be sent
   * again and again, and never reach the bot's backend (a message of 4,096 characters quoting another, with its
   * entities, passes 64 KiB in the worst case).
   */
  public static final int MAX_UPDATE_BYTES = 1024 * 1024;
  private static final String WORKSPACE = "telegram_workspace";
  private static final String BOT = "telegram_bot";

  private final AccessControl access;
  private final StoreClient store;

  public TelegramWebhook(AccessControl access, StoreClient store) {
    this.access = access;
    this.store = store;
  }

  /** From the path and the headers alone, before any byte of the body is read. */
  public void authenticate(RoutingContext rc) {
    WorkspaceConfig workspace = workspace(rc.pathParam("workspace_id"));
    TelegramConfig bot = workspace == null ? null : workspace.bot(rc.pathParam("bot_name"));
    if (bot == null) {
      rc.fail(new ApiException(ErrorCode.NOT_FOUND, "No workspace here takes Telegram updates at this address.",
          null, null));
    } else if (!Sha256.sameSecret(bot.webhookSecret(), rc.request().getHeader(SECRET_HEADER))) {
      rc.fail(new ApiException(ErrorCode.UNAUTHORIZED, "Missing or wrong " + SECRET_HEADER + ".", null, null));
    } else {
      rc.put(WORKSPACE, workspace);
      rc.put(BOT, bot);
      rc.next();
    }
  }

  public void handle(RoutingContext rc) {
    Instant receivedAt = Instant.now();
    WorkspaceConfig workspace = rc.get(WORKSPACE);
    // A user's message may hold U+0000 or a lone surrogate (as JSON escapes): the update is still acknowledged and
    // passed through as it came (its text, escapes and all, is storable), and nothing is read from such a field.
    JsonObject update = JsonBody.parseAnyText(rc.body().buffer());
    Long id = UpdateReader.wholeNumber(update.getValue("update_id"));
    if (id == null || id < 0) {
      throw ApiException.validation(List.of(new FieldError("update_id", "required, a whole number")));
    }
    TelegramConfig telegram = rc.get(BOT);
    String botKey = workspace.botKey(telegram);
    // A join to a chat other than the bot's channels (a bot may administer others) is neither attributed nor
    // approved: it is still passed through, for the bot's own backend.
    boolean ours = UpdateReader.ofChannel(update, telegram.channels());
    Attribution found = ours ? UpdateReader.attribution(update, telegram.startEvent()) : null;
    TelegramUpdate queued = new TelegramUpdate(workspace.id(), botKey, id,
        telegram.passThrough() == null ? null : rc.body().asString(), found == null ? null : found.inviteLink(),
        found == null ? null : found.sessionId(),
        ours && telegram.approveJoinRequests() ? UpdateReader.approval(update) : null);
    // A subscriber who left the channel: their JoinRequest conversion, if recent, becomes rejected.
    Long leaver = ours ? UpdateReader.leaver(update, telegram.channels()) : null;
    Future<JsonObject> left = leaver == null ? Future.succeededFuture()
        : store.ask(Addresses.TELEGRAM_LEFT, new JsonObject().put("workspace_id", workspace.id().toString())
            .put("telegram_id", leaver), rc);
    // The store is asked first when the update leaves work (pass-through, approval) or names a link it may know.
    Future<String> session = left.compose(v -> queued.passThrough() == null && queued.inviteLink() == null
        ? Future.succeededFuture(found == null ? null : found.sessionId())
        : store.ask(Addresses.TELEGRAM_UPDATE, queued.toJson(), rc).map(reply -> reply.getString("session_id")));
    // A session comes only with an attribution: from the update itself, or from the store for its link.
    session.compose(sessionId -> sessionId == null
            ? Future.succeededFuture(new JsonObject().put("handled", false))
            : attribute(rc, workspace, telegram, found.withSession(sessionId), update,
                "telegram-update-" + (botKey.isEmpty() ? "" : botKey + "-") + id, receivedAt))
        .onSuccess(data -> Responses.ok(rc, data))
        .onFailure(rc::fail);
  }

  /** Stores the user's invite session, then the update's event if it has one. */
  private Future<JsonObject> attribute(RoutingContext rc, WorkspaceConfig workspace, TelegramConfig telegram,
                                       Attribution attribution, JsonObject update, String idempotencyKey,
                                       Instant receivedAt) {
    InviteSession invite = new InviteSession(workspace.id(), attribution.telegramId(), attribution.sessionId(),
        attribution.inviteLink(), attribution.via(), telegram.name(),
        InviteSession.START.equals(attribution.via()) ? null : UpdateReader.channel(update, telegram.channels()));
    return store.ask(Addresses.SESSIONS_INVITE, invite.toJson(), rc)
        .compose(stored -> attribution.eventName() == null ? Future.succeededFuture((String) null)
            : recordEvent(rc, workspace, attribution, idempotencyKey, receivedAt))
        .map(eventId -> new JsonObject().put("handled", true).put("session_id", attribution.sessionId())
            .put("telegram_id", attribution.telegramId()).put("event_id", eventId));
  }

  private WorkspaceConfig workspace(String id) {
    try {
      return access.workspace(UUID.fromString(id));
    } catch (IllegalArgumentException notAUuid) {
      return null;
    }
  }

  /** The event of an update, through the normal ingest path (validated and mapped as any other). */
  private Future<String> recordEvent(RoutingContext rc, WorkspaceConfig workspace, Attribution attribution,
                                     String idempotencyKey, Instant receivedAt) {
    ConversionEvent event = EventValidator.validate(new JsonObject().put("workspace_id", workspace.id().toString())
        .put("event_name", attribution.eventName()).put("telegram_id", attribution.telegramId())
        .put("session_id", attribution.sessionId()), workspace);
    return store.ingest(EventsApi.ingestRequest(store, event, receivedAt, idempotencyKey), rc)
        .map(IngestReply::eventId);
  }
}
