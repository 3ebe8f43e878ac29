package dev.eventrouter.config;

import dev.eventrouter.common.ProxyConfig;
import io.vertx.core.json.JsonObject;

import java.net.URI;
import java.net.URISyntaxException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Set;

/**
 * A {@code proxy} key: a URL ({@code "socks5://user:pass@host:1080"}, the credentials percent-encoded) or an object
 * {@code {"url", "username", "password", "ca_file"}}, which takes credentials from {@code ${ENV}} as they are. No
 * message quotes the URL: it may hold the password.
 */
final class ProxyParser {

  private static final Set<String> KEYS = Set.of("url", "username", "password", "ca_file");
  private static final Set<String> SCHEMES = Set.of(ProxyConfig.HTTP, ProxyConfig.HTTPS, ProxyConfig.SOCKS5);
  private static final String FORM = ": must be a URL such as http://host:3128, https://host:443 or "
      + "socks5://host:1080 (credentials as user:password@, percent-encoded, or as username and password)";

  private final JsonReader r;

  ProxyParser(JsonReader reader) {
    this.r = reader;
  }

  /** The proxy at {@code json.proxy}, or null when there is none (or it is unusable: a problem is recorded). */
  ProxyConfig proxy(JsonObject json, String path) {
    Object value = json.getValue("proxy");
    String at = path + ".proxy";
    if (value == null) {
      return null;
    }
    if (value instanceof String url) {
      return parse(url, at, at, null, null, null);
    }
    if (value instanceof JsonObject object) {
      r.unknownKeys(object, at, KEYS);
      String url = r.string(object, "url", at + ".url", null);
      if (url == null) {
        r.problem(at + ".url: required, the proxy's URL");
        return null;
      }
      String caFile = r.string(object, "ca_file", at + ".ca_file", null);
      return parse(url, at, at + ".url", r.string(object, "username", at + ".username", null),
          r.string(object, "password", at + ".password", null), caFile);
    }
    r.problem(at + ": must be a URL or an object with url, username, password");
    return null;
  }

  /** @param at the proxy's path, {@code urlAt} its URL's */
  private ProxyConfig parse(String url, String at, String urlAt, String username, String password, String caFile) {
    URI uri;
    try {
      uri = new URI(url);
    } catch (URISyntaxException e) {
      r.problem(urlAt + FORM);
      return null;
    }
    String scheme = uri.getScheme() == null ? null : uri.getScheme().toLowerCase(Locale.ROOT);
    // A port is parsed only with a host (a server-based authority), so a port means a host and a path (maybe empty).
    if (scheme == null || !SCHEMES.contains(scheme) || uri.getPort() < 1
        || !(uri.getRawPath().isEmpty() || "/".equals(uri.getRawPath()))
        || uri.getRawQuery() != null || uri.getRawFragment() != null) {
      r.problem(urlAt + FORM);
      return null;
    }
    if (uri.getRawUserInfo() != null) {
      if (username != null || password != null) {
        r.problem(at + ": credentials in the URL and as username/password: give them once");
        return null;
      }
      String[] parts = uri.getRawUserInfo().split(":", 2);
      username = URLDecoder.decode(parts[0], StandardCharsets.UTF_8);
      password = parts.length > 1 ? URLDecoder.decode(parts[1], StandardCharsets.UTF_8) : null;
    }
    if (password != null && username == null) {
      r.problem(at + ": a password needs its username");
    }
    if (caFile != null && !ProxyConfig.HTTPS.equals(scheme)) {
      r.problem(at + ": ca_file is for an https proxy");
    } else if (caFile != null && !Files.isReadable(Path.of(caFile))) {
      r.problem(at + ".ca_file: cannot read " + caFile);
    }
    String host = uri.getHost().startsWith("[") ? uri.getHost().substring(1, uri.getHost().length() - 1)
        : uri.getHost();
    return new ProxyConfig(scheme, host, uri.getPort(), caFile, username, password);
  }
}
