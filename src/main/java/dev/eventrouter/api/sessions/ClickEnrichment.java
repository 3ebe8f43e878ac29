package dev.eventrouter.api.sessions;

import dev.eventrouter.event.ClickIds;
import dev.eventrouter.event.ClickSession;
import dev.eventrouter.http.BrowserUrl;
import dev.eventrouter.http.Edge;
import io.netty.handler.codec.http.QueryStringDecoder;
import io.vertx.core.json.JsonObject;

import java.net.URISyntaxException;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * What the server adds to a captured click, so a page needs to send little more than its own URL: the click ids and
 * the campaign's UTM parameters read from the landing URL when not given, and, for a request the visitor's browser
 * made itself (a publishable key), its IP and user agent when not given; each by the rule the body's own field has
 * (SessionValidator). A request from a server (a workspace key)
 * gets neither: its address and user agent would be the server's, not the visitor's.
 *
 * <p>fbc is not built here: without the _fbc cookie it is built from fbclid and the click time when an event is sent
 * (ClickData), so a cookie captured later for the same session is still preferred. A cookie left by an earlier click
 * (its fbclid is not this click's) is dropped, as Meta says to make a new value then
 * (https://developers.facebook.com/documentation/ads-commerce/conversions-api/parameters/fbp-and-fbc).
 */
final class ClickEnrichment {

  /** The UTM parameters Google Analytics defines, https://support.google.com/analytics/answer/10917952. */
  static final List<String> UTM = List.of("utm_source", "utm_medium", "utm_campaign", "utm_term", "utm_content",
      "utm_id");
  // Campaign names fit; a longer value is left out, as a non-printable one is (a capture stores little).
  static final Pattern UTM_VALUE = Pattern.compile("[ -~]{1,100}");

  /**
   * The ad ids the networks' URL macros fill in, each with the parameter names read for it, first found first:
   * Meta's {{campaign.id}}, {{adset.id}}, {{ad.id}}, {{placement}}
   * (https://www.facebook.com/business/help/1016122818401732), TikTok's __CAMPAIGN_ID__, __AID__ (ad group),
   * __CID__ (ad), __PLACEMENT__ (https://ads.tiktok.com/help/article?aid=6669666107177041925), Snapchat's
   * {{campaign.id}}, {{adSet.id}}, {{ad.id}} (https://urlmacros.com/snapchat.html), put
   * in the URL under these names, and Google's ValueTrack {campaignid}, {adgroupid}, {creative}, {placement}
   * (https://support.google.com/google-ads/answer/6305348) under these names or their own.
   */
  static final Map<String, List<String>> AD_PARAMETERS = linked(
      "campaign_id", List.of("campaign_id", "campaignid"),
      "adset_id", List.of("adset_id", "adgroup_id", "ad_group_id", "adgroupid"),
      "ad_id", List.of("ad_id", "creative_id", "creative"),
      "placement", List.of("placement", "site_source_name"));
  /** A macro the network left unexpanded (an ad's preview): {{ad.id}}, __CID__, {creative}. Not an id. */
  private static final Pattern UNEXPANDED = Pattern.compile("\\{\\{.*}}|__[A-Z_]+__|\\{[a-z_]+}");

  private ClickEnrichment() {}

  private static Map<String, List<String>> linked(String k1, List<String> v1, String k2, List<String> v2, String k3,
                                                 List<String> v3, String k4, List<String> v4) {
    Map<String, List<String>> map = new LinkedHashMap<>();
    map.put(k1, v1);
    map.put(k2, v2);
    map.put(k3, v3);
    map.put(k4, v4);
    return Collections.unmodifiableMap(map);
  }

  /** The ad ids of the landing URL, or null when it carries none. */
  static JsonObject ad(Map<String, List<String>> query) {
    JsonObject ad = new JsonObject();
    AD_PARAMETERS.forEach((field, names) -> names.stream()
        .map(name -> first(query, name, UTM_VALUE))
        .filter(value -> value != null && !UNEXPANDED.matcher(value).matches())
        .findFirst()
        .ifPresent(value -> ad.put(field, value)));
    return ad.isEmpty() ? null : ad;
  }

  static ClickSession enrich(ClickSession click, Edge.Visitor visitor) {
    Map<String, List<String>> query = query(click.landingUrl());
    JsonObject utm = new JsonObject();
    for (String name : UTM) {
      String value = first(query, name, UTM_VALUE);
      if (value != null) {
        utm.put(name, value);
      }
    }
    String fbclid = click.fbclid() != null ? click.fbclid() : first(query, "fbclid", SessionValidator.FBCLID);
    String ttclid = click.ttclid() != null ? click.ttclid() : first(query, "ttclid", SessionValidator.TTCLID);
    ClickIds ids = click.ids().orElse(new ClickIds(first(query, "gclid", SessionValidator.CLICK_ID),
        first(query, "gbraid", SessionValidator.CLICK_ID), first(query, "wbraid", SessionValidator.CLICK_ID),
        sccid(query), null));
    String clientIp = click.clientIp() == null && visitor != null ? visitor.ip() : click.clientIp();
    String userAgent = click.userAgent();
    if (userAgent == null && visitor != null && visitor.userAgent() != null
        && SessionValidator.USER_AGENT.matcher(visitor.userAgent()).matches()) {
      userAgent = visitor.userAgent();
    }
    String fbc = click.fbc() != null && fbclid != null && !carries(click.fbc(), fbclid) ? null : click.fbc();
    ClickSession.Origin origin = click.origin();
    return new ClickSession(click.workspaceId(), click.sessionId(), fbclid, fbc, click.fbp(), ttclid,
        click.ttp(), clientIp, userAgent, click.landingUrl(), click.clickedAt(), utm.isEmpty() ? null : utm,
        new ClickSession.Origin(ad(query), origin.bot(), origin.channel(), origin.country()), ids);
  }

  /** Snapchat's click id: the URL parameter is ScCid (any case taken: hand-made links write it so too). */
  private static String sccid(Map<String, List<String>> query) {
    for (Map.Entry<String, List<String>> parameter : query.entrySet()) {
      if (parameter.getKey().equalsIgnoreCase("sccid")
          && SessionValidator.CLICK_ID.matcher(parameter.getValue().get(0)).matches()) {
        return parameter.getValue().get(0);
      }
    }
    return null;
  }

  /**
   * Whether an fbc value was made for this fbclid: its part after the third dot (the documented form) or after the
   * last one (as Meta says to compare) is the fbclid; newer values may carry more parts after it.
   */
  static boolean carries(String fbc, String fbclid) {
    String[] parts = fbc.split("\\.", 4);
    return parts.length == 4 && (parts[3].equals(fbclid) || parts[3].startsWith(fbclid + ".")
        || fbc.endsWith("." + fbclid));
  }

  /** The landing URL's query parameters, decoded; none without a URL (it was validated as one when given). */
  private static Map<String, List<String>> query(String landingUrl) {
    if (landingUrl == null) {
      return Map.of();
    }
    try {
      return new QueryStringDecoder(BrowserUrl.parse(landingUrl)).parameters();
    } catch (URISyntaxException | IllegalArgumentException unreadable) {
      return Map.of();
    }
  }

  /** The parameter's first value when it is a valid one, else null (the decoder never lists a name without one). */
  private static String first(Map<String, List<String>> query, String name, Pattern valid) {
    List<String> values = query.get(name);
    return values != null && valid.matcher(values.get(0)).matches() ? values.get(0) : null;
  }
}
