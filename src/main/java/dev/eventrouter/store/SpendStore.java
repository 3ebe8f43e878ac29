package dev.eventrouter.store;

import dev.eventrouter.event.SpendRow;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.SqlClient;
import io.vertx.sqlclient.Tuple;

import java.time.DateTimeException;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * SQL of the ad spend rows: a poll's pages upserted per (source, level, object, day), so a re-read overwrites and
 * never adds; the rows a finished re-read no longer has dropped; a push replacing what its period had.
 */
public final class SpendStore {

  /** A page of rows as arrays, one statement: 10,000 ads x 30 days are 300,000 rows. */
  static final String UPSERT = """
      INSERT INTO ad_spend (workspace_id, source_id, poll_seq, level, object_id, day, zone, currency, spend,
                            campaign_id, campaign_name, adset_id, adset_name, ad_name, impressions, clicks, actions)
      SELECT $1, $2, $3, r.* FROM unnest($4::text[], $5::text[], $6::text[]::date[], $7::text[], $8::text[],
                                        $9::text[]::numeric[], $10::text[], $11::text[], $12::text[], $13::text[],
                                        $14::text[], $15::int8[], $16::int8[], $17::text[]::jsonb[]) AS r
      ON CONFLICT (workspace_id, source_id, level, object_id, day) DO UPDATE SET
          poll_seq = EXCLUDED.poll_seq, zone = EXCLUDED.zone, currency = EXCLUDED.currency, spend = EXCLUDED.spend,
          campaign_id = EXCLUDED.campaign_id, campaign_name = EXCLUDED.campaign_name, adset_id = EXCLUDED.adset_id,
          adset_name = EXCLUDED.adset_name, ad_name = EXCLUDED.ad_name, impressions = EXCLUDED.impressions,
          clicks = EXCLUDED.clicks, actions = EXCLUDED.actions, updated_at = now()""";

  /** The zones of a page's rows, kept for the report (a zone once seen stays: it only makes the report look). */
  static final String ZONES = """
      INSERT INTO ad_spend_zones (workspace_id, zone) SELECT DISTINCT $1::uuid, z FROM unnest($2::text[]) AS z
      ON CONFLICT DO NOTHING""";

  /** The rows of the days a poll read that it did not write: the platform no longer reports them. */
  static final String SWEEP = """
      DELETE FROM ad_spend WHERE workspace_id = $1 AND source_id = $2 AND day BETWEEN $3 AND $4
                             AND poll_seq <> $5""";

  /** What a push's period had from its source: of one object ($5, $6) when the push names one. */
  static final String CLEAR_PERIOD = """
      DELETE FROM ad_spend WHERE workspace_id = $1 AND source_id = $2 AND day BETWEEN $3 AND $4
                             AND ($5::text IS NULL OR (level = $5 AND object_id = $6))""";

  private final Pool pool;

  public SpendStore(Pool pool) {
    this.pool = pool;
  }

  /** Writes a poll's page: each row overwrites the (level, object, day) it names. */
  public Future<Void> upsert(UUID workspaceId, String sourceId, long pollSeq, List<SpendRow> rows) {
    return upsert(pool, workspaceId, sourceId, pollSeq, rows);
  }

  /** Drops the rows of the days {@code from} to {@code to} that the poll {@code pollSeq}, which read them, did not. */
  public Future<Integer> sweep(UUID workspaceId, String sourceId, long pollSeq, LocalDate from, LocalDate to) {
    return pool.preparedQuery(SWEEP).execute(Tuple.of(workspaceId, sourceId, from, to, pollSeq))
        .map(rows -> rows.rowCount());
  }

  /**
   * Replaces, in one transaction, what the period had from the push source (of one object when {@code level} is not
   * null) with {@code rows}.
   */
  public Future<Void> replace(UUID workspaceId, String sourceId, LocalDate from, LocalDate to, String level,
                              String objectId, List<SpendRow> rows) {
    return pool.withTransaction(conn -> conn.preparedQuery(CLEAR_PERIOD)
        .execute(Tuple.of(workspaceId, sourceId, from, to, level, objectId))
        .compose(cleared -> upsert(conn, workspaceId, sourceId, 0, rows)));
  }

  /**
   * A zone as PostgreSQL reads it the way java.time does. A fixed offset is written as a POSIX zone, whose offset
   * PostgreSQL reads with the sign flipped
   * (https://www.postgresql.org/docs/current/datetime-posix-timezone-specs.html): {@code +10:00} becomes
   * {@code <+1000>-10:00}; UTC as {@code UTC}; a region id as it is.
   */
  public static String pgZone(String zone) {
    ZoneOffset offset;
    try {
      offset = ZoneOffset.of(zone);
    } catch (DateTimeException regionOrUtc) {
      return "Z".equals(zone) ? "UTC" : zone;
    }
    if (offset.getTotalSeconds() == 0) {
      return "UTC";
    }
    String id = offset.getId(); // +10:00
    String flipped = (id.charAt(0) == '+' ? '-' : '+') + id.substring(1);
    return "<" + id.replace(":", "") + ">" + flipped;
  }

  private static Future<Void> upsert(SqlClient client, UUID workspaceId, String sourceId, long pollSeq,
                                     List<SpendRow> rows) {
    if (rows.isEmpty()) {
      return Future.succeededFuture();
    }
    // One row per key: a statement may not update the same row twice (the last of a page's duplicates wins).
    Map<List<Object>, SpendRow> unique = new LinkedHashMap<>();
    rows.forEach(row -> unique.put(List.of(row.level(), row.objectId(), row.day()), row));
    List<SpendRow> list = List.copyOf(unique.values());
    int n = list.size();
    String[] levels = new String[n];
    String[] ids = new String[n];
    String[] days = new String[n];
    String[] zones = new String[n];
    String[] currencies = new String[n];
    String[] spends = new String[n];
    String[][] names = new String[5][n];
    Long[] impressions = new Long[n];
    Long[] clicks = new Long[n];
    String[] actions = new String[n];
    for (int i = 0; i < n; i++) {
      SpendRow row = list.get(i);
      levels[i] = row.level();
      ids[i] = row.objectId();
      days[i] = row.day().toString();
      zones[i] = pgZone(row.zone());
      currencies[i] = row.currency();
      spends[i] = row.spend().toPlainString();
      names[0][i] = row.campaignId();
      names[1][i] = row.campaignName();
      names[2][i] = row.adsetId();
      names[3][i] = row.adsetName();
      names[4][i] = row.adName();
      impressions[i] = row.impressions();
      clicks[i] = row.clicks();
      actions[i] = row.actions().isEmpty() ? null : new JsonObject(Map.copyOf(row.actions())).encode();
    }
    Tuple tuple = Tuple.of(workspaceId, sourceId, pollSeq).addArrayOfString(levels).addArrayOfString(ids)
        .addArrayOfString(days).addArrayOfString(zones).addArrayOfString(currencies).addArrayOfString(spends);
    for (String[] column : names) {
      tuple.addArrayOfString(column);
    }
    tuple.addArrayOfLong(impressions).addArrayOfLong(clicks).addArrayOfString(actions);
    return client.preparedQuery(UPSERT).execute(tuple)
        .compose(v -> client.preparedQuery(ZONES).execute(Tuple.of(workspaceId).addArrayOfString(zones)))
        .mapEmpty();
  }
}
