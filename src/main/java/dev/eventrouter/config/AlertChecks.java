package dev.eventrouter.config;

/**
 * The service's side of the alerts (the top-level {@code alerts}): how often their conditions are checked. Each
 * workspace chooses its own targets and conditions ({@link AlertsConfig}).
 *
 * @param everyMs how often a round evaluates every workspace's conditions (one node's round per interval)
 */
public record AlertChecks(long everyMs) {

  public static final AlertChecks DEFAULT = new AlertChecks(30_000);
}
