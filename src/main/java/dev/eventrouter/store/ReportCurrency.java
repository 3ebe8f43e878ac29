package dev.eventrouter.store;

import io.vertx.core.Future;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.SqlConnection;
import io.vertx.sqlclient.Tuple;

import java.math.BigDecimal;
import java.time.LocalDate;
import java.util.List;

import static dev.eventrouter.store.FunnelRollups.EVENTS_IN_SPAN;

/**
 * SQL of the funnel report's currency: the rates the operator's file gives, and the report values a rollup round
 * converts with them before it adds them up ({@link FunnelRollups}).
 */
public final class ReportCurrency {

  /** A value in the workspace's report currency ($3, $4: workspaces and their currencies) on the day of {@code e}. */
  private static final String CONVERTED = """
      CASE WHEN %1$s.currency = w.cur THEN %1$s.value
           ELSE round(%1$s.value * fx_per_eur(w.cur, (e.received_at AT TIME ZONE 'UTC')::date)
                      / fx_per_eur(%1$s.currency, (e.received_at AT TIME ZONE 'UTC')::date), 6) END""";

  /**
   * The report values of the span's conversions in another currency than their workspace's report currency. One in
   * the report currency gets no row: its value is its report value, which no rate changes (most conversions, and a
   * row each would be a random-order index insert per conversion).
   */
  static final String VALUES_OF_EVENTS = """
      INSERT INTO conversion_values (event_id, seq, report_value, report_currency)
      SELECT e.event_id, 0, %s, w.cur
        FROM events e JOIN unnest($3::uuid[], $4::text[]) AS w(workspace_id, cur) ON w.workspace_id = e.workspace_id
       WHERE %s AND e.value IS NOT NULL AND e.currency IS DISTINCT FROM w.cur
      ON CONFLICT DO NOTHING""".formatted(CONVERTED.formatted("e"), EVENTS_IN_SPAN);

  static final String VALUES_OF_CHANGES = """
      INSERT INTO conversion_values (event_id, seq, report_value, report_currency)
      SELECT h.event_id, h.seq, %s, w.cur
        FROM conversion_changes h JOIN events e ON e.event_id = h.event_id
        JOIN unnest($3::uuid[], $4::text[]) AS w(workspace_id, cur) ON w.workspace_id = e.workspace_id
       WHERE h.changed_at >= $1 AND h.changed_at < $2 AND h.value IS NOT NULL
      ON CONFLICT DO NOTHING""".formatted(CONVERTED.formatted("h"));

  static final String IMPORT_RATES = """
      INSERT INTO fx_rates (currency, day, per_eur)
      SELECT * FROM unnest($1::text[], $2::date[], $3::numeric[])
      ON CONFLICT (currency, day) DO UPDATE SET per_eur = EXCLUDED.per_eur
       WHERE fx_rates.per_eur IS DISTINCT FROM EXCLUDED.per_eur""";

  private final Pool pool;

  public ReportCurrency(Pool pool) {
    this.pool = pool;
  }

  /** Stores the rates of a rates file (a rate already stored unchanged is not rewritten). */
  public Future<Integer> importRates(List<String> currencies, List<LocalDate> days, List<BigDecimal> perEur) {
    return pool.preparedQuery(IMPORT_RATES).execute(Tuple.of(currencies.toArray(String[]::new),
            days.toArray(LocalDate[]::new), perEur.toArray(BigDecimal[]::new)))
        .map(rows -> rows.rowCount());
  }

  /**
   * Stores the report values of a round's span ($1, $2) for the workspaces and their report currencies ($3, $4),
   * in the round's transaction.
   */
  static Future<Void> convert(SqlConnection conn, Tuple span) {
    return conn.preparedQuery(VALUES_OF_EVENTS).execute(span)
        .compose(v -> conn.preparedQuery(VALUES_OF_CHANGES).execute(span)).mapEmpty();
  }
}
