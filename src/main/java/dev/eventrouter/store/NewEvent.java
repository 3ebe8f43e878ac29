package dev.eventrouter.store;

import dev.eventrouter.event.ConversionEvent;
import dev.eventrouter.event.Resolution;

import java.time.Instant;
import java.util.List;

/**
 * An event to store: its id, what the client sent, its resolved session, and the deliveries to create with it.
 *
 * @param idempotencyKey the client's Idempotency-Key header, or null
 * @param requestHash    digest of the validated event, to tell a replay from a conflicting reuse of the key
 */
public record NewEvent(long eventId, ConversionEvent event, Instant receivedAt, String idempotencyKey,
                       String requestHash, Resolution session, List<Delivery> deliveries) {

  /** One delivery to create: the integration (of the event's workspace), its network and the mapped event name. */
  public record Delivery(String integrationId, String network, String mappedEvent) {}
}
