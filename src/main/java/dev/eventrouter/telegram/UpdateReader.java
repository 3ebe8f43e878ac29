package dev.eventrouter.telegram;

import dev.eventrouter.event.InviteSession;
import dev.eventrouter.http.Fields;
import dev.eventrouter.http.JsonBody;
import io.vertx.core.json.JsonObject;

import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What a Telegram update (https://core.telegram.org/bots/api#update) means for the receiver, read from its JSON alone:
 * a {@code /start} or a join turned into an attribution, whether a join is to the bot's channels, a member who left,
 * a join request to approve. A field of the wrong kind reads as nothing, never as an error: Telegram would send the
 * update again.
 */
final class UpdateReader {

  /** The name prefix of an invite link that carries a session (link names are at most 32 characters). */
  static final String SESSION_LINK_PREFIX = "er:";
  static final String JOIN_EVENT = "JoinRequest";
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

  private UpdateReader() {}

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
  static Long wholeNumber(Object value) {
    return value instanceof Number n && n.doubleValue() == n.longValue() ? n.longValue() : null;
  }
}
