package dev.eventrouter.config;

import io.vertx.core.json.JsonObject;

import java.util.Set;

/**
 * The {@code reports} section. How many reports may run at once is bounded by the read pool's connections
 * ({@link DatabaseConfig#readPoolSize}), and by default is that many, half of them for one workspace: a report holds
 * two of the report pool's (twice the read pool's) at most while it runs, so the caps keep reports from ever waiting
 * for one.
 */
final class ReportsParser {

  private static final Set<String> KEYS = Set.of("rates_file", "rollup_every_ms", "rollup_lag_ms", "retention_days",
      "rollup_budget_percent", "max_concurrent", "max_concurrent_per_workspace", "cohorts",
      "reconcile_lookback_hours");

  private final JsonReader r;

  ReportsParser(JsonReader reader) {
    this.r = reader;
  }

  ReportsConfig reports(JsonObject json, DatabaseConfig database) {
    r.unknownKeys(json, "reports", KEYS);
    ReportsConfig d = ReportsConfig.DEFAULT;
    int connections = database.readPoolSize();
    int perNode = (int) r.integer(json, "max_concurrent", "reports.max_concurrent", connections, 1, connections);
    return new ReportsConfig(r.string(json, "rates_file", "reports.rates_file", d.ratesFile()),
        r.integer(json, "rollup_every_ms", "reports.rollup_every_ms", d.rollupEveryMs(), 100, 3_600_000),
        r.integer(json, "rollup_lag_ms", "reports.rollup_lag_ms", d.rollupLagMs(), 0, 3_600_000),
        (int) r.integer(json, "retention_days", "reports.retention_days", d.retentionDays(), 1, 3650),
        (int) r.integer(json, "rollup_budget_percent", "reports.rollup_budget_percent", d.rollupBudgetPercent(), 1,
            100),
        perNode,
        (int) r.integer(json, "max_concurrent_per_workspace", "reports.max_concurrent_per_workspace",
            Math.max(1, perNode / 2), 1, perNode),
        r.bool(json, "cohorts", "reports.cohorts", d.cohorts()),
        (int) r.integer(json, "reconcile_lookback_hours", "reports.reconcile_lookback_hours",
            d.reconcileLookbackHours(), 1, 168));
  }
}
