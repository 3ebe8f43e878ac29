package dev.eventrouter.store;

import io.vertx.core.Future;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.Tuple;

import java.util.UUID;

/**
 * Integrations paused and resumed by hand: a pause holds the integration's deliveries as a refused token does
 * ({@link Pause#MANUAL} its token digest, so neither a new token nor a probe ends it); a resume ends any pause.
 */
public final class ManualPauses {

  /** Pauses it, or turns a pause on a refused token into one by hand. Returns 1 when the row is new or changed. */
  static final String PAUSE = """
      INSERT INTO integration_pauses (network, workspace_id, integration_id, reason, token_sha256)
      VALUES ($1, $2, $3, $4, '%1$s')
      ON CONFLICT (network, workspace_id, integration_id)
      DO UPDATE SET reason = excluded.reason, token_sha256 = '%1$s', paused_at = now()
       WHERE integration_pauses.token_sha256 <> '%1$s'""".formatted(Pause.MANUAL);

  private final Pool pool;

  public ManualPauses(Pool pool) {
    this.pool = pool;
  }

  /** Whether it was not paused by hand before. */
  public Future<Boolean> pause(String network, UUID workspaceId, String integrationId, String reason) {
    return pool.preparedQuery(PAUSE).execute(Tuple.of(network, workspaceId, integrationId, reason))
        .map(rows -> rows.rowCount() > 0);
  }

  /** Ends its pause, whatever made it: its held deliveries are due now. Whether it was paused. */
  public Future<Boolean> resume(String network, UUID workspaceId, String integrationId) {
    return pool.preparedQuery(DeliveryStore.RESUME).execute(Tuple.of(network, workspaceId, integrationId, false))
        .map(rows -> rows.iterator().next().getLong(0) > 0);
  }
}
