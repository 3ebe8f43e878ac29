package dev.eventrouter.config;

/**
 * The funnel report's upkeep.
 *
 * @param ratesFile     the operator's exchange-rates file (the ECB's CSV form), read at start and whenever it
 *                      changes; null for none (revenue in another currency than the report's is then unconverted)
 * @param rollupEveryMs how often a round adds what was written to the rollups
 * @param rollupLagMs   how old a write must be before a round takes it: longer than any write takes to commit
 * @param retentionDays how long the hourly rollups are kept
 */
public record ReportsConfig(String ratesFile, long rollupEveryMs, long rollupLagMs, int retentionDays) {

  public static final ReportsConfig DEFAULT = new ReportsConfig(null, 15_000, 60_000, 400);
}
