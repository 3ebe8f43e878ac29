package dev.eventrouter.store;

import io.vertx.core.Future;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.Tuple;

import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * The campaigns of the spend imported from some cost sources: what a buyer's ad accounts name (a click carries its
 * campaign, not its account). Read by the spend table's key, at most {@link #MAX} campaigns.
 */
public final class BuyerCampaigns {

  /** Campaigns one buyer's accounts reach at most: each of its reads carries them. */
  public static final int MAX = 10_000;

  /** $1 workspace, $2 sources: the campaign of each row (a campaign's row names itself). */
  static final String CAMPAIGNS = """
      SELECT DISTINCT coalesce(campaign_id, CASE WHEN level = 'campaign' THEN object_id END) AS campaign_id
        FROM ad_spend WHERE workspace_id = $1 AND source_id = ANY($2::text[])
         AND coalesce(campaign_id, CASE WHEN level = 'campaign' THEN object_id END) IS NOT NULL
       LIMIT $3""";

  private final Pool pool;

  public BuyerCampaigns(Pool pool) {
    this.pool = pool;
  }

  public Future<List<String>> of(UUID workspaceId, List<String> sourceIds) {
    return pool.preparedQuery(CAMPAIGNS).execute(Tuple.of(workspaceId, sourceIds.toArray(String[]::new), MAX))
        .map(rows -> {
          List<String> campaigns = new ArrayList<>();
          for (Row row : rows) {
            campaigns.add(row.getString("campaign_id"));
          }
          return campaigns;
        });
  }
}
