package dev.eventrouter.forward.webhook;

import dev.eventrouter.config.WebhookConfig;
import io.vertx.core.json.JsonObject;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Fills a webhook URL's {@code {placeholders}} from the event's body: its fields, and its session's click ids.
 * Each value is percent-encoded (a space as %20, valid in a path and a query alike); an absent one is empty.
 */
final class WebhookUrl {

  private static final Pattern PLACEHOLDER = Pattern.compile("\\{([a-z_]+)}");

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
    return placeholder.appendTail(url).toString();
  }

  private static Object value(JsonObject body, String name) {
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
