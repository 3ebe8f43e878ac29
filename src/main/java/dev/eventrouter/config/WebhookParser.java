package dev.eventrouter.config;

import io.vertx.core.json.JsonObject;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A {@code webhook} integration and an alert target's webhook: a URL, headers and the secret each request is signed
 * with, under the same address and proxy rules as the networks.
 */
final class WebhookParser {

  static final Set<String> KEYS = Set.of("id", "type", "url", "method", "headers", "secret", "event_map", "enabled",
      "dry_run", "events", "allow_private_network", "send_on", "proxy");
  private static final Set<String> ALERT_KEYS = Set.of("type", "url", "headers", "secret", "allow_private_network",
      "proxy");
  private static final Set<String> METHODS = Set.of("POST", "PUT", "GET");
  /** Set by the service itself: the body's type and length, the signature. */
  private static final Set<String> RESERVED_HEADERS = Set.of("content-type", "content-length", "host",
      "transfer-encoding", "connection", "x-event-router-signature", "x-event-router-event-id",
      "x-event-router-change", "x-event-router-alert-id");
  private static final Pattern HEADER_NAME = Pattern.compile("[!#$%&'*+.^_`|~0-9A-Za-z-]{1,64}");
  private static final Pattern URL_PLACEHOLDER = Pattern.compile("\\{([^{}]*)}");
  /** An HMAC-SHA256 key shorter than this is easy to guess. */
  static final int MIN_SECRET_LENGTH = 16;

  private final JsonReader r;
  private final ProxyParser proxies;
  private final PrivateNetworkRule addresses;

  WebhookParser(JsonReader reader, ProxyParser proxies, PrivateNetworkRule addresses) {
    this.r = reader;
    this.proxies = proxies;
    this.addresses = addresses;
  }

  /**
   * A webhook to the advertiser's own tracker or backend: a URL with placeholders, a method, headers, and the secret
   * its HMAC-SHA256 signature is made with (required: a receiver must be able to tell our requests from others).
   */
  IntegrationConfig webhook(JsonObject json, String path, String id) {
    r.unknownKeys(json, path, KEYS);
    String url = r.string(json, "url", path + ".url", null);
    boolean allowPrivate = addresses.allowed(json, path);
    if (url == null || !url.matches("https?://[^/?#\\s{}]+([/?#]\\S*)?")) {
      r.problem(path + ".url: required, an absolute http(s) URL (placeholders are allowed after the host)");
    } else {
      addresses.check(url, allowPrivate, path + ".url", "on the integration");
      Matcher placeholder = URL_PLACEHOLDER.matcher(url);
      while (placeholder.find()) {
        if (!WebhookConfig.PLACEHOLDERS.contains(placeholder.group(1))) {
          r.problem(path + ".url: unknown placeholder {" + placeholder.group(1) + "} (known: "
              + String.join(", ", WebhookConfig.PLACEHOLDERS) + ")");
        }
      }
    }
    String method = r.string(json, "method", path + ".method", "POST");
    if (!METHODS.contains(method)) {
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
        DataProcessing.NONE, webhook, allowPrivate, IntegrationParser.sendOn(r, json, path, Network.WEBHOOK), proxies.proxy(json, path));
  }

  /**
   * An alert target's webhook: a POST of each alert to a fixed URL, with headers, signed with its secret as webhook
   * integrations are, under the same address and proxy rules. Its id is {@code alerts}.
   */
  IntegrationConfig alertWebhook(JsonObject json, String path) {
    r.unknownKeys(json, path, ALERT_KEYS);
    String url = r.string(json, "url", path + ".url", null);
    boolean allowPrivate = addresses.allowed(json, path);
    if (url == null || !url.matches("https?://[^/?#\\s{}]+([/?#][^\\s{}]*)?")) {
      r.problem(path + ".url: required, an absolute http(s) URL (no placeholders: an alert is no event)");
    } else {
      addresses.check(url, allowPrivate, path + ".url", "on the integration");
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
}
