package dev.eventrouter.alert;

/**
 * The conditions a workspace can be alerted of, with what their messages say. In the texts, {@code {s}} is the
 * subject (an integration as network/id, a postback source, a channel), {@code {n}} how many in the window,
 * {@code {window}} the
 * condition's window or hold, and {@code {detail}} the latest words of the network, Telegram or the partner.
 */
enum AlertCondition {

  INTEGRATION_PAUSED("integration_paused",
      "{s} is paused: the network refused its token or permissions ({detail}). Its deliveries are held until its "
          + "access_token is changed.",
      "{s} resumed: its held deliveries go out now."),
  BREAKER_OPEN("breaker_open",
      "{s}: circuit breaker open for over {window}, its deliveries wait. Last failure: {detail}",
      "{s}: circuit breaker closed, deliveries go out again."),
  DELIVERIES_FAILED("deliveries_failed",
      "{s}: failed or expired deliveries in the last {window}: {n}. Last error: {detail}",
      "{s}: no failed delivery in the last {window}."),
  CONVERSIONS_STOPPED("conversions_stopped",
      "no conversions in the last {window}, though the same hours had some on the days before.",
      "conversions are coming in again."),
  POSTBACKS_UNMATCHED("postbacks_unmatched",
      "postback source {s}: postbacks in the last {window} that matched no session or conversion: {n}.",
      "postback source {s}: no unmatched postback in the last {window}."),
  POSTBACK_MACROS("postback_macros",
      "postback source {s}: postbacks in the last {window} with an unexpanded macro ({detail}): {n}. Check the "
          + "postback URL in the partner's settings.",
      "postback source {s}: no unexpanded macro in the last {window}."),
  INVITE_POOL_EMPTY("invite_pool_empty",
      "channel {s}: no per-visitor invite link left for over {window}, so new visitors' joins are not attributed. "
          + "Telegram: {detail}",
      "channel {s}: per-visitor invite links are made again."),
  COST_SOURCE_FAILED("cost_source_failed",
      "cost source {s}: its ad spend is not imported ({detail}). A refused token pauses it until its access_token "
          + "is changed; anything else is tried again.",
      "cost source {s}: its ad spend is imported again."),
  NETWORK_UNDERCOUNTS("network_undercounts",
      "{s}: yesterday the network counted {detail}. Check the pixel, its token and the event mapping: the Reconcile "
          + "view shows which ads.",
      "{s}: the network's count of yesterday is back above the threshold.");

  final String id;
  final String firing;
  final String resolved;

  AlertCondition(String id, String firing, String resolved) {
    this.id = id;
    this.firing = firing;
    this.resolved = resolved;
  }

  static AlertCondition of(String id) {
    for (AlertCondition condition : values()) {
      if (condition.id.equals(id)) {
        return condition;
      }
    }
    return null;
  }
}
