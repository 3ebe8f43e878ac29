package dev.eventrouter.http;

import java.net.URI;
import java.net.URISyntaxException;

/**
 * A URL as a browser writes it, read as a URI. Browsers leave {@code { } | ^ `} unescaped in a query (they are not in
 * https://url.spec.whatwg.org/#query-percent-encode-set), and ads put exactly those there: an unexpanded ValueTrack
 * macro ({@code {campaignid}}), a template's {@code |}. {@link URI} refuses them, so they, and a {@code %} not
 * starting an escape, are escaped before parsing; the text itself is kept as given. What a browser escapes itself
 * ({@code " < >}, spaces, control characters such as NUL) is left to {@link URI}, which refuses it as before: markup
 * is no URL.
 */
public final class BrowserUrl {

  private static final String FORBIDDEN = "^`{|}";

  private BrowserUrl() {}

  /** The URI of {@code text}, its forbidden printable characters escaped. */
  public static URI parse(String text) throws URISyntaxException {
    StringBuilder escaped = new StringBuilder(text.length() + 16);
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (FORBIDDEN.indexOf(c) >= 0 || c == '%' && !isEscape(text, i)) {
        escaped.append('%').append(Character.toUpperCase(Character.forDigit(c >> 4, 16)))
            .append(Character.toUpperCase(Character.forDigit(c & 0xF, 16)));
      } else {
        escaped.append(c);
      }
    }
    return new URI(escaped.toString());
  }

  private static boolean isEscape(String text, int at) {
    return at + 2 < text.length() && Character.digit(text.charAt(at + 1), 16) >= 0
        && Character.digit(text.charAt(at + 2), 16) >= 0;
  }
}
