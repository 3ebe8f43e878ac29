package dev.eventrouter.forward;

import dev.eventrouter.common.LogSafe;
import dev.eventrouter.config.IntegrationConfig;
import dev.eventrouter.config.Network;
import dev.eventrouter.event.ClickData;
import dev.eventrouter.event.MatchKeys;
import dev.eventrouter.store.ClaimedDelivery;
import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/** How one network wants its events: the request body, how to send it, and what its answer means. */
public interface NetworkApi {

  Network network();

  /**
   * The oldest event the network takes: Meta refuses a whole request if one event is older than 7 days
   * (https://developers.facebook.com/docs/marketing-api/conversions-api/parameters/server-event, event_time); TikTok
   * publishes no limit we could read, so it, and a webhook, take the same 7 days as the safe reading.
   */
  default Duration maxEventAge() {
    return Duration.ofDays(7);
  }

  /**
   * The exact request body for these events: the network's envelope, the events as {@code data}, and
   * {@code test_event_code} at the top level when set (where every public implementation puts it on both networks:
   * RudderStack, Segment, Stape).
   */
  default JsonObject body(IntegrationConfig integration, List<ClaimedDelivery> jobs) {
    JsonArray data = new JsonArray();
    jobs.forEach(job -> data.add(event(integration, job)));
    JsonObject body = envelope(integration).put("data", data);
    if (integration.testEventCode() != null) {
      body.put("test_event_code", integration.testEventCode());
    }
    return body;
  }

  /**
   * Each event's payload, for the event debugger: the body as it carried that event, that is the envelope with that
   * one event as {@code data} (the other events of a batch are theirs to show). The events are shared, not copied.
   */
  default List<JsonObject> payloads(JsonObject body, int events) {
    if (!batches()) {
      return List.of(body); // one request per event: the body is the event's own
    }
    JsonArray data = body.getJsonArray("data");
    List<JsonObject> payloads = new ArrayList<>(events);
    for (int i = 0; i < events; i++) {
      JsonObject payload = new JsonObject();
      for (String field : body.fieldNames()) {
        payload.put(field, "data".equals(field) ? new JsonArray().add(data.getValue(i)) : body.getValue(field));
      }
      payloads.add(payload);
    }
    return payloads;
  }

  /** The body's fields other than {@code data} and {@code test_event_code}: none unless the network has some. */
  default JsonObject envelope(IntegrationConfig integration) {
    return new JsonObject();
  }

  /**
   * Why this delivery is not for this integration after all, by the network's rule (Google Ads takes only events
   * whose click has a Google click id): it ends {@code skipped} with these words, no request made. Null: it is sent.
   */
  default String skip(ClaimedDelivery job) {
    return null;
  }

  /** The earliest this delivery may be sent (Google takes an adjustment 24 hours after the conversion), or null. */
  default Instant notBefore(ClaimedDelivery job) {
    return null;
  }

  /**
   * The requests a batch goes out as: one for a network that batches, one per event for one that does not; Google
   * Ads, which uploads and adjusts at two addresses, one per kind.
   */
  default List<List<ClaimedDelivery>> requests(List<ClaimedDelivery> jobs) {
    return batches() ? List.of(jobs) : jobs.stream().map(List::of).toList();
  }

  /** The click a credential test's event carries: none, unless the network takes no event without one. */
  default ClickData testClick() {
    return ClickData.NONE;
  }

  /** The verdict on a credential test's one event. */
  default Outcome testVerdict(int status, Buffer body) {
    return verdict(status, body, 0, 1);
  }

  /** One event of the body. */
  JsonObject event(IntegrationConfig integration, ClaimedDelivery job);

  /** Sends the body through {@code out}, which checks where the request may go and follows no redirect. */
  Future<HttpResponse<Buffer>> send(Outbound out, IntegrationConfig integration, JsonObject body, long timeoutMs);

  Outcome classify(int status, Buffer body, long retryAfterMs);

  /**
   * Receipt reconciliation of an accepted request of {@code sent} events: what the network's answer says it did not
   * take, or null when it acknowledged them all (or says nothing of it).
   */
  Outcome.Unconfirmed shortfall(Buffer body, int sent);

  /** The verdict on a request of {@code sent} events: the error tables', then, when accepted, its receipt's. */
  default Outcome verdict(int status, Buffer body, long retryAfterMs, int sent) {
    Outcome outcome = classify(status, body, retryAfterMs);
    Outcome.Unconfirmed shortfall = outcome instanceof Outcome.Delivered ? shortfall(body, sent) : null;
    return shortfall != null ? shortfall : outcome;
  }

  /** How this network takes the user's data. */
  UserDataMapping userData();

  /** The field of each event of a body that holds the user's match keys, or null when there is none. */
  default String userField() {
    return null;
  }

  /** The match keys each event of this body carries ({@link MatchKeys} masks), in the body's order. */
  default int[] matchKeys(JsonObject body, int events) {
    int[] masks = new int[events];
    JsonArray data = userField() == null ? null : body.getJsonArray("data");
    for (int i = 0; data != null && i < events; i++) {
      masks[i] = MatchKeys.mask(network(), data.getJsonObject(i).getJsonObject(userField()));
    }
    return masks;
  }

  /**
   * The network's own answer as the credential test shows it: only the fields the network documents for its answers,
   * or null when the body is not such an answer (an HTML page, a proxy's error, a receiver's own body), so nothing
   * else a server answered is passed on.
   */
  default JsonObject answer(Buffer body) {
    return null;
  }

  /**
   * The named fields of a network's answer, those whose values are text, numbers, booleans or lists of them, in the
   * order named: an answer's documented fields, and nothing a server put beside them.
   */
  static JsonObject fields(JsonObject answer, List<String> names) {
    JsonObject kept = new JsonObject();
    for (String name : names) {
      Object value = answer.getValue(name);
      if (scalar(value) || value instanceof JsonArray list && list.stream().allMatch(NetworkApi::scalar)) {
        kept.put(name, value);
      }
    }
    return kept;
  }

  private static boolean scalar(Object value) {
    return value instanceof String || value instanceof Number || value instanceof Boolean;
  }

  /** Whether one request carries many events; when not, each event of a batch is its own request. */
  default boolean batches() {
    return true;
  }

  /** A failed request, for the stored error and the log: nothing the request carried. */
  default String describe(Throwable failure) {
    return network().id + " request failed: " + LogSafe.describe(failure);
  }
}
