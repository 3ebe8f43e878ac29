package dev.eventrouter.config;

import io.vertx.core.json.JsonObject;

import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/** One entry of a workspace's {@code integrations}: the keys and values each network accepts. */
final class IntegrationParser {

  private static final Set<String> COMMON_INTEGRATION_KEYS = Set.of("id", "type", "access_token", "api_base",
      "test_event_code", "enabled", "dry_run", "events", "limited_data_use", "allow_private_network", "send_on", "proxy",
      "page_url");
  private static final Set<String> META_KEYS = union(COMMON_INTEGRATION_KEYS, "pixel_id", "api_version",
      "action_source", "data_processing_options_country", "data_processing_options_state");
  private static final Set<String> TIKTOK_KEYS = union(COMMON_INTEGRATION_KEYS, "pixel_code", "event_source");
  private static final Set<String> SNAPCHAT_KEYS = union(COMMON_INTEGRATION_KEYS, "pixel_id", "action_source");
  /** Each network's pixel key and what its value looks like: Meta's dataset id, TikTok's code, Snap's pixel id. */
  private static final Map<Network, String> PIXEL_KEYS = Map.of(Network.META, "pixel_id", Network.TIKTOK,
      "pixel_code", Network.SNAPCHAT, "pixel_id");
  private static final Map<Network, Pattern> PIXELS = Map.of(Network.META, Pattern.compile("[0-9]{1,30}"),
      Network.TIKTOK, Pattern.compile("[A-Za-z0-9]{1,64}"), Network.SNAPCHAT, Pattern.compile("[A-Za-z0-9-]{1,64}"));
  private static final Map<Network, String> PIXEL_RULES = Map.of(Network.META, "the numeric pixel (dataset) id",
      Network.TIKTOK, "the TikTok pixel code", Network.SNAPCHAT, "the Snap Pixel id (letters, digits and -)");
  private static final Pattern INTEGRATION_ID = Pattern.compile("[A-Za-z0-9_.-]{1,64}");

  private final JsonReader r;
  private final ProxyParser proxies;
  private final PrivateNetworkRule addresses;
  private final WebhookParser webhooks;
  private final SourceParser sources;
  private final NetworkEndpoint endpoint;
  private final GoogleAdsParser google;

  IntegrationParser(JsonReader reader) {
    this.r = reader;
    this.proxies = new ProxyParser(reader);
    this.addresses = new PrivateNetworkRule(reader);
    this.webhooks = new WebhookParser(reader, proxies, addresses);
    this.sources = new SourceParser(reader);
    this.endpoint = new NetworkEndpoint(reader, addresses);
    this.google = new GoogleAdsParser(reader, proxies, addresses);
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
    } else if ("snapchat".equals(type)) {
      network = Network.SNAPCHAT;
      r.unknownKeys(json, path, SNAPCHAT_KEYS);
    } else if ("google_ads".equals(type)) {
      return google.googleAds(json, path, id);
    } else if ("webhook".equals(type)) {
      return webhooks.webhook(json, path, id);
    } else {
      r.problem(path + ".type: required, \"meta\", \"tiktok\", \"snapchat\", \"google_ads\" or \"webhook\"");
      return null;
    }
    boolean meta = network == Network.META;
    boolean enabled = r.bool(json, "enabled", path + ".enabled", true);
    String pixelKey = PIXEL_KEYS.get(network);
    String pixel = blankWhileDisabled(json, pixelKey, path, enabled);
    if (pixel == null || !(pixel.isEmpty() || PIXELS.get(network).matcher(pixel).matches())) {
      r.problem(path + "." + pixelKey + ": required, " + PIXEL_RULES.get(network));
    }
    String token = blankWhileDisabled(json, "access_token", path, enabled);
    endpoint.requireToken(token, path);
    boolean allowPrivate = addresses.allowed(json, path);
    String apiBase = endpoint.apiBase(json, path, network, allowPrivate, "on the integration");
    String apiVersion = endpoint.apiVersion(json, path, meta);
    String source = sources.source(json, path, network);
    String pageUrl = sources.pageUrl(json, path, source, botName);
    return new IntegrationConfig(id, network, pixel, token, apiBase, apiVersion, source, pageUrl,
        r.string(json, "test_event_code", path + ".test_event_code", null), enabled,
        r.bool(json, "dry_run", path + ".dry_run", false),
        r.strings(json, "events", path + ".events", WorkspaceParser.EVENT_NAME,
            "an event name (1 to 50 letters, digits, _ - or spaces)"),
        dataProcessing(json, path), null, allowPrivate, sendOn(r, json, path, network), proxies.proxy(json, path));
  }

  /**
   * A value that a disabled integration may leave blank ({@code ""}): {@code init} writes Meta and TikTok so, to be
   * filled in before they are enabled. Enabled, it is required and not blank.
   */
  private String blankWhileDisabled(JsonObject json, String key, String path, boolean enabled) {
    return !enabled && "".equals(json.getValue(key)) ? "" : r.string(json, key, path + "." + key, null);
  }

  /** The statuses that forward a conversion; the network's default when absent. */
  static Set<String> sendOn(JsonReader r, JsonObject json, String path, Network network) {
    Set<String> statuses = r.strings(json, "send_on", path + ".send_on",
        Pattern.compile(String.join("|", ConversionStatus.ALL)), "a status: " + String.join(", ", ConversionStatus.ALL));
    return statuses == null ? IntegrationConfig.defaultSendOn(network) : Set.copyOf(statuses);
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

  /** An alert target's webhook ({@link WebhookParser#alertWebhook}). */
  IntegrationConfig alertWebhook(JsonObject json, String path) {
    return webhooks.alertWebhook(json, path);
  }

  static String stripSlash(String url) {
    return url.endsWith("/") ? url.substring(0, url.length() - 1) : url;
  }

  static Set<String> union(Set<String> base, String... more) {
    Set<String> all = new HashSet<>(base);
    all.addAll(List.of(more));
    return Set.copyOf(all);
  }
}
