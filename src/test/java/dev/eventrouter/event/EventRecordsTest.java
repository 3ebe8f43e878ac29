package dev.eventrouter.event;

import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.List;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/** The domain records as they travel on the event bus: each survives the trip whole, with and without its options. */
class EventRecordsTest {

  private static final UUID WS = UUID.fromString("7c9e6679-7425-40de-944b-e07fc1f90ae7");

  @Test
  @DisplayName("an event's JSON keeps its exact value (as text), and its absence")
  void conversionEvent() {
    JsonObject userData = new JsonObject().put("email", "a@b.c");
    ConversionEvent priced = new ConversionEvent(WS, "FTD", 42, "s1", new BigDecimal("1E+3"), "EUR", userData, null);
    assertThat(priced.toJson().getValue("value")).isEqualTo("1000");
    ConversionEvent bare = new ConversionEvent(WS, "REG", 42, null, null, "USD", null, null);
    assertThat(bare.toJson().getValue("value", "absent")).isNull();
    assertThat(bare.contentHash()).as("no value and no user_data hash alike every time").isEqualTo(
        new ConversionEvent(WS, "REG", 42, null, null, "USD", null, null).contentHash());
    assertThat(bare.contentHash()).isNotEqualTo(
        new ConversionEvent(WS, "REG", 42, null, BigDecimal.ZERO, "USD", null, null).contentHash());
    assertThat(bare.contentHash()).isNotEqualTo(
        new ConversionEvent(WS, "REG", 42, null, null, "USD", new JsonObject(), null).contentHash());
  }

  @Test
  @DisplayName("an event's Limited Data Use choice is in its JSON and makes another event; unsaid, the digest is "
      + "the one events had before the field existed")
  void limitedDataUse() {
    ConversionEvent limited = new ConversionEvent(WS, "REG", 42, null, null, "USD", null, true);
    ConversionEvent notLimited = new ConversionEvent(WS, "REG", 42, null, null, "USD", null, false);
    ConversionEvent unsaid = new ConversionEvent(WS, "REG", 42, null, null, "USD", null, null);
    assertThat(limited.toJson().getBoolean("limited_data_use")).isTrue();
    assertThat(unsaid.toJson().getValue("limited_data_use", "absent")).isNull();
    assertThat(limited.contentHash()).isNotEqualTo(notLimited.contentHash()).isNotEqualTo(unsaid.contentHash());
    assertThat(notLimited.contentHash()).isNotEqualTo(unsaid.contentHash());
    // The canonical JSON of an event without the field, as the digest was made before it: sorted keys, no
    // limited_data_use. A key stored then still matches its retry after an upgrade.
    JsonObject before = new JsonObject(new java.util.TreeMap<>(unsaid.toJson().getMap()));
    before.remove("limited_data_use");
    assertThat(unsaid.contentHash()).isEqualTo(dev.eventrouter.common.Sha256.hex(before.encode()));
  }

  @Test
  @DisplayName("conversion status and transaction id: absent, they leave the digest what it was; given, they change it")
  void conversionFields() {
    ConversionEvent plain = new ConversionEvent(WS, "FTD", 42, null, BigDecimal.TEN, "USD", null, null);
    ConversionEvent nulls = new ConversionEvent(WS, "FTD", 42L, null, BigDecimal.TEN, "USD", null, null,
        null, null);
    assertThat(plain.toJson().containsKey("conversion_status")).isFalse();
    assertThat(plain.toJson().containsKey("transaction_id")).isFalse();
    assertThat(nulls.contentHash()).isEqualTo(plain.contentHash());
    assertThat(plain.status()).isEqualTo("approved");
    ConversionEvent pending = new ConversionEvent(WS, "FTD", 42L, null, BigDecimal.TEN, "USD", null, null,
        "pending", null);
    ConversionEvent withId = new ConversionEvent(WS, "FTD", 42L, null, BigDecimal.TEN, "USD", null, null,
        null, "T-1");
    assertThat(pending.toJson().getString("conversion_status")).isEqualTo("pending");
    assertThat(withId.toJson().getString("transaction_id")).isEqualTo("T-1");
    assertThat(pending.status()).isEqualTo("pending");
    assertThat(pending.contentHash()).isNotEqualTo(plain.contentHash()).isNotEqualTo(withId.contentHash());
    assertThat(withId.contentHash()).isNotEqualTo(plain.contentHash());
  }

  @Test
  @DisplayName("a postback survives the bus whole, a refused one with its outcome and detail")
  void postbackJson() {
    Postback postback = new Postback(WS, "casino", "GET", new JsonObject().put("subid", "s"), "s", "session_id",
        7L, "FTD", "pending", new BigDecimal("12.50"), "EUR", "T-1",
        Instant.parse("2026-11-24T10:00:00Z"), null, null, List.of("currency: split at a second '?' into value"));
    assertThat(Postback.fromJson(postback.toJson())).isEqualTo(postback);
    assertThat(Postback.fromJson(postback.toJson()).repairs())
        .containsExactly("currency: split at a second '?' into value");
    JsonObject fromOlderNode = postback.toJson();
    fromOlderNode.remove("repairs");
    assertThat(Postback.fromJson(fromOlderNode).repairs()).as("a node of the release before sends none").isEmpty();
    Postback refused = Postback.refused(WS, "casino", "POST", new JsonObject(), Postback.REFUSED, "why",
        Instant.parse("2026-11-24T10:00:00Z"), null);
    assertThat(Postback.fromJson(refused.toJson())).isEqualTo(refused);
    assertThat(refused.value()).isNull();
    assertThat(refused.repairs()).as("none: an empty list, never null").isEmpty();
  }

  @Test
  @DisplayName("a funnel query survives the bus whole: range, zone, groups, filters in order, currency, steps")
  void funnelQuery() {
    java.util.Map<String, java.util.List<String>> filters = new java.util.LinkedHashMap<>();
    filters.put("utm_source", java.util.List.of("fb", "ig"));
    filters.put("country", java.util.List.of(""));
    FunnelQuery query = new FunnelQuery(WS, Instant.parse("2026-11-01T23:00:00Z"),
        Instant.parse("2026-11-08T23:00:00Z"), java.time.ZoneId.of("Europe/Berlin"),
        java.util.List.of("campaign_id", "day"), java.util.Map.copyOf(filters), "EUR",
        java.util.List.of("REG", "FTD"), java.time.ZoneOffset.UTC);
    assertThat(FunnelQuery.fromJson(query.toJson())).isEqualTo(query);
    assertThat(FunnelQuery.DIMENSIONS).hasSize(12).doesNotContain(FunnelQuery.DAY);
  }

  @Test
  @DisplayName("click and invite sessions survive the bus whole; resolutions name their source")
  void sessions() {
    ClickSession click = new ClickSession(WS, "s1", "fbclid", "fb.1.1.fbclid", "fb.1.1.2", "ttclid", "ttp",
        "203.0.113.9", "Mozilla/5.0", "https://x.example/", Instant.parse("2026-11-20T10:00:00Z"),
        new JsonObject().put("utm_source", "fb"));
    assertThat(ClickSession.fromJson(click.toJson())).isEqualTo(click);
    InviteSession invite = new InviteSession(WS, 42, "s1", "https://t.me/+abc");
    assertThat(InviteSession.fromJson(invite.toJson())).isEqualTo(invite);
    assertThat(invite.via()).isEqualTo(InviteSession.API);
    ClickSession.Origin origin = new ClickSession.Origin(new JsonObject().put("ad_id", "333"), "bot_a", "@chan",
        "DE");
    assertThat(ClickSession.fromJson(click.withOrigin(origin).toJson()).origin()).isEqualTo(origin);
    assertThat(click.withOrigin(origin).withOrigin(ClickSession.Origin.NONE)).isEqualTo(click);
    ClickIds ids = new ClickIds("gclid", "gbraid", "wbraid", "sccid", "scid");
    assertThat(ClickSession.fromJson(click.withIds(ids).withOrigin(origin).toJson()).ids()).isEqualTo(ids);
    assertThat(ClickSession.fromJson(click.toJson()).ids()).isEqualTo(ClickIds.NONE);
    InviteSession joined = new InviteSession(WS, 42, "s1", null, InviteSession.JOIN, "bot_a", "-100123");
    assertThat(InviteSession.fromJson(joined.toJson())).isEqualTo(joined);
    assertThat(Resolution.supplied("s1")).isEqualTo(new Resolution("s1", Resolution.SUPPLIED));
    assertThat(Resolution.none()).isEqualTo(new Resolution(null, Resolution.NONE));
  }

  @Test
  @DisplayName("an events filter crosses the bus whole, its absent fields as absent")
  void eventFilter() {
    EventFilter full = new EventFilter(WS, "FTD", "none", 42L, "meta-main", List.of("failed", "expired"), 10, 20, 50, true);
    assertThat(EventFilter.fromJson(full.toJson())).isEqualTo(full);
    EventFilter bare = new EventFilter(WS, null, null, null, null, null, 1, 2, 3, false);
    assertThat(EventFilter.fromJson(bare.toJson())).isEqualTo(bare);
  }
}
