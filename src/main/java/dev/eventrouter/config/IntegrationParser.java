package dev.eventrouter.config;

import dev.eventrouter.common.PrivateAddress;
import dev.eventrouter.common.UrlHost;
import io.vertx.core.json.JsonObject;

import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** One entry of a workspace's {@code integrations}: the keys and values each network accepts. */
final class IntegrationParser {

  private static final Set<String> COMMON_INTEGRATION_KEYS = Set.of("id", "type", "access_token", "api_base",
      "test_event_code", "enabled", "dry_run", "events", "limited_data_use", "allow_private_network", "send_on", "proxy",
      "page_url");
  private static final Set<String> META_KEYS = union(COMMON_INTEGRATION_KEYS, "pixel_id", "api_version",
      "action_source", "data_processing_options_country", "data_processing_options_state");
  private static final Set<String> TIKTOK_KEYS = union(COMMON_INTEGRATION_KEYS, "pixel_code", "event_source");
  private static final Set<String> WEBHOOK_KEYS = Set.of("id", "type", "url", "method", "headers", "secret",
      "event_map", "enabled", "dry_run", "events", "allow_private_network", "send_on", "proxy");
  private static final Set<String> ALERT_WEBHOOK_KEYS = Set.of("type", "url", "headers", "secret",
      "allow_private_network", "proxy");
  private static final Set<String> WEBHOOK_METHODS = Set.of("POST", "PUT", "GET");
  /** Set by the service itself: the body's type and length, the signature. */
  private static final Set<String> RESERVED_HEADERS = Set.of("content-type", "content-length", "host",
      "transfer-encoding", "connection", "x-event-router-signature", "x-event-router-event-id",
      "x-event-router-change", "x-event-router-alert-id");
  private static final Pattern HEADER_NAME = Pattern.compile("[!#$%&'*+.^_`|~0-9A-Za-z-]{1,64}");
  private static final Pattern URL_PLACEHOLDER = Pattern.compile("\\{([^{}]*)}");
  /** An HMAC-SHA256 key shorter than this is easy to guess. */
  static final int MIN_SECRET_LENGTH = 16;
  private static final Pattern INTEGRATION_ID = Pattern.compile("[A-Za-z0-9_.-]{1,64}");

  private final JsonReader r;
  private final ProxyParser proxies;
  private final SourceParser sources;

  IntegrationParser(JsonReader reader) {
    this.r = reader;
    this.proxies = new ProxyParser(reader);
    this.sources = new SourceParser(reader);
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
    } else if ("webhook".equals(type)) {
      r.unknownKeys(json, path, WEBHOOK_KEYS);
      return webhook(json, path, id);
    } else {
      r.problem(path + ".type: required, \"meta\", \"tiktok\" or \"webhook\"");
      return null;
    }
    boolean meta = network == Network.META;
    boolean enabled = r.bool(json, "enabled", path + ".enabled", true);
    String pixelKey = meta ? "pixel_id" : "pixel_code";
    String pixel = blankWhileDisabled(json, pixelKey, path, enabled);
    if (pixel == null || !(pixel.isEmpty() || pixel.matches(meta ? "[0-9]{1,30}" : "[A-Za-z0-9]{1,64}"))) {
      r.problem(path + "." + pixelKey + ": required, " + (meta ? "the numeric pixel (dataset) id"
          : "the TikTok pixel code"));
    }
    // The message never quotes the token, only where it is missing.
    String token = blankWhileDisabled(json, "access_token", path, enabled);
    if (token == null) {
      r.problem(path + ".access_token: required (use \"${ENV_NAME}\" to keep it out of the file)");
    }
    String apiBase = r.string(json, "api_base", path + ".api_base",
        meta ? "https://graph.facebook.com" : "https://business-api.tiktok.com");
    boolean allowPrivate = allowPrivateNetwork(json, path);
    if (!apiBase.matches("https?://[^/?#\\s]+(/[^?#\\s]*)?")) {
      r.problem(path + ".api_base: must be an http(s) URL without query");
    } else {
      checkPublic(apiBase, allowPrivate, path + ".api_base");
    }
    String apiVersion = meta ? r.string(json, "api_version", path + ".api_version", "v25.0") : null;
    if (apiVersion != null && !apiVersion.matches("v[0-9]{1,3}\\.[0-9]{1,3}")) {
      r.problem(path + ".api_version: must look like v25.0");
    }
    String source = sources.source(json, path, meta);
    String pageUrl = sources.pageUrl(json, path, source, botName);
    return new IntegrationConfig(id, network, pixel, token, stripSlash(apiBase), apiVersion, source, pageUrl,
        r.string(json, "test_event_code", path + ".test_event_code", null), enabled,
        r.bool(json, "dry_run", path + ".dry_run", false),
        r.strings(json, "events", path + ".events", WorkspaceParser.EVENT_NAME,
            "an event name (1 to 50 letters, digits, _ - or spaces)"),
        dataProcessing(json, path), null, allowPrivate, sendOn(json, path, network), proxies.proxy(json, path));
  }

  /**
   * A value that a disabled integration may leave blank ({@code ""}): {@code init} writes Meta and TikTok so, to be
   * filled in before they are enabled. Enabled, it is required and not blank.
   */
  private String blankWhileDisabled(JsonObject json, String key, String path, boolean enabled) {
    return !enabled && "".equals(json.getValue(key)) ? "" : r.string(json, key, path + "." + key, null);
  }

  /** The statuses that forward a conversion; the network's default when absent. */
  private Set<String> sendOn(JsonObject json, String path, Network network) {
    Set<String> statuses = r.strings(json, "send_on", path + ".send_on",
        Pattern.compile(String.join("|", ConversionStatus.ALL)), "a status: " + String.join(", ", ConversionStatus.ALL));
    return statuses == null ? IntegrationConfig.defaultSendOn(network) : Set.copyOf(statuses);
  }

  /**
   * A webhook to the advertiser's own tracker or backend: a URL with placeholders, a method, headers, and the secret
   * its HMAC-SHA256 signature is made with (required: a receiver must be able to tell our requests from others).
   */
  private IntegrationConfig webhook(JsonObject json, String path, String id) {
    String url = r.string(json, "url", path + ".url", null);
    boolean allowPrivate = allowPrivateNetwork(json, path);
    if (url == null || !url.matches("https?://[^/?#\\s{}]+([/?#]\\S*)?")) {
      r.problem(path + ".url: required, an absolute http(s) URL (placeholders are allowed after the host)");
    } else {
      checkPublic(url, allowPrivate, path + ".url");
      Matcher placeholder = URL_PLACEHOLDER.matcher(url);
      while (placeholder.find()) {
        if (!WebhookConfig.PLACEHOLDERS.contains(placeholder.group(1))) {
          r.problem(path + ".url: unknown placeholder {" + placeholder.group(1) + "} (known: "
              + String.join(", ", WebhookConfig.PLACEHOLDERS) + ")");
        }
      }
    }
    String method = r.string(json, "method", path + ".method", "POST");
    if (!WEBHOOK_METHODS.contains(method)) {
      r.problem(path + ".method: must be POST, PUT or GET");
    }
    String secret = r.string(json, "secret", path + ".secret", null);
    if (secret == null || secret.length() < MIN_SECRET_LENGTH) {
      r.problem(path + ".secret: required, at least " + MIN_SECRET_LENGTH + " characters, to sign each request "
          + "(use \"${ENV_NAME}\" to keep it out of the file)");
    }
    WebhookConfig webhook = new WebhookConfig(url, method, headers(json, path), eventMap(json, path));
    return new IntegrationConfig(id, Network.WEBHOOK, null, secret, null, null, null, null, null,
        r.bool(json, "enabled", path + ".enabled", true),
        r.bool(json, "dry_run", path + ".dry_run", false),
        r.strings(json, "events", path + ".events", WorkspaceParser.EVENT_NAME,
            "an event name (1 to 50 letters, digits, _ - or spaces)"),
        DataProcessing.NONE, webhook, allowPrivate, sendOn(json, path, Network.WEBHOOK), proxies.proxy(json, path));
  }

  /**
   * An alert target's webhook: a POST of each alert to a fixed URL, with headers, signed with its secret as webhook
   * integrations are, under the same address and proxy rules. Its id is {@code alerts}.
   */
  IntegrationConfig alertWebhook(JsonObject json, String path) {
    r.unknownKeys(json, path, ALERT_WEBHOOK_KEYS);
    String url = r.string(json, "url", path + ".url", null);
    boolean allowPrivate = allowPrivateNetwork(json, path);
    if (url == null || !url.matches("https?://[^/?#\\s{}]+([/?#][^\\s{}]*)?")) {
      r.problem(path + ".url: required, an absolute http(s) URL (no placeholders: an alert is no event)");
    } else {
      checkPublic(url, allowPrivate, path + ".url");
    }
    String secret = r.string(json, "secret", path + ".secret", null);
    if (secret == null || secret.length() < MIN_SECRET_LENGTH) {
      r.problem(path + ".secret: required, at least " + MIN_SECRET_LENGTH + " characters, to sign each alert "
          + "(use \"${ENV_NAME}\" to keep it out of the file)");
    }
    // With a problem recorded when the url or secret is missing: the config is refused then.
    return new IntegrationConfig("alerts", Network.WEBHOOK, null, secret, null, null, null, null, null, true, false,
        null, DataProcessing.NONE, new WebhookConfig(url == null ? "" : url, "POST", headers(json, path), Map.of()),
        allowPrivate, Set.of(), proxies.proxy(json, path));
  }

  /**
   * Whether the integration may send to loopback, link-local and private addresses: off unless set, so a URL cannot
   * point the service at its own host, its network or the cloud metadata service (169.254.169.254).
   */
  private boolean allowPrivateNetwork(JsonObject json, String path) {
    return r.bool(json, "allow_private_network", path + ".allow_private_network", false);
  }

  /**
   * A URL whose host is written as such an address (or localhost) is refused here unless allowed; a name is checked
   * by what it resolves to when each request is made.
   */
  private void checkPublic(String url, boolean allowPrivate, String at) {
    if (!allowPrivate && namesPrivate(url)) {
      r.problem(at + ": the host is a loopback, link-local, private or unspecified address (or localhost); set "
          + "\"allow_private_network\": true on the integration to send there");
    }
  }

  /** Whether the URL's host is written as a loopback, link-local, private or unspecified address, or localhost. */
  static boolean namesPrivate(String url) {
    UrlHost host = UrlHost.parse(url);
    return host != null && PrivateAddress.named(host.host());
  }

  /** Extra headers, name to value; the service's own are not among them. Values are never quoted in messages. */
  private Map<String, String> headers(JsonObject json, String path) {
    Map<String, String> headers = new LinkedHashMap<>();
    r.object(json, "headers", path + ".headers").forEach(entry -> {
      String at = path + ".headers." + entry.getKey();
      if (!HEADER_NAME.matcher(entry.getKey()).matches()) {
        r.problem(at + ": not a valid header name");
      } else if (RESERVED_HEADERS.contains(entry.getKey().toLowerCase(Locale.ROOT))) {
        r.problem(at + ": set by the service, cannot be configured");
      } else if (!(entry.getValue() instanceof String value) || !value.matches("[\\x20-\\x7E\\t]+")) {
        r.problem(at + ": must be a non-empty string of printable ASCII");
      } else {
        headers.put(entry.getKey(), value);
      }
    });
    return Map.copyOf(headers);
  }

  /** Our event names to the receiver's, such as {"FTD": "sale", "REG": "lead"}. */
  private Map<String, String> eventMap(JsonObject json, String path) {
    Map<String, String> names = new HashMap<>();
    r.object(json, "event_map", path + ".event_map").forEach(entry -> {
      if (!WorkspaceParser.EVENT_NAME.matcher(entry.getKey()).matches()
          || !(entry.getValue() instanceof String name) || !WorkspaceParser.EVENT_NAME.matcher(name).matches()) {
        r.problem(path + ".event_map." + entry.getKey() + ": event names on both sides, 1 to 50 letters, digits, "
            + "_ - or spaces");
      } else {
        names.put(entry.getKey(), name);
      }
    });
    return Map.copyOf(names);
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

  static String stripSlash(String url) {
    return url.endsWith("/") ? url.substring(0, url.length() - 1) : url;
  }

  private static Set<String> union(Set<String> base, String... more) {
    Set<String> all = new HashSet<>(base);
    all.addAll(List.of(more));
    return Set.copyOf(all);
  }
}
