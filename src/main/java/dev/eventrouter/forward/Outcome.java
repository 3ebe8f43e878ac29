package dev.eventrouter.forward;

import java.util.List;

/** What a network's answer means for the events of the request. */
public sealed interface Outcome {

  /** Accepted. */
  record Delivered() implements Outcome {}

  /** Try again later: rate limits, outages, timeouts. {@code retryAfterMs} from Retry-After, or 0. */
  record Retry(String error, long retryAfterMs) implements Outcome {}

  /** Refused for good (for these events). */
  record Failed(String error) implements Outcome {}

  /** One event of the request is invalid and the network refused them all: split to find it. */
  record InvalidData(String error) implements Outcome {}

  /** The token or the permissions are wrong: every event fails, splitting would not help. */
  record Unauthorized(String error) implements Outcome {}

  /**
   * Accepted, but the network acknowledged fewer events than were sent (Meta's events_received, TikTok's 20001
   * partial success) without saying which: none of them is called delivered.
   */
  record Unconfirmed(String error) implements Outcome {}

  /**
   * The network judged each event of the request on its own (Google's partial failure): {@code each[i]} is the
   * outcome of the request's i-th event, never itself per event.
   */
  record PerEvent(List<Outcome> each) implements Outcome {}
}
