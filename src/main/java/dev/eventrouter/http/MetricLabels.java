package dev.eventrouter.http;

import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.config.MeterFilter;

/**
 * Bounds the labels a caller controls on Vert.x's HTTP metrics: a method outside {@link Methods#SERVED} is counted
 * as {@code OTHER}, and each label of the server's and clients' meters (method, code, route) keeps at most
 * {@value #MAX_VALUES} values, further ones dropped
 * (https://docs.micrometer.io/micrometer/reference/concepts/meter-filters.html).
 * Without this, every invented method made new series until a scrape no longer fit in the heap.
 */
public final class MetricLabels {

  static final String OTHER = "OTHER";
  public static final int MAX_VALUES = 100;
  private static final String HTTP_METERS = "vertx.http.";

  private MetricLabels() {}

  /** To be applied before any meter is registered: filters do not reach meters made before them. */
  public static void bound(MeterRegistry registry) {
    registry.config()
        .meterFilter(new MeterFilter() {
          @Override
          public Meter.Id map(Meter.Id id) {
            String method = id.getTag("method");
            return !id.getName().startsWith(HTTP_METERS) || method == null || Methods.SERVED.contains(method) ? id
                : id.replaceTags(Tags.of(id.getTagsAsIterable()).and("method", OTHER));
          }
        })
        .meterFilter(MeterFilter.maximumAllowableTags(HTTP_METERS, "method", MAX_VALUES, MeterFilter.deny()))
        .meterFilter(MeterFilter.maximumAllowableTags(HTTP_METERS, "code", MAX_VALUES, MeterFilter.deny()))
        .meterFilter(MeterFilter.maximumAllowableTags(HTTP_METERS, "route", MAX_VALUES, MeterFilter.deny()));
  }
}
