package dev.eventrouter.config;

import dev.eventrouter.common.ProxyConfig;

import java.time.ZoneId;

/**
 * One ad account whose spend a workspace imports (docs/costs.md).
 *
 * @param kind                {@link #META} or {@link #TIKTOK}
 * @param account             Meta's ad account id with its {@code act_} prefix, or TikTok's advertiser id
 * @param accessToken         a Meta System User token with {@code ads_read}, or TikTok's long-term advertiser token
 * @param apiVersion          Meta's Graph API version; null for TikTok
 * @param zone                the zone TikTok's report dates its days in (TikTok's documentation is unclear whether it
 *                            is the advertiser's zone or UTC, so the buyer says); null for Meta, which reports the
 *                            account's zone itself
 * @param pollIntervalMinutes how often the source is read
 * @param lookbackDays        the days before today each poll reads again (the platforms revise spend afterwards)
 * @param initialDays         the days before today the first poll reads
 */
public record CostSourceConfig(String id, String kind, String account, String accessToken, String apiBase,
                               String apiVersion, ZoneId zone, ProxyConfig proxy, boolean allowPrivateNetwork,
                               int pollIntervalMinutes, int lookbackDays, int initialDays, boolean enabled) {

  public static final String META = "meta";
  public static final String TIKTOK = "tiktok";
  public static final int DEFAULT_POLL_INTERVAL_MINUTES = 30;
  public static final int DEFAULT_LOOKBACK_DAYS = 3;
  public static final int DEFAULT_INITIAL_DAYS = 30;

  @Override
  public String toString() {
    return "CostSourceConfig[" + id + " " + kind + " " + account + "]"; // never the token
  }
}
