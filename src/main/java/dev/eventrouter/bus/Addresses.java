package dev.eventrouter.bus;

/**
 * Every event-bus address of the service, in one place. Messages are JSON objects, except the ingest request and its
 * reply: sent local-only, they travel as records ({@link LocalCodec}).
 */
public final class Addresses {

  /** HttpVerticle -> SessionVerticle: an {@link IngestRequest}, answered with an {@link IngestReply} once stored. */
  public static final String EVENTS_INGEST = "event-router.events.ingest";
  /** HttpVerticle -> ReadVerticle: an {@link EventRef}, answered with the stored event or 404. */
  public static final String EVENTS_GET = "event-router.events.get";
  /** HttpVerticle -> ReadVerticle: an EventFilter, answered with a page of events, newest first. */
  public static final String EVENTS_LIST = "event-router.events.list";
  /** HttpVerticle -> SessionVerticle: a ClickSession, answered once stored. */
  public static final String SESSIONS_CAPTURE = "event-router.sessions.capture";
  /** HttpVerticle -> SessionVerticle: an InviteSession, answered once stored. */
  public static final String SESSIONS_INVITE = "event-router.sessions.invite";

  /**
   * HttpVerticle -> SessionVerticle: {@code {"workspace_id", "chat_id", "session_id"}}, answered with
   * {@code {"invite_link"}}: the session's own invite link of the channel, taken from the pool (null when empty).
   */
  public static final String SESSIONS_INVITE_LINK = "event-router.sessions.invite-link";
  /** HttpVerticle -> SessionVerticle: a {@link TelegramUpdate}, answered once what it leaves to do is queued. */
  public static final String TELEGRAM_UPDATE = "event-router.telegram.update";
  /** Published when the Telegram outbox has work, to wake the TelegramVerticles (any node may claim it). */
  public static final String TELEGRAM_DUE = "event-router.telegram.due";
  /**
   * Published with a workspace id when a capture took an invite link from its pool (or found it empty), so a
   * TelegramVerticle makes new ones ahead of the next captures.
   */
  public static final String TELEGRAM_LINK_TAKEN = "event-router.telegram.link-taken";

  /** HttpVerticle -> SessionVerticle: an {@link EventRef}, re-queues its failed, expired or unconfirmed deliveries. */
  public static final String EVENTS_REDELIVER = "event-router.events.redeliver";

  /** HttpVerticle -> ReadVerticle: a DeliveryFilter, answered with the matching deliveries. */
  public static final String DELIVERIES_LIST = "event-router.deliveries.list";

  /** HttpVerticle -> SessionVerticle: a DeliveryFilter, re-queues the matching failed, expired or unconfirmed ones. */
  public static final String DELIVERIES_REDELIVER = "event-router.deliveries.redeliver";

  /**
   * HttpVerticle -> ReadVerticle: {@code {"workspace_id", "from_event_id"}}, answered with the workspace's
   * integrations as their deliveries since then show them (states, match-key coverage) and their pauses.
   */
  public static final String INTEGRATIONS_SUMMARY = "event-router.integrations.summary";

  /**
   * Published, cluster-wide, when an integration's circuit breaker opens on a node: a {@code BreakerOpened}. Every
   * forwarder of that network opens its own breaker for the integration too, so the nodes back off together instead of
   * each finding the network down by itself. Safe to lose: a node that misses it finds out on its own.
   */
  public static final String BREAKER_OPENED = "event-router.breakers.opened";

  /**
   * Published, cluster-wide, when a node applied a changed config file: the others read theirs now instead of at
   * their next scan, so a change rolled out to every node's file takes effect on all of them together. The body is
   * the sender's own marker, so it ignores its own notice. Safe to lose: each node still scans its file.
   */
  public static final String CONFIG_RELOADED = "event-router.config.reloaded";

  /**
   * HttpVerticle -> ConversionVerticle: a partner's postback (a {@code Postback} as JSON), answered with the short
   * answer the partner gets once it is logged (and, when it matched, its conversion stored).
   */
  public static final String POSTBACKS_RECORD = "event-router.postbacks.record";

  /**
   * HttpVerticle -> ConversionVerticle: {@code {"workspace_id", "before", "outcome", "limit"}}, answered with a page
   * of the workspace's postbacks, newest first.
   */
  public static final String POSTBACKS_LIST = "event-router.postbacks.list";

  /**
   * Published to this node by the SessionVerticle when it stored a click or invite session
   * ({@code {"workspace_id", "session_id"}}): the ConversionVerticle matches the postbacks that waited for it. Safe
   * to lose: its periodic sweep finds them too.
   */
  public static final String SESSIONS_SAVED = "event-router.sessions.saved";

  /**
   * HttpVerticle -> ConversionVerticle: {@code {"workspace_id", "telegram_id"}}, a subscriber left the workspace's
   * channel; answered once their JoinRequest conversion (if one is within the unsubscribe window) is rejected.
   */
  public static final String TELEGRAM_LEFT = "event-router.telegram.left";

  /**
   * HttpVerticle -> ReadVerticle: a {@code FunnelQuery}, answered with the funnel report read from the rollups (rows,
   * totals, how far the rollups reach).
   */
  public static final String REPORTS_FUNNEL = "event-router.reports.funnel";

  /**
   * HttpVerticle -> ReadVerticle: a {@code CohortQuery}, answered with the cohort report (revenue and payers by days
   * since the click, cost, ROAS) read from the cohort rollups.
   */
  public static final String REPORTS_COHORTS = "event-router.reports.cohorts";

  /**
   * HttpVerticle -> ReadVerticle: a {@code ReconcileQuery}, answered with what was delivered to a network beside the
   * network's own counts.
   */
  public static final String REPORTS_RECONCILE = "event-router.reports.reconcile";

  /** HttpVerticle -> CostStoreVerticle: a {@link SpendPush}, answered once stored with the rows it holds. */
  public static final String COSTS_PUSH = "event-router.costs.push";

  /**
   * HttpVerticle -> CostStoreVerticle: {@code {workspace_id}}, answered with the state of each of its cost sources
   * and what each source's rows cover, pushed sources too.
   */
  public static final String COST_SOURCES_LIST = "event-router.costs.sources";

  /** HttpVerticle -> CostStoreVerticle: {@code {workspace_id, source_id}}, making the source due now (and unpaused). */
  public static final String COST_SOURCES_POLL = "event-router.costs.poll";

  /**
   * HttpVerticle -> ReadVerticle: {@code {workspace_id, source_ids}}, answered with the campaigns of the spend
   * imported from those cost sources: the campaigns a buyer's ad accounts name.
   */
  public static final String SCOPE_CAMPAIGNS = "event-router.access.scope-campaigns";

  /**
   * Any node -> SessionVerticle: an action done or a config applied ({@code {workspace_id, key_name, action, target,
   * outcome}}), written to the audit log; answered once written.
   */
  public static final String AUDIT_RECORD = "event-router.audit.record";

  /** HttpVerticle -> ReadVerticle: {@code {workspace_id, before, limit}}, answered with a page of the audit log. */
  public static final String AUDIT_LIST = "event-router.audit.list";

  /**
   * HttpVerticle -> SessionVerticle: {@code {workspace_id, integration_id, network, paused, reason}}, pausing an
   * integration by hand or ending its pause, answered with whether anything changed.
   */
  public static final String INTEGRATION_PAUSE = "event-router.integrations.pause";

  /**
   * Published when an integration was paused or resumed by hand: the network's forwarders read the pauses now,
   * rather than at their next round.
   */
  public static final String PAUSES_CHANGED = "event-router.integrations.pauses-changed";

  /** Published when deliveries of a network are due, to wake its ForwarderVerticles (any node may claim them). */
  public static String deliveriesDue(String network) {
    return "event-router.deliveries.due." + network;
  }

  /**
   * HttpVerticle -> a ForwarderVerticle of the network, on any node (a node without the forward role has none): a
   * {@link CredentialTest}, answered with the network's verdict on one test event.
   */
  public static String integrationTest(String network) {
    return "event-router.integrations.test." + network;
  }

  private Addresses() {}
}
