package dev.eventrouter.event;

import java.math.BigDecimal;
import java.time.LocalDate;
import java.util.List;
import java.util.Map;

/**
 * What one ad object (a campaign, an ad set or an ad) cost on one day of its account's zone, as a platform reported
 * it or a buyer's tool pushed it. Spend is in {@code currency}, major units. Names, the parents' ids, impressions,
 * clicks and the platform's own conversion counts are null where the source has none.
 *
 * @param level    {@link #CAMPAIGN}, {@link #ADSET} or {@link #AD}: which of the click's ids {@code objectId} is
 * @param day      the date in {@code zone}, the account's zone, which the report joins to the clicks' local days
 * @param zone     an IANA zone id (or a fixed offset such as {@code +10:00})
 * @param actions  the platform's own attributed conversions by action type (Meta's {@code actions}, TikTok's
 *                 {@code conversion}), to show beside what was delivered
 */
public record SpendRow(String level, String objectId, LocalDate day, String zone, String currency, BigDecimal spend,
                       String campaignId, String campaignName, String adsetId, String adsetName, String adName,
                       Long impressions, Long clicks, Map<String, Long> actions) {

  public static final String CAMPAIGN = "campaign";
  public static final String ADSET = "adset";
  public static final String AD = "ad";
  /** The levels, as the click's ids are named ({@code campaign_id}, {@code adset_id}, {@code ad_id}). */
  public static final List<String> LEVELS = List.of(CAMPAIGN, ADSET, AD);

  public SpendRow {
    actions = actions == null ? Map.of() : Map.copyOf(actions);
  }

  /** A pushed row: the object's cost on a day, nothing else known. */
  public static SpendRow pushed(String level, String objectId, LocalDate day, String zone, String currency,
                                BigDecimal spend) {
    return new SpendRow(level, objectId, day, zone, currency, spend, null, null, null, null, null, null, null, null);
  }
}
