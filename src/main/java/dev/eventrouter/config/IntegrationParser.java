package dev.eventrouter.config;

import io.vertx.core.json.JsonObject;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/** One entry of a workspace's {@code integrations}: the keys and values each network accepts. */
final class IntegrationParser {

  private static final Set<String> COMMON_INTEGRATION_KEYS = Set.of("id", "type", "access_token", "api_base",
      "test_event_code", "enabled", "dry_run", "events", "limited_data_use");
  private static final Set<String> META_KEYS = union(COMMON_INTEGRATION_KEYS, "pixel_id", "api_version",
      "action_source", "data_processing_options_country", "data_processing_options_state");
  private static final Set<String> TIKTOK_KEYS = union(COMMON_INTEGRATION_KEYS, "pixel_code", "event_source",
      "page_url");
  // The values each network documents: Meta's action_source
  // (https://developers.facebook.com/docs/marketing-api/conversions-api/parameters/server-event#action-source) and
  // TikTok's event_source (as its integrations send it, e.g. RudderStack's tiktok_ads destination).
  private static final Set<String> META_ACTION_SOURCES = Set.of("email", "website", "app", "phone_call", "chat",
      "physical_store", "system_generated", "business_messaging", "other");
  private static final Set<String> TIKTOK_EVENT_SOURCES = Set.of("web", "app", "offline", "crm");
  private static final Pattern INTEGRATION_ID = Pattern.compile("[A-Za-z0-9_.-]{1,64}");

  private final JsonReader r;

  IntegrationParser(JsonReader reader) {
    this.r = reader;
  }

  IntegrationConfig integration(JsonObject json, String path, String botName) {
    String id = r.string(json, "id", path + ".id", null);
    if (id == null || !INTEGRATION_ID.matcher(id).matches()) {
      r.problem(path + ".id: required, 1 to 64 of A-Z a-z 0-9 _ . -");
    }
    String type = r.string(json, "type", path + ".type", null);
    Network network;
    if ("meta".equals(type)) {
      network = Network.META;
      r.unknownKeys(json, path, META_KEYS);
    } else if ("tiktok".equals(type)) {
      network = Network.TIKTOK;
      r.unknownKeys(json, path, TIKTOK_KEYS);
    } else {
      r.problem(path + ".type: required, \"meta\" or \"tiktok\"");
      return null;
    }
    boolean meta = network == Network.META;
    String pixelKey = meta ? "pixel_id" : "pixel_code";
    String pixel = r.string(json, pixelKey, path + "." + pixelKey, null);
    if (pixel == null || !(meta ? pixel.matches("[0-9]{1,30}") : pixel.matches("[A-Za-z0-9]{1,64}"))) {
      r.problem(path + "." + pixelKey + ": required, " + (meta ? "the numeric pixel (dataset) id"
          : "the TikTok pixel code"));
    }
    // The message never quotes the token, only where it is missing.
    String token = r.string(json, "access_token", path + ".access_token", null);
    if (token == null) {
      r.problem(path + ".access_token: required (use \"${ENV_NAME}\" to keep it out of the file)");
    }
    String apiBase = r.string(json, "api_base", path + ".api_base",
        meta ? "https://graph.facebook.com" : "https://business-api.tiktok.com");
    if (!apiBase.matches("https?://[^/?#\\s]+(/[^?#\\s]*)?")) {
      r.problem(path + ".api_base: must be an http(s) URL without query");
    }
    String apiVersion = meta ? r.string(json, "api_version", path + ".api_version", "v25.0") : null;
    if (apiVersion != null && !apiVersion.matches("v[0-9]{1,3}\\.[0-9]{1,3}")) {
      r.problem(path + ".api_version: must look like v25.0");
    }
    String sourceKey = meta ? "action_source" : "event_source";
    String source = r.string(json, sourceKey, path + "." + sourceKey, meta ? "chat" : "web");
    if (!(meta ? META_ACTION_SOURCES : TIKTOK_EVENT_SOURCES).contains(source)) {
      r.problem(path + "." + sourceKey + ": must be one of "
          + String.join(", ", (meta ? META_ACTION_SOURCES : TIKTOK_EVENT_SOURCES).stream().sorted().toList()));
    }
    String pageUrl = meta ? null : tiktokPageUrl(json, path, source, botName);
    return new IntegrationConfig(id, network, pixel, token, stripSlash(apiBase), apiVersion, source, pageUrl,
        r.string(json, "test_event_code", path + ".test_event_code", null),
        r.bool(json, "enabled", path + ".enabled", true),
        r.bool(json, "dry_run", path + ".dry_run", false),
        r.strings(json, "events", path + ".events", WorkspaceParser.EVENT_NAME,
            "an event name (1 to 50 letters, digits, _ - or spaces)"),
        dataProcessing(json, path));
  }

  /** Meta documents two values each: 0 (Meta geolocates), or 1 (US) and 1000 (California). */
  private DataProcessing dataProcessing(JsonObject json, String path) {
    boolean limited = r.bool(json, "limited_data_use", path + ".limited_data_use", false);
    long country = r.integer(json, "data_processing_options_country", path + ".data_processing_options_country",
        0, 0, 1);
    long state = r.integer(json, "data_processing_options_state", path + ".data_processing_options_state", 0, 0,
        1000);
    if (state != 0 && state != 1000) {
      r.problem(path + ".data_processing_options_state: must be 0 (geolocate) or 1000 (California)");
    }
    return new DataProcessing(limited, (int) country, (int) state);
  }

  /**
   * TikTok requires {@code page.url} on web events (Events API 2.0; RudderStack's mapping marks it required:
   * https://github.com/rudderlabs/rudder-transformer/blob/develop/src/v0/destinations/tiktok_ads/data/TikTokTrackV2.json),
   * and a Telegram-only event or an invite session has no landing page. The fallback is the integration's
   * {@code page_url}, else the bot's {@code https://t.me/<bot_name>}; a web integration with neither is refused here
   * rather than failing every such event at TikTok later.
   */
  private String tiktokPageUrl(JsonObject json, String path, String source, String botName) {
    String pageUrl = r.string(json, "page_url", path + ".page_url", null);
    if (pageUrl != null && !pageUrl.matches("https?://[^/?#\\s]+([/?#]\\S*)?")) {
      r.problem(path + ".page_url: must be an absolute http(s) URL");
    }
    if (pageUrl == null && botName != null) {
      pageUrl = "https://t.me/" + botName;
    }
    if (pageUrl == null && "web".equals(source)) {
      r.problem(path + ".page_url: required for a web integration when the workspace has no bot_name "
          + "(TikTok needs page.url on web events; events without a landing page would be refused)");
    }
    return pageUrl;
  }

  private static String stripSlash(String url) {
    return url.endsWith("/") ? url.substring(0, url.length() - 1) : url;
  }

  private static Set<String> union(Set<String> base, String... more) {
    Set<String> all = new HashSet<>(base);
    all.addAll(List.of(more));
    return Set.copyOf(all);
  }
}
