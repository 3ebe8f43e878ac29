package dev.eventrouter.api.sessions;

import dev.eventrouter.common.IpBlock;
import dev.eventrouter.event.ClickIds;
import dev.eventrouter.event.ClickSession;
import dev.eventrouter.http.ClientIp;
import dev.eventrouter.http.Edge;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.List;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/** What the server adds to a captured click, and whose address a request comes from. */
class ClickEnrichmentUnitTest {

  private static final UUID WS = UUID.fromString("7c9e6679-7425-40de-944b-e07fc1f90ae7");
  private static final Instant AT = Instant.parse("2026-11-23T10:00:00Z");
  private static final Edge.Visitor VISITOR = new Edge.Visitor("198.51.100.7", "Mozilla/5.0 (Visitor)");

  private static ClickSession click(String fbclid, String fbc, String ttclid, String landingUrl) {
    return new ClickSession(WS, "s1", fbclid, fbc, null, ttclid, null, null, null, landingUrl, AT, null);
  }

  @Test
  @DisplayName("the URL's ids and UTM parameters fill what the body left out; what it gave wins")
  void fromTheUrl() {
    String url = "https://lp.example/?fbclid=IwAR-url&ttclid=E.C.P.url&utm_source=fb&utm_term=a+b&utm_id=7"
        + "&utm_medium=&utm_content=" + "x".repeat(101) + "&utm_campaign=" + "c".repeat(100);
    ClickSession filled = ClickEnrichment.enrich(click(null, null, null, url), null);
    assertThat(filled.fbclid()).isEqualTo("IwAR-url");
    assertThat(filled.ttclid()).isEqualTo("E.C.P.url");
    assertThat(filled.utm()).as("empty and over-long values left out")
        .isEqualTo(new JsonObject().put("utm_source", "fb").put("utm_term", "a b").put("utm_id", "7")
            .put("utm_campaign", "c".repeat(100)));
    assertThat(filled.clientIp()).as("no visitor: a server's request").isNull();
    assertThat(filled.userAgent()).isNull();

    ClickSession given = ClickEnrichment.enrich(click("IwAR-body", null, "E.C.P.body", url), null);
    assertThat(given.fbclid()).isEqualTo("IwAR-body");
    assertThat(given.ttclid()).isEqualTo("E.C.P.body");

    ClickSession plain = ClickEnrichment.enrich(click(null, null, null, "https://lp.example/?fbclid=has%20space"),
        null);
    assertThat(plain.fbclid()).as("not a valid click id").isNull();
    assertThat(plain.utm()).as("no UTM parameter: none, not an empty object").isNull();
    assertThat(ClickEnrichment.enrich(click(null, null, null, null), null).utm()).isNull();
  }

  @Test
  @DisplayName("the visitor's IP and user agent fill what the body left out, a user agent only when printable")
  void fromTheVisitor() {
    ClickSession filled = ClickEnrichment.enrich(click(null, null, null, null), VISITOR);
    assertThat(filled.clientIp()).isEqualTo("198.51.100.7");
    assertThat(filled.userAgent()).isEqualTo("Mozilla/5.0 (Visitor)");
    ClickSession given = ClickEnrichment.enrich(new ClickSession(WS, "s1", null, null, null, null, null,
        "203.0.113.1", "Given/1", null, AT, null), VISITOR);
    assertThat(given.clientIp()).isEqualTo("203.0.113.1");
    assertThat(given.userAgent()).isEqualTo("Given/1");
    assertThat(ClickEnrichment.enrich(click(null, null, null, null), new Edge.Visitor("198.51.100.7", "bad\u0001ua"))
        .userAgent()).isNull();
    assertThat(ClickEnrichment.enrich(click(null, null, null, null), new Edge.Visitor("198.51.100.7", null))
        .userAgent()).isNull();
    assertThat(ClickEnrichment.enrich(click(null, null, null, null), new Edge.Visitor("198.51.100.7",
        "u".repeat(513))).userAgent()).as("longer than a capture stores: left out").isNull();
    assertThat(ClickEnrichment.enrich(click(null, null, null, null), new Edge.Visitor("198.51.100.7",
        "u".repeat(512))).userAgent()).hasSize(512);
  }

  @Test
  @DisplayName("an fbc is kept when it carries this click's fbclid, in the documented form or a longer one")
  void fbcOfThisClick() {
    assertThat(ClickEnrichment.carries("fb.1.1700000000000.IwAR", "IwAR")).isTrue();
    assertThat(ClickEnrichment.carries("fb.1.1700000000000.IwAR.AQ", "IwAR")).as("a part appended").isTrue();
    assertThat(ClickEnrichment.carries("fb.1.1700000000000.x.IwAR", "IwAR")).as("the last part, as Meta compares")
        .isTrue();
    assertThat(ClickEnrichment.carries("fb.1.1700000000000.IwAR-older", "IwAR")).isFalse();
    assertThat(ClickEnrichment.carries("fb.1.1700000000000.IwARx.AQ", "IwAR")).isFalse();
    assertThat(ClickEnrichment.carries("fb.1.1700000000000.other", "IwAR")).isFalse();
    assertThat(ClickEnrichment.enrich(click("IwAR", "fb.1.1.old", null, null), null).fbc()).isNull();
    assertThat(ClickEnrichment.enrich(click("IwAR", "fb.1.1.IwAR", null, null), null).fbc()).isEqualTo("fb.1.1.IwAR");
  }

  @Test
  @DisplayName("the client's address: the peer, or past trusted proxies in X-Forwarded-For, right to left")
  void clientIp() {
    List<IpBlock> trusted = List.of(IpBlock.parse("127.0.0.1"), IpBlock.parse("10.0.0.0/8"));
    assertThat(ClientIp.of("127.0.0.1", List.of(), trusted)).isEqualTo("127.0.0.1");
    assertThat(ClientIp.of("203.0.113.9", List.of("198.51.100.1"), trusted)).as("an untrusted peer").isEqualTo(
        "203.0.113.9");
    assertThat(ClientIp.of("127.0.0.1", List.of("203.0.113.1, 198.51.100.23, 10.1.2.3"), trusted))
        .as("the first address a trusted proxy did not add; what lies further left, the client wrote")
        .isEqualTo("198.51.100.23");
    assertThat(ClientIp.of("127.0.0.1", List.of("198.51.100.5", "10.0.0.9, 10.0.0.8"), trusted))
        .isEqualTo("198.51.100.5");
    assertThat(ClientIp.of("127.0.0.1", List.of("10.0.0.7"), trusted)).isEqualTo("10.0.0.7");
    assertThat(ClientIp.of("127.0.0.1", List.of("junk, 10.0.0.7"), trusted)).isEqualTo("10.0.0.7");
    assertThat(ClientIp.of(null, List.of("198.51.100.5"), trusted)).isNull();
    assertThat(ClientIp.of("127.0.0.1", List.of("198.51.100.5"), List.of())).isEqualTo("127.0.0.1");
  }

  @Test
  @DisplayName("the ad ids of Meta's and TikTok's URL macros, first name found first; an unexpanded macro is none")
  void adIds() {
    ClickSession meta = ClickEnrichment.enrich(click(null, null, null, "https://lp.example/?campaign_id=111"
        + "&adset_id=222&adgroup_id=9&ad_id=333&creative_id=8&placement=Instagram_Stories&site_source_name=ig"), null);
    assertThat(meta.origin().ad()).isEqualTo(new JsonObject().put("campaign_id", "111").put("adset_id", "222")
        .put("ad_id", "333").put("placement", "Instagram_Stories"));
    ClickSession tiktok = ClickEnrichment.enrich(click(null, null, null, "https://lp.example/?campaign_id=__CAMPAIGN_ID__"
        + "&adgroup_id=888&creative_id=777&ad_group_id=1&site_source_name=tt&placement=%7B%7Bplacement%7D%7D"), null);
    assertThat(tiktok.origin().ad()).isEqualTo(new JsonObject().put("adset_id", "888").put("ad_id", "777")
        .put("placement", "tt"));
    assertThat(ClickEnrichment.enrich(click(null, null, null, "https://lp.example/?ad_group_id=5"), null)
        .origin().ad()).isEqualTo(new JsonObject().put("adset_id", "5"));
    assertThat(ClickEnrichment.enrich(click(null, null, null, "https://lp.example/?x=1"), null).origin().ad())
        .isNull();
    ClickSession named = ClickEnrichment.enrich(click(null, null, null, null)
        .withOrigin(new ClickSession.Origin(null, "bot_a", "@chan", "DE")), null);
    assertThat(named.origin()).isEqualTo(new ClickSession.Origin(null, "bot_a", "@chan", "DE"));
  }

  @Test
  @DisplayName("Google's and Snapchat's ids from the URL fill what the body left out; ScCid in any case; a bad one none")
  void googleAndSnapchatIds() {
    ClickSession filled = ClickEnrichment.enrich(click(null, null, null, "https://lp.example/?gclid=Cj0-url"
        + "&gbraid=0AAA-url&wbraid=1BBB-url&ScCid=snap-url&scid=not-read-from-urls"), null);
    assertThat(filled.ids()).isEqualTo(new ClickIds("Cj0-url", "0AAA-url", "1BBB-url", "snap-url", null));
    assertThat(ClickEnrichment.enrich(click(null, null, null, "https://lp.example/?SCCID=upper"), null).ids().sccid())
        .isEqualTo("upper");
    assertThat(ClickEnrichment.enrich(click(null, null, null, "https://lp.example/?sccid=lower"), null).ids().sccid())
        .isEqualTo("lower");
    ClickSession given = ClickEnrichment.enrich(click(null, null, null, "https://lp.example/?gclid=Cj0-url&ScCid=u")
        .withIds(new ClickIds("Cj0-body", null, null, null, "scid-body")), null);
    assertThat(given.ids()).as("the body's win; the URL fills the rest")
        .isEqualTo(new ClickIds("Cj0-body", null, null, "u", "scid-body"));
    assertThat(ClickEnrichment.enrich(click(null, null, null, "https://lp.example/?gclid=a%20b&sccid=c%00d"), null)
        .ids()).as("not valid ids").isEqualTo(ClickIds.NONE);
    ClickSession repeated = ClickEnrichment.enrich(click(null, null, null, "https://lp.example/?gclid=first"
        + "&gclid=second&ScCid=%3DHYPERLINK(%22x%22)&gbraid=" + "g".repeat(501)), null);
    assertThat(repeated.ids()).as("a repeated key: the first; a formula kept as data; too long: none")
        .isEqualTo(new ClickIds("first", null, null, "=HYPERLINK(\"x\")", null));
  }

  @Test
  @DisplayName("the ad ids of Google's ValueTrack names and Snapchat's macros; unexpanded ValueTrack is none")
  void googleAndSnapchatAdIds() {
    ClickSession google = ClickEnrichment.enrich(click(null, null, null, "https://lp.example/?campaignid=2001"
        + "&adgroupid=3001&creative=4001&placement={placement}"), null);
    assertThat(google.origin().ad()).isEqualTo(new JsonObject().put("campaign_id", "2001").put("adset_id", "3001")
        .put("ad_id", "4001"));
    ClickSession preview = ClickEnrichment.enrich(click(null, null, null, "https://lp.example/?campaignid=%7Bcampaignid%7D"
        + "&adset_id=%7B%7BadSet.id%7D%7D&ad_id=5"), null);
    assertThat(preview.origin().ad()).isEqualTo(new JsonObject().put("ad_id", "5"));
    ClickSession first = ClickEnrichment.enrich(click(null, null, null, "https://lp.example/?campaignid=2"
        + "&campaign_id=1&adgroupid=4&adset_id=3&creative=6&ad_id=5"), null);
    assertThat(first.origin().ad()).as("the networks' own names first")
        .isEqualTo(new JsonObject().put("campaign_id", "1").put("adset_id", "3").put("ad_id", "5"));
  }
}
