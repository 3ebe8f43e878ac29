package dev.eventrouter.session;

import dev.eventrouter.bus.Addresses;
import dev.eventrouter.store.AuditLog;
import dev.eventrouter.store.ManualPauses;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.Message;
import io.vertx.core.json.JsonObject;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.List;
import java.util.Optional;
import java.util.UUID;

import static dev.eventrouter.bus.BusReplies.answer;

/** The writes of the team's actions: the audit log's entries, and integrations paused or resumed by hand. */
final class ActionWrites {

  private static final Logger LOG = LoggerFactory.getLogger(ActionWrites.class);

  private final Vertx vertx;
  private final AuditLog audit;
  private final ManualPauses pauses;

  ActionWrites(Vertx vertx, AuditLog audit, ManualPauses pauses) {
    this.vertx = vertx;
    this.audit = audit;
    this.pauses = pauses;
  }

  Future<Void> listen() {
    return Future.all(List.of(
        vertx.eventBus().<JsonObject>localConsumer(Addresses.AUDIT_RECORD, this::record).completion(),
        vertx.eventBus().<JsonObject>localConsumer(Addresses.INTEGRATION_PAUSE, this::pause).completion()))
        .mapEmpty();
  }

  private void record(Message<JsonObject> message) {
    JsonObject entry = message.body();
    answer(LOG, message, audit.record(UUID.fromString(entry.getString("workspace_id")), entry.getString("key_name"),
            entry.getString("action"), entry.getString("target"), entry.getString("outcome"))
        .map(v -> Optional.of(new JsonObject())));
  }

  /** Pauses or resumes; the network's forwarders, on every node, read the pauses again at once. */
  private void pause(Message<JsonObject> message) {
    JsonObject body = message.body();
    UUID workspaceId = UUID.fromString(body.getString("workspace_id"));
    String network = body.getString("network");
    String integrationId = body.getString("integration_id");
    Future<Boolean> changed = body.getBoolean("paused")
        ? pauses.pause(network, workspaceId, integrationId, body.getString("reason"))
        : pauses.resume(network, workspaceId, integrationId);
    answer(LOG, message, changed.map(done -> {
      vertx.eventBus().publish(Addresses.PAUSES_CHANGED, network);
      if (!body.getBoolean("paused") && done) {
        vertx.eventBus().publish(Addresses.deliveriesDue(network), network);
      }
      return Optional.of(new JsonObject().put("changed", done));
    }));
  }
}
