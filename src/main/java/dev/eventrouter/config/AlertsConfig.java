package dev.eventrouter.config;

import java.time.Duration;
import java.util.List;

/**
 * A workspace's alerts: where they go and which conditions raise them. A condition set to null is off.
 *
 * @param targets            the Telegram chats and webhooks every alert goes to; none: no alerts
 * @param summaryPeriod      after a message, what else happens to the same condition within this period is told in
 *                           one summary at its end, not message by message
 * @param integrationPaused  whether an integration paused on a refused token (and its resume) is told
 * @param breakerOpen        how long an integration's circuit breaker stays open before it is told
 * @param deliveriesFailed   deliveries that ended failed or expired, per integration
 * @param conversionsStopped no event for some hours where the same hours of the previous days had some
 * @param postbacksUnmatched postbacks kept unmatched (no session or conversion found), per postback source
 * @param postbackMacros     postbacks refused because the partner left a macro unexpanded, per postback source
 * @param invitePoolEmpty    how long a channel's pool of per-visitor invite links stays empty before it is told
 * @param costSourceFailed   how long a cost source's polls fail before it is told (a paused one is told at once)
 * @param networkUndercounts yesterday a network counted under the workspace's reconcile threshold of what was
 *                           delivered to it (off unless set)
 */
public record AlertsConfig(List<AlertTarget> targets, Duration summaryPeriod, boolean integrationPaused,
                           Duration breakerOpen, Window deliveriesFailed, Quiet conversionsStopped,
                           Window postbacksUnmatched, Window postbackMacros, Duration invitePoolEmpty,
                           Duration costSourceFailed, Undercounts networkUndercounts) {

  /** A count condition: it holds while at least {@code minCount} happened within the last {@code window}. */
  public record Window(Duration window, long minCount) {}

  /**
   * No event in the last {@code hours}, while the same hours had at least one on each of {@code days} of the 7 days
   * before.
   */
  public record Quiet(int hours, int days) {}

  /** A network's count of yesterday under the threshold, once at least {@code minDelivered} were delivered to it. */
  public record Undercounts(long minDelivered) {}

  public static final AlertsConfig NONE = new AlertsConfig(List.of(), Duration.ofHours(1), false, null, null, null,
      null, null, null, null, null);

  public AlertsConfig {
    targets = List.copyOf(targets);
  }

  public boolean enabled() {
    return !targets.isEmpty();
  }
}
