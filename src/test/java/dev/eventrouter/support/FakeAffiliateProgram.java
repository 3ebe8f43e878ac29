package dev.eventrouter.support;

import io.netty.handler.codec.http.QueryStringDecoder;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.ext.web.client.WebClient;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * An affiliate program's back office as the field's partners behave: it keeps the postback URL template a buyer
 * pasted in, fills in the macros it knows for a conversion (leaving any it does not know as written, as a real one
 * does), and fires it: GET, or the same parameters as a form or JSON POST.
 */
public final class FakeAffiliateProgram {

  private static final Pattern MACRO = Pattern.compile("\\{([a-z_]+)}");

  private final WebClient client;
  private final int port;
  private final String template;

  /** @param template the pasted URL template from the path on, e.g. /api/v1/postbacks/TOKEN?subid={subid} */
  public FakeAffiliateProgram(WebClient client, int port, String template) {
    this.client = client;
    this.port = port;
    this.template = template;
  }

  /** The template with the macros this conversion has filled in (percent-encoded), the others left as written. */
  public String url(Map<String, String> conversion) {
    Matcher macro = MACRO.matcher(template);
    StringBuilder url = new StringBuilder();
    while (macro.find()) {
      String value = conversion.get(macro.group(1));
      macro.appendReplacement(url, Matcher.quoteReplacement(value == null ? macro.group()
          : URLEncoder.encode(value, StandardCharsets.UTF_8)));
    }
    return macro.appendTail(url).toString();
  }

  public HttpResponse<Buffer> fireGet(Map<String, String> conversion) {
    return client.get(port, "127.0.0.1", url(conversion)).send().await();
  }

  /** The same parameters as an application/x-www-form-urlencoded body, to the template's path. */
  public HttpResponse<Buffer> fireForm(Map<String, String> conversion) {
    String url = url(conversion);
    int query = url.indexOf('?');
    return client.post(port, "127.0.0.1", url.substring(0, query))
        .putHeader("Content-Type", "application/x-www-form-urlencoded")
        .sendBuffer(Buffer.buffer(url.substring(query + 1))).await();
  }

  /** The same parameters as a JSON object body (Spectr3-style JSON postbacks). */
  public HttpResponse<Buffer> fireJson(Map<String, String> conversion) {
    String url = url(conversion);
    int query = url.indexOf('?');
    JsonObject body = new JsonObject();
    new QueryStringDecoder(url.substring(query + 1), false).parameters()
        .forEach((name, values) -> body.put(name, values.get(0)));
    return client.post(port, "127.0.0.1", url.substring(0, query)).putHeader("Content-Type", "application/json")
        .sendBuffer(body.toBuffer()).await();
  }
}
