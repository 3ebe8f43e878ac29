package dev.eventrouter.api.events;

import dev.eventrouter.config.WorkspaceConfig;
import dev.eventrouter.event.EventMap;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.vertx.ext.web.RoutingContext;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Counts every answer of the ingest route by event name and HTTP status ({@code event_router_http_events_total}).
 * The label stays bounded: a name of the default mapping table or of the workspace's {@code event_map} is itself,
 * any other custom name is {@code other}, and a request refused before its body was read is {@code unknown}.
 */
public final class IngestCounter {

  static final String OTHER = "other";
  static final String UNKNOWN = "unknown";
  private static final String KEY = "counted_event_name";

  private record Key(String eventName, int status) {}

  private final MeterRegistry metrics;
  private final Map<Key, Counter> counters = new ConcurrentHashMap<>();

  public IngestCounter(MeterRegistry metrics) {
    this.metrics = metrics;
  }

  /** First on the route: counts the answer once it is sent, whatever answered it. */
  public void onAnswer(RoutingContext rc) {
    rc.addEndHandler(v -> {
      String name = rc.get(KEY);
      counters.computeIfAbsent(new Key(name == null ? UNKNOWN : name, rc.response().getStatusCode()), k -> Counter
          .builder("event_router.http.events")
          .description("answers of the ingest route by event name (bounded) and HTTP status")
          .tags("event_name", k.eventName(), "status", String.valueOf(k.status()))
          .register(metrics)).increment();
    });
    rc.next();
  }

  /** Names the request's event once its body is read. */
  static void named(RoutingContext rc, WorkspaceConfig workspace, String eventName) {
    boolean known = EventMap.DEFAULT.containsKey(eventName) || workspace.eventMap().containsKey(eventName);
    rc.put(KEY, known ? eventName : OTHER);
  }
}
