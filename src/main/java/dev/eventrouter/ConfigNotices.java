package dev.eventrouter;

import dev.eventrouter.bus.Addresses;
import dev.eventrouter.config.ConfigLoader;
import io.vertx.core.Future;
import io.vertx.core.Vertx;

import java.util.UUID;

/** Config reloads told across the cluster ({@link Addresses#CONFIG_RELOADED}). */
final class ConfigNotices {

  private ConfigNotices() {}

  /** Publishes this node's reloads, and reads the file at once when another node reloaded. */
  static Future<Void> wire(Vertx vertx, ConfigLoader loader, ConfigLoader.Watched watched) {
    String self = UUID.randomUUID().toString();
    watched.live().onChange(next -> vertx.eventBus().publish(Addresses.CONFIG_RELOADED, self));
    return vertx.eventBus().<String>consumer(Addresses.CONFIG_RELOADED, notice -> {
      if (!self.equals(notice.body())) {
        loader.rescan(watched);
      }
    }).completion();
  }
}
