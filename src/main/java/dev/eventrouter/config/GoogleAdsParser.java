package dev.eventrouter.config;

import io.vertx.core.json.JsonObject;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * A {@code google_ads} integration: the account, the OAuth credentials (each a {@code ${ENV}} in practice), and the
 * conversion action each event name is uploaded as.
 */
final class GoogleAdsParser {

  static final Set<String> KEYS = Set.of("id", "type", "customer_id", "login_customer_id", "developer_token",
      "client_id", "client_secret", "refresh_token", "token_url", "conversion_actions", "api_base", "api_version",
      "test_event_code", "enabled", "dry_run", "events", "allow_private_network", "send_on", "proxy");
  static final String API_BASE = "https://googleads.googleapis.com";
  /**
   * The newest Google Ads API version (https://developers.google.com/google-ads/api/docs/release-notes); the shapes
   * used here are unchanged since v21.
   */
  static final String API_VERSION = "v26";
  static final String TOKEN_URL = "https://oauth2.googleapis.com/token";
  /** A customer id as Google writes it (123-456-7890) or without its dashes. */
  private static final Pattern CUSTOMER_ID = Pattern.compile("[0-9]{3}-?[0-9]{3}-?[0-9]{4}");
  private static final Pattern ACTION_ID = Pattern.compile("[0-9]{1,20}");

  private final JsonReader r;
  private final ProxyParser proxies;
  private final PrivateNetworkRule addresses;

  GoogleAdsParser(JsonReader reader, ProxyParser proxies, PrivateNetworkRule addresses) {
    this.r = reader;
    this.proxies = proxies;
    this.addresses = addresses;
  }

  IntegrationConfig googleAds(JsonObject json, String path, String id) {
    r.unknownKeys(json, path, KEYS);
    boolean enabled = r.bool(json, "enabled", path + ".enabled", true);
    String customerId = customerId(json, "customer_id", path, true, enabled);
    String loginCustomerId = customerId(json, "login_customer_id", path, false, enabled);
    String developerToken = secret(json, "developer_token", path, enabled);
    String clientId = secret(json, "client_id", path, enabled);
    String clientSecret = secret(json, "client_secret", path, enabled);
    String refreshToken = secret(json, "refresh_token", path, enabled);
    boolean allowPrivate = addresses.allowed(json, path);
    String apiBase = url(json, "api_base", path, API_BASE, allowPrivate);
    String tokenUrl = url(json, "token_url", path, TOKEN_URL, allowPrivate);
    String apiVersion = r.string(json, "api_version", path + ".api_version", API_VERSION);
    if (!apiVersion.matches("v[0-9]{1,3}")) {
      r.problem(path + ".api_version: must look like " + API_VERSION);
    }
    Map<String, String> actions = actions(json, path);
    GoogleAdsConfig google = new GoogleAdsConfig(customerId, loginCustomerId, developerToken, clientId, clientSecret,
        tokenUrl, actions);
    return new IntegrationConfig(id, Network.GOOGLE_ADS, customerId, refreshToken, apiBase, apiVersion, null, null,
        r.string(json, "test_event_code", path + ".test_event_code", null), enabled,
        r.bool(json, "dry_run", path + ".dry_run", false),
        r.strings(json, "events", path + ".events", WorkspaceParser.EVENT_NAME,
            "an event name (1 to 50 letters, digits, _ - or spaces)"),
        DataProcessing.NONE, null, allowPrivate, IntegrationParser.sendOn(r, json, path, Network.GOOGLE_ADS),
        proxies.proxy(json, path), google);
  }

  /** A customer id without its dashes; a disabled integration may leave the required one blank, as init writes it. */
  private String customerId(JsonObject json, String key, String path, boolean required, boolean enabled) {
    if (!enabled && "".equals(json.getValue(key))) {
      return "";
    }
    String value = r.string(json, key, path + "." + key, null);
    if (value == null ? required : !CUSTOMER_ID.matcher(value).matches()) {
      r.problem(path + "." + key + ": " + (required ? "required, " : "") + "the 10-digit customer id (123-456-7890)");
      return value;
    }
    return value == null ? null : value.replace("-", "");
  }

  /** A credential: required, blank while disabled; the message never quotes it. */
  private String secret(JsonObject json, String key, String path, boolean enabled) {
    if (!enabled && "".equals(json.getValue(key))) {
      return "";
    }
    String value = r.string(json, key, path + "." + key, null);
    if (value == null || value.isBlank()) {
      r.problem(path + "." + key + ": required (use \"${ENV_NAME}\" to keep it out of the file)");
    }
    return value;
  }

  private String url(JsonObject json, String key, String path, String fallback, boolean allowPrivate) {
    String url = r.string(json, key, path + "." + key, fallback);
    if (!url.matches("https?://[^/?#\\s]+(/[^?#\\s]*)?")) {
      r.problem(path + "." + key + ": must be an http(s) URL without query");
    } else {
      addresses.check(url, allowPrivate, path + "." + key, "on the integration");
    }
    return IntegrationParser.stripSlash(url);
  }

  /** {@code {"FTD": "123456789", ...}}: required, at least one; each value a conversion action's numeric id. */
  private Map<String, String> actions(JsonObject json, String path) {
    String at = path + ".conversion_actions";
    JsonObject table = r.object(json, "conversion_actions", at);
    Map<String, String> actions = new LinkedHashMap<>();
    for (String name : table.fieldNames()) {
      Object value = table.getValue(name);
      String action = value instanceof Number number ? String.valueOf(number.longValue())
          : value instanceof String text ? text : null;
      if (!WorkspaceParser.EVENT_NAME.matcher(name).matches() || action == null
          || !ACTION_ID.matcher(action).matches()) {
        r.problem(at + "." + name + ": an event name to the numeric id of a conversion action");
      } else {
        actions.put(name, action);
      }
    }
    if (actions.isEmpty()) {
      r.problem(at + ": required, the conversion action of each event name to upload ({\"FTD\": \"123456789\"})");
    }
    return Map.copyOf(actions);
  }
}
