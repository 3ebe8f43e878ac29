package dev.eventrouter.store;

import java.time.Instant;
import java.util.UUID;

/**
 * An integration paused because its network refused the token or the permissions.
 *
 * @param reason      the network's message, token redacted
 * @param tokenSha256 hex SHA-256 of the refused token: a config with another one resumes the integration
 */
public record Pause(String network, UUID workspaceId, String integrationId, String reason, String tokenSha256,
                   Instant pausedAt) {}
