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
import dev.eventrouter.http.Fields;
import dev.eventrouter.http.JsonBody;
import dev.eventrouter.http.Responses;
import dev.eventrouter.http.StoreClient;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;

import java.time.Instant;
import java.util.List;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code POST /telegram/{workspace_id}/webhook} (the workspace's default bot, its first) and
 * {@code POST /telegram/{workspace_id}/webhook/{bot_name}} (any of its bots): the updates of a workspace's bot, sent
 * by Telegram
 * (https://core.telegram.org/bots/api#update), read for what attribution needs, so the bot needs no code of its own:
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

  public static final String SECRET_HEADER = TelegramConfig.SECRET_HEADER;
  /**
   * The body limit of this route when http.max_body_bytes is smaller: an update refused for its size would be sent
   * again and again, and never reach the bot's backend (a message of 4,096 characters quoting another, with its
   * entities, passes 64 KiB in the worst case).
   */
  public static final int MAX_UPDATE_BYTES = 1024 * 1024;
  /** The name prefix of an invite link that carries a session (link names are at most 32 characters). */
  static final String SESSION_LINK_PREFIX = "er:";
  static final String JOIN_EVENT = "JoinRequest";
  private static final String WORKSPACE = "telegram_workspace";
  private static final String BOT = "telegram_bot";
  // "/start <payload>", also "/start@<bot> <payload>"; the payload in Telegram's start alphabet
  // (https://core.telegram.org/bots/features#deep-linking).
  private static final Pattern START = Pattern.compile("/start(?:@[A-Za-z0-9_]{1,64})?[ \\t]+("
      + Fields.SESSION_ID.pattern() + ")\\s*");
  private static final Pattern LINK_SESSION = Pattern.compile(Pattern.quote(SESSION_LINK_PREFIX)
      + "([A-Za-z0-9_-]{1,29})");

  /**
   * What an update means for attribution: who, through which session (for a join, the one its link's name carries,
   * or null when only the stored links can tell), and the event to record (or none).
   */
  record Attribution(long telegramId, String sessionId, String inviteLink, String eventName, String via) {
    Attribution withSession(String session) {
      return new Attribution(telegramId, session, inviteLink, eventName, via);
    }
  }

  private final AccessControl access;
  private final StoreClient store;

  public TelegramWebhook(AccessControl access, StoreClient store) {
    this.access = access;
    this.store = store;
  }

  /** From the path and the headers alone, before any byte of the body is read. */
  public void authenticate(RoutingContext rc) {
    WorkspaceConfig workspace = workspace(rc.pathParam("workspace_id"));
    String botName = rc.pathParam("bot_name");
    TelegramConfig bot = workspace == null ? null : workspace.bot(botName == null ? "" : botName);
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
    Long id = wholeNumber(update.getValue("update_id"));
    if (id == null || id < 0) {
      throw ApiException.validation(List.of(new FieldError("update_id", "required, a whole number")));
    }
    TelegramConfig telegram = rc.get(BOT);
    String botKey = workspace.botKey(telegram);
    // A join to a chat other than the bot's channels (a bot may administer others) is neither attributed nor
    // approved: it is still passed through, for the bot's own backend.
    boolean ours = ofChannel(update, telegram.channels());
    Attribution found = ours ? attribution(update, telegram.startEvent()) : null;
    TelegramUpdate queued = new TelegramUpdate(workspace.id(), botKey, id,
        telegram.passThrough() == null ? null : rc.body().asString(), found == null ? null : found.inviteLink(),
        found == null ? null : found.sessionId(),
        ours && telegram.approveJoinRequests() ? approval(update) : null);
    // A subscriber who left the channel: their JoinRequest conversion, if recent, becomes rejected.
    Long leaver = ours ? leaver(update, telegram.channels()) : null;
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
        InviteSession.START.equals(attribution.via()) ? null : channel(update, telegram.channels()));
    return store.ask(Addresses.SESSIONS_INVITE, invite.toJson(), rc)
        .compose(stored -> attribution.eventName() == null ? Future.succeededFuture((String) null)
            : recordEvent(rc, workspace, attribution, idempotencyKey, receivedAt))
        .map(eventId -> new JsonObject().put("handled", true).put("session_id", attribution.sessionId())
            .put("telegram_id", attribution.telegramId()).put("event_id", eventId));
  }

  /**
   * Whether an update is the bot's to attribute: any update but a join ({@code chat_join_request},
   * {@code chat_member}), and a join to one of the bot's channels, or to any chat when it has none configured.
   */
  static boolean ofChannel(JsonObject update, List<String> channels) {
    return channels.isEmpty() || join(update) == null || channel(update, channels) != null;
  }

  /**
   * The configured channel a join update is to, as configured, or null: its chat's id is the configured one, or, for
   * an {@code @username}, its chat's username (case-insensitive, as Telegram's usernames are,
   * https://core.telegram.org/api/username).
   */
  static String channel(JsonObject update, List<String> channels) {
    if (!(join(update) instanceof JsonObject change && change.getValue("chat") instanceof JsonObject chat)) {
      return null;
    }
    // A missing or odd id is "null", which no channel id is.
    String id = String.valueOf(wholeNumber(chat.getValue("id")));
    String username = chat.getValue("username") instanceof String name ? "@" + name : null;
    return channels.stream().filter(channel -> channel.startsWith("@") ? channel.equalsIgnoreCase(username)
        : channel.equals(id)).findFirst().orElse(null);
  }

  private static Object join(JsonObject update) {
    return update.getValue("chat_join_request") instanceof JsonObject request ? request
        : update.getValue("chat_member");
  }

  /**
   * The user of a {@code chat_member} update in which a member of the bot's channel left or was removed
   * ({@code left}, {@code kicked}: https://core.telegram.org/bots/api#chatmember), or null. Only with configured
   * channels: without them, which chat a join counted for is not known.
   */
  static Long leaver(JsonObject update, List<String> channels) {
    if (channels.isEmpty() || !(update.getValue("chat_member") instanceof JsonObject change)
        || !(change.getValue("old_chat_member") instanceof JsonObject old)
        || !(change.getValue("new_chat_member") instanceof JsonObject now)) {
      return null;
    }
    boolean wasMember = List.of("member", "restricted").contains(String.valueOf(old.getValue("status")));
    boolean gone = List.of("left", "kicked").contains(String.valueOf(now.getValue("status")));
    return wasMember && gone ? userId(now.getValue("user")) : null;
  }

  /** The chat and user of a join request, for approveChatJoinRequest; null for any other update. */
  static JsonObject approval(JsonObject update) {
    if (update.getValue("chat_join_request") instanceof JsonObject request
        && request.getValue("chat") instanceof JsonObject chat && chat.getValue("id") instanceof Number chatId) {
      Long user = userId(request.getValue("from"));
      return user == null ? null : new JsonObject().put("chat_id", chatId.longValue()).put("user_id", user);
    }
    return null;
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

  /** What the update means for attribution, or null when nothing. */
  static Attribution attribution(JsonObject update, String startEvent) {
    if (update.getValue("message") instanceof JsonObject message
        && message.getValue("text") instanceof String text) {
      Matcher start = START.matcher(text);
      Long user = userId(message.getValue("from"));
      return start.matches() && user != null
          ? new Attribution(user, start.group(1), null, startEvent, InviteSession.START) : null;
    }
    if (update.getValue("chat_join_request") instanceof JsonObject request) {
      return joined(userId(request.getValue("from")), request.getValue("invite_link"), JOIN_EVENT,
          InviteSession.JOIN_REQUEST);
    }
    if (update.getValue("chat_member") instanceof JsonObject change
        && change.getValue("new_chat_member") instanceof JsonObject member
        && "member".equals(member.getValue("status"))
        && !(change.getValue("old_chat_member") instanceof JsonObject old && "member".equals(old.getValue("status")))) {
      // Through a join-request link, the request was the conversion (recorded then): its approval is the join step
      // of the funnel alone.
      boolean approved = change.getValue("invite_link") instanceof JsonObject link
          && Boolean.TRUE.equals(link.getValue("creates_join_request"));
      return joined(userId(member.getValue("user")), change.getValue("invite_link"), approved ? null : JOIN_EVENT,
          InviteSession.JOIN);
    }
    return null;
  }

  /** A join through a link: a session when its name carries one, its URL for the stored links to tell. */
  private static Attribution joined(Long user, Object link, String eventName, String via) {
    if (user == null || !(link instanceof JsonObject invite)) {
      return null;
    }
    Matcher named = invite.getValue("name") instanceof String name ? LINK_SESSION.matcher(name) : null;
    String session = named != null && named.matches() ? named.group(1) : null;
    // Looked up in the store: a URL PostgreSQL cannot hold is no link of ours.
    String url = invite.getValue("invite_link") instanceof String u && JsonBody.storable(u) ? u : null;
    // Neither a session nor a URL: the store is asked nothing, and no session means nothing attributed.
    return new Attribution(user, session, url, eventName, via);
  }

  /** A Telegram user's id (a positive whole number), or null. */
  private static Long userId(Object user) {
    Long id = user instanceof JsonObject u ? wholeNumber(u.getValue("id")) : null;
    return id != null && id > 0 ? id : null;
  }

  /** A JSON number without a fraction, or null. */
  private static Long wholeNumber(Object value) {
    return value instanceof Number n && n.doubleValue() == n.longValue() ? n.longValue() : null;
  }
}
