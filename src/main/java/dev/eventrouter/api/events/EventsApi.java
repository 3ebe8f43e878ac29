package dev.eventrouter.api.events;

import com.fasterxml.jackson.core.io.JsonStringEncoder;
import dev.eventrouter.bus.Addresses;
import dev.eventrouter.bus.EventRef;
import dev.eventrouter.bus.IngestReply;
import dev.eventrouter.bus.IngestRequest;
import dev.eventrouter.event.ConversionEvent;
import dev.eventrouter.event.CampaignScope;
import dev.eventrouter.event.EventFilter;
import dev.eventrouter.event.EventIds;
import dev.eventrouter.http.ApiException.FieldError;
import dev.eventrouter.http.ApiException;
import dev.eventrouter.http.BuyerScope;
import dev.eventrouter.http.Edge;
import dev.eventrouter.http.ErrorCode;
import dev.eventrouter.http.Responses;
import dev.eventrouter.http.StoreClient;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.List;
import java.util.regex.Pattern;

/** {@code POST /api/v1/events/custom} and {@code GET /api/v1/events/{event_id}}. */
public final class EventsApi {

  static final String IDEMPOTENCY_KEY = "Idempotency-Key";
  public static final String IDEMPOTENT_REPLAYED = "Idempotent-Replayed";
  private static final long WRITE_MARGIN_MS = 100;
  private static final Pattern IDEMPOTENCY_KEY_TEXT = Pattern.compile("[\\x20-\\x7E]{1,255}");

  private final StoreClient store;

  public EventsApi(StoreClient store) {
    this.store = store;
  }

  public void ingest(RoutingContext rc) {
    Instant receivedAt = Instant.now();
    JsonObject body = Edge.ownBody(rc);
    if (body.getValue("event_name") instanceof String name) {
      IngestCounter.named(rc, Edge.workspace(rc), name);
    }
    ConversionEvent event = EventValidator.validate(body, Edge.workspace(rc));
    String idempotencyKey = idempotencyKey(rc);
    store.ingest(ingestRequest(store, event, receivedAt, idempotencyKey), rc)
        .onSuccess(stored -> {
          if (stored.replayed()) {
            rc.response().putHeader(IDEMPOTENT_REPLAYED, "true");
          }
          Responses.ok(rc, answer(stored));
        })
        .onFailure(rc::fail);
  }

  /**
   * The answer to a stored event, {@code {"ok":true,"data":{"event_id","session_id","status"}}}, written out
   * directly: its shape is fixed, and building and encoding a JsonObject for it showed in the hot path's profile.
   */
  public static Buffer answer(IngestReply stored) {
    return Buffer.buffer("{\"ok\":true,\"data\":{\"event_id\":" + quoted(stored.eventId()) + ",\"session_id\":"
        + quoted(stored.sessionId()) + ",\"status\":" + quoted(stored.status()) + "}}");
  }

  private static String quoted(String text) {
    return text == null ? "null" : "\"" + new String(JsonStringEncoder.getInstance().quoteAsString(text)) + "\"";
  }

  /** What the store is asked to write for an event received at {@code receivedAt}. */
  public static IngestRequest ingestRequest(StoreClient store, ConversionEvent event, Instant receivedAt,
                                     String idempotencyKey) {
    // The write is not started once this request has been answered 503; a margin of about one slow commit keeps
    // a write that starts just in time from committing after the answer.
    Instant deadline = receivedAt.plusMillis(store.timeoutMs() - Math.min(WRITE_MARGIN_MS,
        store.timeoutMs() / 10));
    return new IngestRequest(event, receivedAt, idempotencyKey, idempotencyKey == null ? null : event.contentHash(),
        deadline);
  }

  /**
   * {@code GET /api/v1/events}: a page of the key's workspace's events, newest first, with the cursor of the next
   * page; or, with {@code after}, a poll: the events after that cursor, oldest first, with the cursor of the next poll.
   */
  public void list(RoutingContext rc) {
    Instant now = Instant.now();
    EventFilter filter = EventFilters.list(Edge.workspace(rc).id(), rc.queryParams(), now);
    store.ask(Addresses.EVENTS_LIST, CampaignScope.put(filter.toJson(), BuyerScope.campaigns(rc)), rc)
        .onSuccess(page -> {
          JsonArray events = page.getJsonArray("events");
          events.forEach(event -> numericValue((JsonObject) event));
          Long last = events.isEmpty() ? null : eventId(events.getJsonObject(events.size() - 1));
          boolean full = events.size() == filter.limit();
          Instant settledBefore = now.minusMillis(2 * store.timeoutMs());
          if (filter.oldestFirst()) {
            page.put("next_after", EventIds.format(nextAfter(filter.fromEventId() - 1, last, full, settledBefore)));
          } else {
            page.put("next_before", full ? EventIds.format(last) : null);
            if (!rc.queryParams().contains("before")) {
              // The first page: where a poll for what comes after it starts (its newest event, or the range's
              // start, kept behind the events still being written like any poll's cursor).
              Long newest = events.isEmpty() ? null : eventId(events.getJsonObject(0));
              page.put("next_after", EventIds.format(nextAfter(filter.fromEventId() - 1, newest, false,
                  settledBefore)));
            }
          }
          Responses.ok(rc, page);
        })
        .onFailure(rc::fail);
  }

  /**
   * Where the next poll starts. An id is taken before its event is written, so an event may become visible after a
   * newer one already was; the cursor stays below the ids still being written (those from {@code settledBefore} on:
   * twice the store's timeout ago, after which a write has committed or was never started) and the poller may be
   * answered an event twice, which it recognises by its id. A full page moves on past its last event, so a poll
   * that is behind never stalls.
   */
  static long nextAfter(long after, Long last, boolean full, Instant settledBefore) {
    if (full) {
      return last;
    }
    long settled = EventIds.firstIdAt(settledBefore) - 1;
    return Math.max(after, last == null ? settled : Math.min(last, settled));
  }

  /** A key sees only its own workspace's (a buyer its scope's) events; any other id is simply not found. */
  public void status(RoutingContext rc) {
    store.ask(Addresses.EVENTS_GET, CampaignScope.put(eventQuery(rc), BuyerScope.campaigns(rc)), rc)
        .onSuccess(event -> Responses.ok(rc, numericValue(event)))
        .onFailure(rc::fail);
  }

  private static long eventId(JsonObject event) {
    return Long.parseLong(event.getString("event_id").substring(EventIds.PREFIX.length()));
  }

  /** The value crosses the bus as text (no node rounds it through a double); the API answers it as a number. */
  private static JsonObject numericValue(JsonObject event) {
    String value = event.getString("value");
    return event.put("value", value == null ? null : new BigDecimal(value));
  }

  /** Re-queues the event's failed, expired and unconfirmed deliveries. */
  public void redeliver(RoutingContext rc) {
    store.ask(Addresses.EVENTS_REDELIVER, eventQuery(rc), rc)
        .onSuccess(result -> Responses.ok(rc, result))
        .onFailure(rc::fail);
  }

  private static JsonObject eventQuery(RoutingContext rc) {
    long eventId;
    try {
      eventId = Long.parseLong(rc.pathParam("eventId").substring(EventIds.PREFIX.length()));
    } catch (NumberFormatException tooLarge) {
      throw new ApiException(ErrorCode.NOT_FOUND);
    }
    return new EventRef(Edge.workspace(rc).id(), eventId).toJson();
  }

  private static String idempotencyKey(RoutingContext rc) {
    String key = rc.request().getHeader(IDEMPOTENCY_KEY);
    if (key == null) {
      return null;
    }
    if (!IDEMPOTENCY_KEY_TEXT.matcher(key).matches()) {
      throw ApiException.validation(List.of(
          new FieldError(IDEMPOTENCY_KEY, "must be 1 to 255 printable ASCII characters")));
    }
    return key;
  }
}
