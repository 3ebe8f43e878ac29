package dev.eventrouter.config;

import dev.eventrouter.common.ProxyConfig;
import dev.eventrouter.common.UrlHost;

import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * One of a workspace's Telegram bots: what its webhook receiver, its per-visitor invite links and its pass-through
 * need. A workspace may run several (bots get banned and replaced; a channel per offer or GEO): each has its own
 * webhook address, secret and token.
 *
 * @param name                the bot's username without '@' ({@code t.me/<name>}), its name in webhook paths and in
 *                            the sessions it brings; null only for a workspace's single bot that was given none
 * @param webhookSecret       the secret Telegram sends in X-Telegram-Bot-Api-Secret-Token (set with setWebhook's
 *                            secret_token, https://core.telegram.org/bots/api#setwebhook); from {@code ${ENV}}
 * @param startEvent          the event a {@code /start <session_id>} records, or null for none (the session alone)
 * @param botToken            the bot's Bot API token, from {@code ${ENV}}; null when the bot is never called
 * @param channels            the channels the bot administers and makes invite links for (numeric ids or
 *                            {@code @username}s), the first the default; empty for no per-visitor invite links
 * @param inviteLinkPool      how many unused invite links are kept made ahead, so a capture never waits on Telegram
 * @param approveJoinRequests whether a join request through one of the links is approved by the bot
 * @param apiBase             the Bot API's address (https://api.telegram.org; a local Bot API server or a test's fake
 *                            elsewhere)
 * @param passThrough         where every update goes on to, or null when the bot has no backend of its own
 * @param proxy               the proxy the bot's Bot API calls go through, or null
 */
public record TelegramConfig(String name, String webhookSecret, String startEvent, String botToken,
                             List<String> channels,
                             int inviteLinkPool, boolean approveJoinRequests, String apiBase,
                             PassThrough passThrough, ProxyConfig proxy) {

  /**
   * The header a webhook's secret comes in: Telegram's to the receiver, and the pass-through's to the bot's backend
   * (https://core.telegram.org/bots/api#setwebhook).
   */
  public static final String SECRET_HEADER = "X-Telegram-Bot-Api-Secret-Token";
  public static final String DEFAULT_API_BASE = "https://api.telegram.org";
  public static final int DEFAULT_INVITE_LINK_POOL = 5;
  /** How an api_base names this host, for a local Bot API server (https://github.com/tdlib/telegram-bot-api). */
  private static final Set<String> LOCAL_HOSTS = Set.of("localhost", "127.0.0.1", "[::1]");

  /**
   * The advertiser's own bot backend, which Telegram would otherwise call: every update goes there unchanged.
   *
   * @param url                 the backend's webhook URL
   * @param secretToken         sent as X-Telegram-Bot-Api-Secret-Token in place of the receiver's own, or null for
   *                            none
   * @param allowPrivateNetwork whether the backend may be at a loopback, link-local or private address; false:
   *                            public addresses only
   */
  public record PassThrough(String url, String secretToken, boolean allowPrivateNetwork) {
    @Override
    public String toString() {
      return "PassThrough[" + url + "]";
    }
  }

  public TelegramConfig {
    channels = List.copyOf(channels);
  }

  /** The receiver alone: no bot calls, no pass-through. */
  public static TelegramConfig receiverOnly(String name, String webhookSecret, String startEvent) {
    return new TelegramConfig(name, webhookSecret, startEvent, null, List.of(), DEFAULT_INVITE_LINK_POOL, false,
        DEFAULT_API_BASE, null, null);
  }

  /** A bot that only sends (the alerts' own): its token, where the Bot API is, and its proxy. */
  public static TelegramConfig sender(String botToken, String apiBase, ProxyConfig proxy) {
    return new TelegramConfig(null, null, null, botToken, List.of(), DEFAULT_INVITE_LINK_POOL, false, apiBase, null,
        proxy);
  }

  /** The bot's first channel, where a capture that names none gets its invite link; null when it has none. */
  public String channelId() {
    return channels.isEmpty() ? null : channels.get(0);
  }

  /**
   * The free links a visitor's capture may not take: a fifth of the pool, rounded down (none in a pool of fewer than
   * five). Below it, visitors get the bot's start link, and the rest is kept for the bot's own captures while
   * Telegram's limits refill the pool.
   */
  public int anonymousReserve() {
    return inviteLinkPool / 5;
  }

  /**
   * Whether the api_base names this host as written (localhost, 127.0.0.1 or [::1]): a local Bot API server the
   * operator chose, called as it is. The Bot API at any other host is called at a public address only.
   */
  public boolean localApi() {
    return local(apiBase);
  }

  static boolean local(String apiBase) {
    return LOCAL_HOSTS.contains(UrlHost.parse(apiBase).host().toLowerCase(Locale.ROOT)); // a checked api_base
  }

  /** Whether captures get an invite link of their own (the config refuses a channel without a bot token). */
  public boolean makesInviteLinks() {
    return !channels.isEmpty();
  }

  /** Never print the secret or the token. */
  @Override
  public String toString() {
    return "TelegramConfig[bot=" + name + " start_event=" + startEvent + " channels=" + channels + "]";
  }
}
