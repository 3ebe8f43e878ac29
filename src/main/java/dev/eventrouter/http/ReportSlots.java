package dev.eventrouter.http;

import dev.eventrouter.config.ReportsConfig;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;

import java.util.HashMap;
import java.util.Map;
import java.util.UUID;

/**
 * The funnel reports running on this node, shared by its HttpVerticle instances: at most
 * {@code reports.max_concurrent}, and {@code reports.max_concurrent_per_workspace} of one workspace. A report beyond
 * either is refused (429) before it is asked for, so reports never queue for the report pool's connections and one
 * workspace's cannot take them all. A report's slot is held until its answer comes back (or its requester is told
 * 503).
 */
public final class ReportSlots {

  /** Seconds a refused report is asked to wait: a report takes a fraction of one, at most a few. */
  static final long RETRY_AFTER_S = 1;

  /** Each workspace's running reports: an entry per workspace that ever asked, the configured ones at most. */
  private final Map<UUID, Integer> byWorkspace = new HashMap<>();
  private int running;
  private int perNode;
  private int perWorkspace;

  public ReportSlots(ReportsConfig config) {
    limit(config);
  }

  /** The limits of a reloaded config: reports running beyond lower ones finish, and no more start meanwhile. */
  public synchronized void limit(ReportsConfig config) {
    perNode = config.maxConcurrent();
    perWorkspace = config.maxConcurrentPerWorkspace();
  }

  /** A gauge of the reports running, beside the bound in the config. */
  public ReportSlots bindTo(MeterRegistry metrics) {
    Gauge.builder("event_router.reports.running", this, ReportSlots::running)
        .description("funnel reports running on this node (bound: reports.max_concurrent)").register(metrics);
    return this;
  }

  public synchronized int running() {
    return running;
  }

  /** Takes a slot for a report of the workspace, or refuses it: 429, the limit reached named. */
  public synchronized void take(UUID workspace) {
    int own = byWorkspace.getOrDefault(workspace, 0);
    if (own >= perWorkspace) {
      throw refused("This workspace runs as many reports at once as it may on this node "
          + "(reports.max_concurrent_per_workspace: " + perWorkspace + ")");
    }
    if (running >= perNode) {
      throw refused("This node runs as many reports at once as it may (reports.max_concurrent: " + perNode + ")");
    }
    byWorkspace.put(workspace, own + 1);
    running++;
  }

  /** Gives back the slot of a report of the workspace, once it is answered. */
  public synchronized void release(UUID workspace) {
    byWorkspace.merge(workspace, -1, Integer::sum);
    running--;
  }

  private static ApiException refused(String why) {
    return new ApiException(ErrorCode.RATE_LIMITED, why + "; retry after the Retry-After delay.", null,
        RETRY_AFTER_S);
  }
}
