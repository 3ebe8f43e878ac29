package dev.eventrouter.session;

import dev.eventrouter.bus.EventRef;
import dev.eventrouter.event.DeliveryFilter;
import dev.eventrouter.event.EventIds;
import dev.eventrouter.store.DeliveryViews;
import dev.eventrouter.store.EventViews;
import io.vertx.core.Future;
import io.vertx.core.eventbus.Message;
import io.vertx.core.json.JsonObject;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.Optional;
import java.util.function.Function;

import static dev.eventrouter.bus.BusReplies.answer;

/** Redeliveries asked through the API: failed, expired and unconfirmed deliveries re-queued, their forwarders woken. */
final class Redeliveries {

  /** The SessionVerticle's logger: these lines are the verticle's, as operators know them. */
  private static final Logger LOG = LoggerFactory.getLogger(SessionVerticle.class);

  private final EventViews events;
  private final DeliveryViews deliveries;
  private final ForwarderWakeups wakeups;

  Redeliveries(EventViews events, DeliveryViews deliveries, ForwarderWakeups wakeups) {
    this.events = events;
    this.deliveries = deliveries;
    this.wakeups = wakeups;
  }

  /** Re-queues the event's failed, expired and unconfirmed deliveries and wakes their forwarders. */
  void redeliver(Message<JsonObject> message) {
    EventRef ref = EventRef.fromJson(message.body());
    answer(LOG, message, ifEventExists(ref, found -> deliveries.requeue(ref.workspaceId(), ref.eventId())
        .map(networks -> {
          wakeups.wake(networks);
          return new JsonObject().put("event_id", EventIds.format(ref.eventId())).put("requeued", networks.size());
        })));
  }

  /**
   * Re-queues the failed, expired and unconfirmed deliveries a filter names, at most its limit, and wakes their
   * forwarders.
   */
  void redeliverMatching(Message<JsonObject> message) {
    DeliveryFilter filter = DeliveryFilter.fromJson(message.body());
    answer(LOG, message, deliveries.requeue(filter).map(networks -> {
      wakeups.wake(networks.stream().distinct().toList());
      return Optional.of(new JsonObject().put("requeued", networks.size())
          .put("more", networks.size() == filter.limit()));
    }));
  }

  /** Runs {@code then} on the stored event when the asking workspace has it; empty when it does not. */
  private Future<Optional<JsonObject>> ifEventExists(EventRef ref, Function<JsonObject, Future<JsonObject>> then) {
    return events.find(ref.workspaceId(), ref.eventId(), null).compose(found -> found.isEmpty()
        ? Future.succeededFuture(Optional.empty())
        : then.apply(found.get()).map(Optional::of));
  }
}
