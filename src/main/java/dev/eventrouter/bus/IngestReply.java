package dev.eventrouter.bus;

/**
 * The stored event, as the client is told; the record itself travels back ({@link LocalCodec}).
 *
 * @param replayed true when an Idempotency-Key matched an earlier request and nothing new was stored
 */
public record IngestReply(String eventId, String sessionId, String status, boolean replayed) {

  public static final String PROCESSED = "processed";
}
