package dev.eventrouter.forward.webhook;

import dev.eventrouter.common.CheckedRequests;
import dev.eventrouter.common.UrlHost;
import dev.eventrouter.config.WebhookConfig;
import io.vertx.core.json.JsonObject;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Fills a webhook URL's {@code {placeholders}} from the event's body: its fields, and its session's click ids.
 * Each value is percent-encoded (a space as %20, valid in a path and a query alike); an absent one is empty. A value
 * of "." or ".." is left unencoded by that encoding and, as a whole path segment, would move the request to another
 * path once the receiver or a proxy removes dot segments (RFC 3986, section 5.2.4): a URL whose path has such a
 * segment is not requested at all.
 */
final class WebhookUrl {

  private static final Pattern PLACEHOLDER = Pattern.compile("\\{([a-z_]+)}");
  private static final Pattern QUERY_OR_FRAGMENT = Pattern.compile("[?#]");

  private WebhookUrl() {}

  static String expand(String template, JsonObject body) {
    Matcher placeholder = PLACEHOLDER.matcher(template);
    StringBuilder url = new StringBuilder();
    while (placeholder.find()) {
      String name = placeholder.group(1);
      // The config was checked against the same list: any other name is left as written.
      String value = WebhookConfig.PLACEHOLDERS.contains(name) ? encode(value(body, name)) : placeholder.group();
      placeholder.appendReplacement(url, Matcher.quoteReplacement(value));
    }
    String expanded = placeholder.appendTail(url).toString();
    if (hasDotSegment(expanded)) {
      throw new CheckedRequests.Refused("the webhook URL's path has a '.' or '..' segment once its placeholders are "
          + "filled");
    }
    return expanded;
  }

  /** Whether the URL's path (after the host and port, before the query or fragment) has a "." or ".." segment. */
  static boolean hasDotSegment(String url) {
    UrlHost host = UrlHost.parse(url);
    String after = host == null ? url : host.after();
    String beforeQuery = QUERY_OR_FRAGMENT.split(after, 2)[0];
    int slash = beforeQuery.indexOf('/');
    if (slash < 0) {
      return false;
    }
    for (String segment : beforeQuery.substring(slash).split("/", -1)) {
      if (segment.equals(".") || segment.equals("..")) {
        return true;
      }
    }
    return false;
  }

  private static Object value(JsonObject body, String name) {
    if (name.equals("status")) { // the conversion's; the body's own name says which status it is
      return body.getValue("conversion_status");
    }
    if (body.containsKey(name)) {
      return body.getValue(name);
    }
    JsonObject session = body.getJsonObject("session");
    return session == null ? null : session.getValue(name);
  }

  private static String encode(Object value) {
    return value == null ? "" : URLEncoder.encode(String.valueOf(value), StandardCharsets.UTF_8).replace("+", "%20");
  }
}
