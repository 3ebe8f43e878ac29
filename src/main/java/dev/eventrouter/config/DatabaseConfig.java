package dev.eventrouter.config;

import java.nio.file.Path;

/**
 * @param url            an external PostgreSQL ({@code postgresql://user:pass@host:port/db}); null starts the embedded one
 * @param dataDir        the embedded server's data directory, kept across restarts
 * @param poolSize       connections of the write pool (the read and report pools have {@link #readPoolSize})
 * @param writeBatchSize most events gathered into one group commit
 * @param writeLingerMs  how long the first event of a group commit waits for company
 * @param maxPendingWrites events waiting for a commit before new ones are refused with 503
 * @param retentionDays  days events and their deliveries are kept; older days are dropped whole
 */
public record DatabaseConfig(String url, Path dataDir, int poolSize, int writeBatchSize, long writeLingerMs,
                             int maxPendingWrites, int retentionDays) {

  /** Longer than the networks accept events (7 days) plus the day being written: a retrying delivery is never cut. */
  public static final int MIN_RETENTION_DAYS = 8;
  public static final int DEFAULT_RETENTION_DAYS = 30;

  /**
   * Connections of the read pool (lookups, lists, the readiness probe): half the write pool's, at least 2. The report
   * pool has twice as many: a report reads its sums and its cost side by side.
   */
  public int readPoolSize() {
    return Math.max(2, poolSize / 2);
  }

  public boolean embedded() {
    return url == null;
  }

  /** Never print the password of the URL. */
  @Override
  public String toString() {
    return "DatabaseConfig[" + (embedded() ? "embedded at " + dataDir : "external") + "]";
  }
}
