package dev.eventrouter.forward;

import dev.eventrouter.config.DeliveryConfig;
import dev.eventrouter.config.IntegrationConfig;
import dev.eventrouter.config.LiveConfig;
import dev.eventrouter.store.DeliveryOutcomes;
import io.vertx.core.Vertx;

import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * A network's integrations as the config holds them now, and their channels, kept in step with its reloads: a channel
 * is made on first use and closed once a reload removed its integration, so no client or breaker outlives it.
 */
final class IntegrationChannels {

  private final Vertx vertx;
  private final NetworkApi api;
  private final DeliveryOutcomes store;
  private final LiveConfig live;
  private final BreakerBoard breakers;
  private final DeliveryMetrics deliveries;
  private final Map<IntegrationKey, IntegrationChannel> channels = new HashMap<>();

  IntegrationChannels(Vertx vertx, NetworkApi api, DeliveryOutcomes store, LiveConfig live, BreakerBoard breakers,
                      DeliveryMetrics deliveries) {
    this.vertx = vertx;
    this.api = api;
    this.store = store;
    this.live = live;
    this.breakers = breakers;
    this.deliveries = deliveries;
  }

  /** The channel of an integration, made on first use with the delivery settings then in force. */
  IntegrationChannel channel(IntegrationKey key, DeliveryConfig config) {
    return channels.computeIfAbsent(key, k -> new IntegrationChannel(vertx, k, api, store, config, breakers,
        deliveries));
  }

  /** The integration as configured now, if it is there and this network's. */
  Optional<IntegrationConfig> integration(IntegrationKey key) {
    return live.current().workspace(key.workspaceId())
        .flatMap(w -> w.integrations().stream()
            .filter(i -> i.id().equals(key.integrationId()) && i.network() == api.network()).findFirst());
  }

  /** Closes the channels of integrations a reload removed, so their clients and breakers do not stay open. */
  void closeRemoved() {
    channels.entrySet().removeIf(entry -> {
      boolean configured = integration(entry.getKey()).isPresent();
      if (!configured) {
        entry.getValue().close();
      }
      return !configured;
    });
  }

  void closeAll() {
    channels.values().forEach(IntegrationChannel::close);
  }
}
