package dev.eventrouter.api.sessions;

import dev.eventrouter.common.RandomToken;
import dev.eventrouter.event.ClickIds;
import dev.eventrouter.event.ClickSession;
import dev.eventrouter.event.InviteSession;
import dev.eventrouter.http.Fields;
import io.vertx.core.json.JsonObject;

import java.time.Duration;
import java.time.Instant;
import java.util.Locale;
import java.util.Set;
import java.util.UUID;
import java.util.regex.Pattern;

/** The field rules of {@code POST /api/v1/sessions} and {@code POST /api/v1/sessions/invites}. */
public final class SessionValidator {

  private static final Set<String> CLICK_FIELDS = Set.of("workspace_id", "session_id", "fbclid", "fbc", "fbp",
      "ttclid", "ttp", "gclid", "gbraid", "wbraid", "sccid", "ScCid", "scid", "client_ip", "user_agent", "landing_url",
      "clicked_at", "bot", "channel", "country");
  private static final Set<String> INVITE_FIELDS = Set.of("workspace_id", "telegram_id", "session_id", "invite_link");

  static final Pattern FBCLID = Pattern.compile(Fields.TOKEN + "{1,500}");
  // fb.<subdomain index>.<creation time ms>.<fbclid or random>, as Meta documents _fbc and _fbp.
  private static final Pattern FBC = Pattern.compile("fb\\.[0-9]{1,2}\\.[0-9]{1,16}\\." + Fields.TOKEN + "{1,500}");
  private static final Pattern FBP = Pattern.compile("fb\\.[0-9]{1,2}\\.[0-9]{1,16}\\." + Fields.TOKEN + "{1,100}");
  static final Pattern TTCLID = Pattern.compile(Fields.TOKEN + "{1,500}");
  private static final Pattern TTP = Pattern.compile(Fields.TOKEN + "{1,200}");
  /** Google's and Snapchat's click ids, bounded as TikTok's: real ones are 20 to 200 characters. */
  static final Pattern CLICK_ID = Pattern.compile(Fields.TOKEN + "{1,500}");
  /** The _scid cookie, a UUID today, bounded as TikTok's _ttp. */
  private static final Pattern SCID = TTP;
  private static final String CLICK_ID_RULE = "must be 1 to 500 printable characters without spaces";
  // A capture can come from anyone's browser (a publishable key): what it may store is kept to about what real
  // browsers send, so one capture stores a few KB at most. Browsers' user agents are 100 to 300 characters.
  static final Pattern USER_AGENT = Pattern.compile("[ -~]{1,512}");
  static final int MAX_LANDING_URL = 1024;
  private static final int MAX_URL = 2048;
  /** A bot's username (https://core.telegram.org/bots/features#botfather: 5 to 32 characters). */
  static final Pattern BOT = Pattern.compile("@?[A-Za-z0-9_]{5,32}");
  /** A channel's @username or numeric id (a channel's is -100 followed by digits). */
  static final Pattern CHANNEL = Pattern.compile("@[A-Za-z0-9_]{5,32}|-?[0-9]{1,20}");
  private static final Set<String> COUNTRIES = Set.of(Locale.getISOCountries());
  private static final Instant EARLIEST_CLICK = Instant.parse("2000-01-01T00:00:00Z");
  private static final Duration CLOCK_SKEW = Duration.ofMinutes(10);


  private SessionValidator() {}

  public static ClickSession click(JsonObject body, Instant now) {
    Fields fields = new Fields(body, CLICK_FIELDS);
    UUID workspaceId = fields.workspaceId();
    String sessionId = fields.sessionId(false);
    String fbclid = fields.optional("fbclid", FBCLID, "must be 1 to 500 printable characters without spaces");
    String fbc = fields.optional("fbc", FBC, "must look like fb.1.<creation time ms>.<fbclid>");
    String fbp = fields.optional("fbp", FBP, "must look like fb.1.<creation time ms>.<random number>");
    String ttclid = fields.optional("ttclid", TTCLID, "must be 1 to 500 printable characters without spaces");
    String ttp = fields.optional("ttp", TTP, "must be 1 to 200 printable characters without spaces");
    ClickIds ids = ids(fields);
    String clientIp = fields.ipAddress("client_ip");
    String userAgent = fields.optional("user_agent", USER_AGENT, "must be 1 to 512 printable characters");
    String landingUrl = fields.url("landing_url", MAX_LANDING_URL);
    Instant clickedAt = fields.instant("clicked_at", EARLIEST_CLICK, now.plus(CLOCK_SKEW));
    ClickSession.Origin origin = new ClickSession.Origin(null, bot(fields),
        fields.optional("channel", CHANNEL, "must be the channel's @username or its numeric id"), country(fields));
    fields.throwIfInvalid();
    return new ClickSession(workspaceId, sessionId == null ? newSessionId() : sessionId, fbclid, fbc, fbp, ttclid,
        ttp, clientIp, userAgent, landingUrl, clickedAt == null ? now : clickedAt, null, origin, ids);
  }

  /** Google's and Snapchat's ids; Snapchat's click id as {@code sccid}, else as its URL parameter's {@code ScCid}. */
  private static ClickIds ids(Fields fields) {
    String sccid = fields.optional("sccid", CLICK_ID, CLICK_ID_RULE);
    String scCid = fields.optional("ScCid", CLICK_ID, CLICK_ID_RULE);
    return new ClickIds(fields.optional("gclid", CLICK_ID, CLICK_ID_RULE),
        fields.optional("gbraid", CLICK_ID, CLICK_ID_RULE), fields.optional("wbraid", CLICK_ID, CLICK_ID_RULE),
        sccid != null ? sccid : scCid,
        fields.optional("scid", SCID, "must be 1 to 200 printable characters without spaces"));
  }

  public static InviteSession invite(JsonObject body) {
    Fields fields = new Fields(body, INVITE_FIELDS);
    UUID workspaceId = fields.workspaceId();
    long telegramId = fields.telegramId();
    String sessionId = fields.sessionId(true);
    String inviteLink = fields.url("invite_link", MAX_URL);
    fields.throwIfInvalid();
    return new InviteSession(workspaceId, telegramId, sessionId, inviteLink);
  }

  /** The bot's username, without its @: the same bot however it is written. */
  static String bot(Fields fields) {
    String bot = fields.optional("bot", BOT, "must be the bot's username, 5 to 32 letters, digits or _");
    return bot == null ? null : bot.startsWith("@") ? bot.substring(1) : bot;
  }

  /** An ISO 3166-1 alpha-2 code, upper case. */
  private static String country(Fields fields) {
    Object value = fields.raw("country");
    String code = value instanceof String text ? text.toUpperCase(Locale.ROOT) : null;
    if (value != null && (code == null || !COUNTRIES.contains(code))) {
      fields.error("country", "must be an ISO 3166-1 alpha-2 country code such as DE");
      return null;
    }
    return code;
  }

  /** 128 random bits, base64url without padding: 22 characters of the Telegram start alphabet, unguessable. */
  public static String newSessionId() {
    return RandomToken.of(16);
  }
}
