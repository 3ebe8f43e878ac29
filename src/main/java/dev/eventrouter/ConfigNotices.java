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

import java.util.List;
import java.util.UUID;

/** Config reloads told across the cluster ({@link Addresses#CONFIG_RELOADED}), and to the audit log with those refused. */
final class ConfigNotices {

  /** The config file's digest as the audit log names it: enough to tell two versions apart. */
  static final int DIGEST_CHARS = 12;
  /** The problems of a refused file named in its entry at most, and each one's path's length at most. */
  private static final int MAX_PATHS = 5;
  private static final int MAX_PATH_CHARS = 100;
  private static final Logger LOG = LoggerFactory.getLogger(ConfigNotices.class);

  private ConfigNotices() {}

  /**
   * Writes each reload to each workspace's audit log, through this node's SessionVerticle (a node without the ingest
   * role has none: another node records it, as each node reads the same file; the log keeps one entry per digest).
   */
  static void audit(Vertx vertx, ConfigLoader.Watched watched) {
    watched.live().onChange(next -> audit(vertx, next, target(watched.applied().get()), "applied"));
    // A file refused is recorded in the workspaces of the config that stays, by the paths of its problems alone:
    // their words may quote a value of the file.
    watched.onRefused((refused, problems) -> audit(vertx, watched.live().current(), target(refused),
        refusal(problems.problems())));
  }

  private static String target(JsonObject file) {
    return "config sha256:" + Sha256.hex(file.encode()).substring(0, DIGEST_CHARS);
  }

  /** {@code refused, the running config stays: workspaces[0].keys[2].role, ... and 3 more}. */
  static String refusal(List<String> problems) {
    List<String> paths = problems.stream().limit(MAX_PATHS).map(problem -> {
      int end = problem.indexOf(": ");
      String path = end < 0 ? "a problem" : problem.substring(0, end);
      return path.length() > MAX_PATH_CHARS ? path.substring(0, MAX_PATH_CHARS) + "..." : path;
    }).toList();
    return "refused, the running config stays: " + String.join(", ", paths)
        + (problems.size() > MAX_PATHS ? " and " + (problems.size() - MAX_PATHS) + " more" : "");
  }

  private static void audit(Vertx vertx, AppConfig config, String target, String outcome) {
    for (WorkspaceConfig workspace : config.workspaces()) {
      JsonObject entry = new JsonObject().put("workspace_id", workspace.id().toString())
          .put("key_name", "config file").put("action", AuditLog.CONFIG_RELOAD).put("target", target)
          .put("outcome", outcome);
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
