package dev.eventrouter.config;

import io.vertx.core.json.JsonObject;

import java.util.List;
import java.util.Set;

/**
 * Where an ad network's events happened: Meta's {@code action_source}, TikTok's {@code event_source} or Snapchat's
 * {@code action_source}, and the page URL sent for an event whose session has no landing page where the network
 * requires one.
 */
final class SourceParser {

  /**
   * The values Meta documents for action_source
   * (https://developers.facebook.com/docs/marketing-api/conversions-api/parameters/server-event#action-source),
   * less {@code app}: Meta requires {@code app_data} on app events, with the device's {@code extinfo} (its OS
   * version among it) and the person's ad-tracking permissions
   * (https://developers.facebook.com/docs/marketing-api/conversions-api/parameters/app-data), and a conversion made in
   * a Telegram bot or reported by a partner carries none of these: any we sent would be made up.
   */
  static final List<String> META_ACTION_SOURCES = List.of("business_messaging", "chat", "email", "other",
      "phone_call", "physical_store", "system_generated", "website");
  /** TikTok's event_source, as its integrations send it (e.g. RudderStack's tiktok_ads destination). */
  static final List<String> TIKTOK_EVENT_SOURCES = List.of("app", "crm", "offline", "web");
  /**
   * Snapchat's action_source (https://developers.snap.com/api/marketing-api/Conversions-API/Parameters), less
   * {@code MOBILE_APP}, which needs the device's app_data, as Meta's {@code app} does.
   */
  static final List<String> SNAPCHAT_ACTION_SOURCES = List.of("WEB", "OFFLINE");
  private static final Set<String> NEED_A_PAGE = Set.of("website", "web", "WEB");

  private final JsonReader r;

  SourceParser(JsonReader reader) {
    this.r = reader;
  }

  /**
   * The integration's action_source (Meta, default chat; Snapchat, default WEB: its clicks come from a web page) or
   * event_source (TikTok, default web).
   */
  String source(JsonObject json, String path, Network network) {
    boolean meta = network == Network.META;
    String key = network == Network.TIKTOK ? "event_source" : "action_source";
    String at = path + "." + key;
    String source = r.string(json, key, at, switch (network) {
      case META -> "chat";
      case SNAPCHAT -> "WEB";
      default -> "web";
    });
    List<String> allowed = switch (network) {
      case META -> META_ACTION_SOURCES;
      case SNAPCHAT -> SNAPCHAT_ACTION_SOURCES;
      default -> TIKTOK_EVENT_SOURCES;
    };
    if (meta && "app".equals(source)) {
      // Accepted before: a config that has it now says exactly what to change.
      r.problem(at + ": \"app\" is not supported: Meta requires app_data (the device's extinfo and the person's "
          + "tracking permissions) on app events, and these events have none; set it to one of "
          + String.join(", ", allowed) + " (\"chat\", the default, for conversions made in a Telegram bot)");
    } else if (!allowed.contains(source)) {
      r.problem(at + ": must be one of " + String.join(", ", allowed));
    }
    return source;
  }

  /**
   * The page sent when an event's session has no landing page (a Telegram-only event, an invite session): the
   * integration's {@code page_url}, else the bot's {@code https://t.me/<bot_name>}. Meta requires
   * {@code event_source_url} on website events
   * (https://developers.facebook.com/docs/marketing-api/conversions-api/parameters/server-event#event-source-url) and
   * TikTok {@code page.url} on web events (RudderStack's mapping marks it required:
   * https://github.com/rudderlabs/rudder-transformer/blob/develop/src/v0/destinations/tiktok_ads/data/TikTokTrackV2.json)
   * and Snapchat {@code event_source_url} on WEB events
   * (https://developers.snap.com/api/marketing-api/Conversions-API/Parameters); such an integration with neither is
   * refused here rather than having such events refused later.
   */
  String pageUrl(JsonObject json, String path, String source, String botName) {
    String pageUrl = r.string(json, "page_url", path + ".page_url", null);
    if (pageUrl != null && !pageUrl.matches("https?://[^/?#\\s]+([/?#]\\S*)?")) {
      r.problem(path + ".page_url: must be an absolute http(s) URL");
    }
    if (pageUrl == null && botName != null) {
      pageUrl = "https://t.me/" + botName;
    }
    if (pageUrl == null && NEED_A_PAGE.contains(source)) {
      r.problem(path + ".page_url: required for a " + source + " integration when the workspace has no bot_name ("
          + switch (source) {
            case "website" -> "Meta requires event_source_url on website events";
            case "WEB" -> "Snapchat requires event_source_url on WEB events";
            default -> "TikTok needs page.url on web events";
          } + "; events without a landing page would have none)");
    }
    return pageUrl;
  }
}
