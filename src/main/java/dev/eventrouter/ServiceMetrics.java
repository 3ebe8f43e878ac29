package dev.eventrouter;

import dev.eventrouter.http.MetricLabels;
import io.micrometer.core.instrument.binder.jvm.JvmGcMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.vertx.core.Vertx;
import io.vertx.core.VertxBuilder;
import io.vertx.core.VertxOptions;
import io.vertx.micrometer.MetricsDomain;
import io.vertx.micrometer.MicrometerMetricsFactory;
import io.vertx.micrometer.MicrometerMetricsOptions;

/** One registry for Vert.x's own metrics (HTTP server, pools, clients) and the service's, served at /metrics. */
public final class ServiceMetrics {

  private ServiceMetrics() {}

  /** The registry, its caller-controlled labels bounded before any meter exists, with the JVM's own meters. */
  public static PrometheusMeterRegistry registry() {
    PrometheusMeterRegistry metrics = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    MetricLabels.bound(metrics);
    // The JVM's own: heap and its pools, GC pauses, threads, CPU (what an operator and the benchmark read first).
    new JvmMemoryMetrics().bindTo(metrics);
    new JvmGcMetrics().bindTo(metrics);
    new JvmThreadMetrics().bindTo(metrics);
    new ProcessorMetrics().bindTo(metrics);
    return metrics;
  }

  /** @param httpServerMetrics whether Vert.x's per-request HTTP server meters are kept (management config) */
  public static VertxOptions options(boolean httpServerMetrics) {
    MicrometerMetricsOptions metrics = new MicrometerMetricsOptions()
        .setEnabled(true)
        // Event-bus metrics re-register a gauge for every reply handler (one per request here): measurable
        // CPU for little insight. Pool and client metrics stay.
        .addDisabledMetricsCategory(MetricsDomain.EVENT_BUS);
    if (!httpServerMetrics) {
      metrics.addDisabledMetricsCategory(MetricsDomain.HTTP_SERVER);
    }
    return new VertxOptions().setMetricsOptions(metrics);
  }

  /** A Vert.x builder whose metrics go to the registry. */
  public static VertxBuilder builder(PrometheusMeterRegistry metrics) {
    return Vertx.builder().withMetrics(new MicrometerMetricsFactory(metrics));
  }
}
