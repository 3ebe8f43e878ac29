package dev.eventrouter;

import dev.eventrouter.bus.Addresses;
import dev.eventrouter.common.Sha256;
import dev.eventrouter.config.AppConfig;
import dev.eventrouter.config.ConfigLoader;
import dev.eventrouter.config.WorkspaceConfig;
import dev.eventrouter.store.AuditLog;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.json.JsonObject;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.UUID;

/** Config reloads told across the cluster ({@link Addresses#CONFIG_RELOADED}) and to the audit log. */
final class ConfigNotices {

  /** The config file's digest as the audit log names it: enough to tell two versions apart. */
  static final int DIGEST_CHARS = 12;
  private static final Logger LOG = LoggerFactory.getLogger(ConfigNotices.class);

  private ConfigNotices() {}

  /**
   * Writes each reload to each workspace's audit log, through this node's SessionVerticle (a node without the ingest
   * role has none: another node records it, as each node reads the same file; the log keeps one entry per digest).
   */
  static void audit(Vertx vertx, ConfigLoader.Watched watched) {
    watched.live().onChange(next -> audit(vertx, next,
        "config sha256:" + Sha256.hex(watched.applied().get().encode()).substring(0, DIGEST_CHARS)));
  }

  private static void audit(Vertx vertx, AppConfig applied, String target) {
    for (WorkspaceConfig workspace : applied.workspaces()) {
      JsonObject entry = new JsonObject().put("workspace_id", workspace.id().toString())
          .put("key_name", "config file").put("action", AuditLog.CONFIG_RELOAD).put("target", target)
          .put("outcome", "applied");
      vertx.eventBus().request(Addresses.AUDIT_RECORD, entry, new DeliveryOptions().setLocalOnly(true))
          .onFailure(e -> LOG.debug("the audit log did not record the reload here: {}", e.getMessage()));
    }
  }

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
