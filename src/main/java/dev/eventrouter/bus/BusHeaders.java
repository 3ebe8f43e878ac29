package dev.eventrouter.bus;

/** Headers the service puts on its event-bus messages. */
public final class BusHeaders {

  /**
   * The HTTP request a message serves, so the consumer's log lines name it as the edge's do; the same name is the
   * field of a JSON log line (the MDC key).
   */
  public static final String REQUEST_ID = "request_id";

  private BusHeaders() {}
}
