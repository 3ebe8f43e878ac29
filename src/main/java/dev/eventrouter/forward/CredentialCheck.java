package dev.eventrouter.forward;

import dev.eventrouter.common.CheckedRequests;
import dev.eventrouter.config.IntegrationConfig;
import dev.eventrouter.config.WorkspaceConfig;
import dev.eventrouter.event.ClickData;
import dev.eventrouter.event.EventIds;
import dev.eventrouter.event.EventMap;
import dev.eventrouter.event.EventMapping;
import dev.eventrouter.store.ClaimedDelivery;
import io.vertx.core.json.JsonObject;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.concurrent.ThreadLocalRandom;

/**
 * A credential test: one test event, built as a real one would be, sent through an integration outside the outbox
 * and its breaker, and the network's answer as the network worded it (its credentials, should it quote them,
 * redacted).
 * The integration's test_event_code makes the network show the event in its test tool; Meta still counts test
 * events (https://developers.facebook.com/docs/marketing-api/conversions-api/using-the-api#testEvents), so only one
 * is sent per call.
 */
final class CredentialCheck {

  /** What the test event carries as the user: a fixed Telegram id, the same on every test. */
  static final long TEST_TELEGRAM_ID = 1;
  static final String TEST_EXTERNAL_ID = "event-router-credential-test";
  /** The value of a monetary test event: networks refuse a purchase without one. */
  static final BigDecimal TEST_VALUE = BigDecimal.ONE;
  static final String TEST_CURRENCY = "USD";
  /** A longer text of an answer is cut: the verdict is in its first lines. */
  static final int MAX_TEXT_CHARS = 2_000;

  private CredentialCheck() {}

  /** The test event as a claimed delivery: named as the workspace maps {@code eventName}, received now. */
  static ClaimedDelivery job(WorkspaceConfig workspace, IntegrationConfig integration, String eventName,
                             Instant now, ClickData click) {
    EventMapping mapping = EventMap.mapping(workspace, eventName);
    // An id of this instant, its node and sequence bits random: unique enough for a test, and never an id of ours.
    long eventId = EventIds.firstIdAt(now) | ThreadLocalRandom.current().nextLong(1L << 22);
    return new ClaimedDelivery(0, eventId, workspace.id(), integration.id(), eventName,
        EventMap.nameFor(workspace, integration, eventName), 0, TEST_TELEGRAM_ID, null,
        mapping.monetary() ? TEST_VALUE : null, TEST_CURRENCY,
        new JsonObject().put("external_id", TEST_EXTERNAL_ID), now, click, null);
  }

  /**
   * The verdict: {@code accepted}, {@code unauthorized} (the token or its permissions), {@code refused} (the event
   * or the config), {@code unconfirmed} (accepted, yet not counted as received), or {@code unavailable} (an outage,
   * a rate limit, no answer), with the HTTP status and, when the body was the network's own answer, its documented
   * fields ({@link NetworkApi#answer}): any other body (an HTML page, a webhook receiver's) is never passed on.
   */
  static JsonObject answered(ClaimedDelivery job, IntegrationConfig integration, Outcome outcome, int status,
                             JsonObject networkAnswer) {
    JsonObject verdict = verdict(job, integration, outcome).put("http_status", status);
    if (networkAnswer == null) {
      return verdict.put("response", null);
    }
    String text = Redact.secrets(networkAnswer.encode(), integration);
    return verdict.put("response", cut(new JsonObject(text)));
  }

  /** Each text of the answer cut to its first {@link #MAX_TEXT_CHARS} characters. */
  private static JsonObject cut(JsonObject answer) {
    JsonObject cut = new JsonObject();
    answer.forEach(field -> cut.put(field.getKey(), field.getValue() instanceof String text
        ? text.substring(0, Math.min(text.length(), MAX_TEXT_CHARS))
        : field.getValue() instanceof JsonObject inner ? cut(inner) : field.getValue()));
    return cut;
  }

  /** No answer came: the request failed or timed out. */
  static JsonObject unanswered(ClaimedDelivery job, IntegrationConfig integration, String why) {
    return verdict(job, integration, new Outcome.Retry(Redact.secrets(why, integration), 0));
  }

  /** Not sent: the URL goes where the integration may not send ({@link CheckedRequests.Refused}). */
  static JsonObject notSent(ClaimedDelivery job, IntegrationConfig integration, String why) {
    return verdict(job, integration, new Outcome.Failed(why));
  }

  private static JsonObject verdict(ClaimedDelivery job, IntegrationConfig integration, Outcome answered) {
    // A test is one event: a verdict per event is its own.
    Outcome outcome = answered instanceof Outcome.PerEvent each ? each.each().get(0) : answered;
    String verdict = "refused";
    String message = null;
    if (outcome instanceof Outcome.Delivered) {
      verdict = "accepted";
    } else if (outcome instanceof Outcome.Unauthorized refused) {
      verdict = "unauthorized";
      message = refused.error();
    } else if (outcome instanceof Outcome.Retry retry) {
      verdict = "unavailable";
      message = retry.error();
    } else if (outcome instanceof Outcome.Unconfirmed unconfirmed) {
      verdict = "unconfirmed";
      message = unconfirmed.error();
    } else if (outcome instanceof Outcome.InvalidData invalid) {
      message = invalid.error();
    } else {
      message = ((Outcome.Failed) outcome).error(); // the last kind: Outcome is sealed
    }
    return new JsonObject()
        .put("integration_id", integration.id())
        .put("network", integration.network().id)
        .put("test_event_code", integration.testEventCode())
        .put("event_id", EventIds.format(job.eventId()))
        .put("event_name", job.mappedEvent())
        .put("verdict", verdict)
        .put("message", Redact.secrets(message, integration));
  }
}
