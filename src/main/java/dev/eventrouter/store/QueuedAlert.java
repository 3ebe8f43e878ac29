package dev.eventrouter.store;

import io.vertx.core.json.JsonObject;

import java.util.UUID;

/**
 * An alert message for one target, as claimed from the alert outbox.
 *
 * @param target   the target's key as configured then ({@code dev.eventrouter.config.AlertTarget#key})
 * @param attempts the attempts so far, this claim's included
 */
public record QueuedAlert(long alertId, UUID workspaceId, String target, JsonObject message, int attempts) {}
