package dev.eventrouter.config;

/**
 * The funnel report's upkeep, and how many run at once.
 *
 * @param ratesFile     the operator's exchange-rates file (the ECB's CSV form), read at start and whenever it
 *                      changes; null for none (revenue in another currency than the report's is then unconverted)
 * @param rollupEveryMs how often a round adds what was written to the rollups
 * @param rollupLagMs   how old a write must be before a round takes it: longer than any write takes to commit
 * @param retentionDays how long the hourly rollups are kept
 * @param rollupBudgetPercent the most of the time rounds may take while the host is busy (100: no limit), so under
 *                      heavy load the report falls behind instead of the ingest rate
 * @param maxConcurrent reports running at once on a node, at most the read pool's connections; one more is
 *                      answered 429
 * @param maxConcurrentPerWorkspace reports of one workspace running at once on a node, so one workspace's reports
 *                      cannot take every report connection
 * @param cohorts       whether the rounds keep the cohorts (revenue by days since the click); off, the cohorts stop
 *                      where they are (the cohort report's reach says so) and catch up once turned on again
 * @param reconcileLookbackHours the hours of events whose deliveries each recount of what was delivered counts
 *                      again (docs/reports.md#reconcile); a delivery that succeeds later than that is not counted
 */
public record ReportsConfig(String ratesFile, long rollupEveryMs, long rollupLagMs, int retentionDays,
                            int rollupBudgetPercent, int maxConcurrent, int maxConcurrentPerWorkspace,
                            boolean cohorts, int reconcileLookbackHours) {

  /** With the default database's pool (8 connections: a read pool of 4, and a report pool of 8). */
  public static final ReportsConfig DEFAULT = new ReportsConfig(null, 15_000, 60_000, 400, 3, 4, 2, true);

  /** With the default reconciliation. */
  public ReportsConfig(String ratesFile, long rollupEveryMs, long rollupLagMs, int retentionDays,
                       int rollupBudgetPercent, int maxConcurrent, int maxConcurrentPerWorkspace, boolean cohorts) {
    this(ratesFile, rollupEveryMs, rollupLagMs, retentionDays, rollupBudgetPercent, maxConcurrent,
        maxConcurrentPerWorkspace, cohorts, 48);
  }
}
