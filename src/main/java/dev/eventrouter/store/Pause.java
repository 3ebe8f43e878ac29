package dev.eventrouter.store;

import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.RowSet;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * An integration paused because its network refused the token or the permissions.
 *
 * @param reason      the network's message, token redacted
 * @param tokenSha256 hex SHA-256 of the refused token: a config with another one resumes the integration; or
 *                    {@link #MANUAL}
 */
public record Pause(String network, UUID workspaceId, String integrationId, String reason, String tokenSha256,
                   Instant pausedAt) {

  /** The token digest of a pause made by hand (no SHA-256 is this word): it ends only by hand. */
  public static final String MANUAL = "manual";

  /** Whether it was paused by hand ({@code POST /api/v1/integrations/{id}/pause}). */
  public boolean manual() {
    return MANUAL.equals(tokenSha256);
  }

  /** The pauses of {@code integration_pauses} rows (all of its columns). */
  static List<Pause> of(RowSet<Row> rows) {
    List<Pause> pauses = new ArrayList<>();
    for (Row row : rows) {
      pauses.add(new Pause(row.getString("network"), row.getUUID("workspace_id"), row.getString("integration_id"),
          row.getString("reason"), row.getString("token_sha256"), row.getOffsetDateTime("paused_at").toInstant()));
    }
    return pauses;
  }
}
