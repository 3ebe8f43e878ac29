package dev.eventrouter.bus;

/** Every event-bus address of the service, in one place. */
public final class Addresses {

  /** HttpVerticle -> SessionVerticle: an {@link IngestRequest}, answered with an {@link IngestReply} once stored. */
  public static final String EVENTS_INGEST = "event-router.events.ingest";

  private Addresses() {}
}
