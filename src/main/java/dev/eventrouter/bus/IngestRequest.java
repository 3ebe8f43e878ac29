package dev.eventrouter.bus;

import dev.eventrouter.event.ConversionEvent;

import java.time.Instant;

/**
 * A validated event on its way to be stored. Sent to this node's own SessionVerticle as the record itself
 * ({@link LocalCodec}): its typed values (workspace UUID, instants, decimal value) go from validation to the batch
 * without being written out and parsed again. Not changed once sent.
 *
 * @param idempotencyKey the client's Idempotency-Key header, or null
 * @param requestHash    digest of the validated event, to tell a replay from a conflicting reuse of the key
 * @param deadline       when the HTTP side stops waiting and answers 503: the write is not started after it
 */
public record IngestRequest(ConversionEvent event, Instant receivedAt, String idempotencyKey, String requestHash,
                            Instant deadline) {}
