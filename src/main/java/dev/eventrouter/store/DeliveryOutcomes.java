package dev.eventrouter.store;

import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;

import java.time.Instant;
import java.util.List;

/**
 * What becomes of claimed deliveries once their network has answered (the statements are
 * {@code DeliveryOutcomeStore}'s, reached through {@link DeliveryStore}): what a sending channel needs, so its policy
 * can be tested against a recording double. An outcome of a request stores
 * {@code payloads[i]}, the request body as it carried {@code jobs[i]}, so the event debugger shows what was sent.
 */
public interface DeliveryOutcomes {

  /** Accepted; {@code matchKeys[i]} is the bit mask of the match keys {@code jobs[i]} carried (see MatchKeys). */
  Future<Void> delivered(List<ClaimedDelivery> jobs, List<JsonObject> payloads, int[] matchKeys);

  /** Tried again at {@code nextAttempt}; the attempt is counted. */
  Future<Void> retry(List<ClaimedDelivery> jobs, List<JsonObject> payloads, String error, Instant nextAttempt);

  /** Refused for good; re-queued only by a redeliver. */
  Future<Void> failed(List<ClaimedDelivery> jobs, List<JsonObject> payloads, String error);

  /**
   * Sent and accepted, but the network acknowledged fewer of the request's events than were sent and not which:
   * none is called delivered. Re-queued only by a redeliver (the networks deduplicate on event_id).
   */
  Future<Void> unconfirmed(List<ClaimedDelivery> jobs, List<JsonObject> payloads, String reason);

  /** Not sent (the breaker is open): due again at {@code until}, without spending an attempt. */
  Future<Void> defer(List<ClaimedDelivery> jobs, Instant until);

  /**
   * The network refused the token or permissions: pauses the integration (when not paused yet) and holds these
   * deliveries and every other one of it still to send. Completes with true for the call that paused it.
   */
  Future<Boolean> pause(Pause pause, List<ClaimedDelivery> jobs);

  /** Held without a request, because their integration is paused; the attempt is not counted. */
  Future<Void> hold(List<ClaimedDelivery> jobs, String reason);
}
