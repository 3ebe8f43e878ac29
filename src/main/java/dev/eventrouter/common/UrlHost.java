package dev.eventrouter.common;

/**
 * An absolute URL split around its host (RFC 3986, section 3.2): what comes before it (the scheme and any user
 * information), the host as written (an IPv6 literal with its brackets), and what comes after it (the port and the
 * rest). Nothing is decoded or checked beyond that.
 *
 * @param before the scheme, "://" and any "userinfo@"
 * @param host   the host as written
 * @param after  ":port", the path, the query and the fragment, as written
 */
public record UrlHost(String before, String host, String after) {

  /** The URL's parts, or null when the text has no "://" before a host. */
  public static UrlHost parse(String url) {
    int scheme = url.indexOf("://");
    if (scheme < 0) {
      return null;
    }
    int start = scheme + 3;
    int end = start;
    while (end < url.length() && "/?#".indexOf(url.charAt(end)) < 0) {
      end++;
    }
    start = Math.max(start, url.lastIndexOf('@', end - 1) + 1);
    int hostEnd;
    if (url.startsWith("[", start)) {
      int close = url.indexOf(']', start);
      hostEnd = close < 0 || close >= end ? end : close + 1;
    } else {
      int colon = url.indexOf(':', start);
      hostEnd = colon < 0 || colon >= end ? end : colon;
    }
    return hostEnd == start ? null : new UrlHost(url.substring(0, start), url.substring(start, hostEnd),
        url.substring(hostEnd));
  }

  /** The host without the brackets of an IPv6 literal: the name to resolve. */
  public String name() {
    return host.startsWith("[") && host.endsWith("]") ? host.substring(1, host.length() - 1) : host;
  }

  /** Whether the URL's scheme is https (in any case, as RFC 3986, section 3.1, reads schemes). */
  public boolean secure() {
    return before.regionMatches(true, 0, "https:", 0, "https:".length());
  }

  /**
   * The host and the port as written, without the rest: the value of a Host header for the URL (RFC 9110, section
   * 7.2).
   */
  public String hostAndPort() {
    int end = 0;
    if (after.startsWith(":")) {
      end = 1;
      while (end < after.length() && "/?#".indexOf(after.charAt(end)) < 0) {
        end++;
      }
    }
    return host + after.substring(0, end);
  }

  /** The same URL with another host in its place. */
  public String withHost(String other) {
    return before + other + after;
  }
}
