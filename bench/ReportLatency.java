import io.vertx.core.Vertx;
import io.vertx.pgclient.PgBuilder;
import io.vertx.pgclient.PgConnectOptions;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.PoolOptions;
import io.vertx.sqlclient.Tuple;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * The funnel report's latency over a month of a large workspace: seeds the report's hourly rollups with what
 * {@code EVENTS} events over {@code DAYS} days leave there (every hour, each of 240 ads in 2 countries reaches every
 * step: clicks, starts, join requests, joins, unsubscribes, REG, FTD, DEP), then asks the running service's
 * {@code GET /api/v1/reports/funnel} over those days in seven shapes and prints each shape's p50 / p95 / max and the
 * p95 of all of them (the last: days of another zone than the workspace's with a dimension). Every shape reads the
 * cost too: the daily spend of {@code SPEND_ADS} ads (the 240 with clicks among them) is seeded beside the rollups,
 * and one more shape groups by ad, where each row carries its ad's spend.
 * The report reads the rollups only, never raw events, so the rollups are what such a month leaves.
 *
 * <p>With {@code cohorts} last, the cohort report's instead, over {@code DAYS} click days: seeds what the events of
 * those days leave in the rollups it reads (each day's clicks of the 240 ads in 2 countries, and their conversions'
 * revenue and payers at ten ages from day 0 to day 30, with the ads' daily spend), then asks
 * {@code GET /api/v1/reports/cohorts} by campaign and by ad with the default ages.
 *
 * <p>Run from bench/run.sh: {@code java -cp target/event-router.jar bench/ReportLatency.java PG_URL PORT WORKSPACE
 * KEY DAYS EVENTS REQUESTS [cohorts]}.
 */
public class ReportLatency {

  private static final String[] STEPS = {"$click", "$start", "$join_request", "$join", "$unsubscribe", "REG", "FTD",
      "DEP"};
  /** Each step's count as a share of the events of an hour and ad (the conversions are REG, FTD, DEP, JoinRequest). */
  private static final double[] PER_EVENT = {3.0, 1.2, 0.3, 0.5, 0.1, 0.4, 0.18, 0.12};
  private static final int ADS = 240;
  private static final int COUNTRIES = 2;
  /** Ads with daily spend: a large account's, most of them without a click in the workspace. */
  private static final int SPEND_ADS = 10_000;
  /** The ages at which the cohorts' conversions are seeded. */
  private static final Integer[] AGES = {0, 1, 2, 3, 5, 7, 10, 14, 21, 30};

  public static void main(String[] args) throws Exception {
    try {
      measure(args);
    } catch (Exception e) { // said here: the JDK 17 source launcher hides an awaited future's failure (see Settle)
      System.err.println("bench: ReportLatency failed: " + e);
      System.exit(1);
    }
  }

  private static void measure(String[] args) throws Exception {
    String url = args[0];
    int port = Integer.parseInt(args[1]);
    UUID workspace = UUID.fromString(args[2]);
    String key = args[3];
    int days = Integer.parseInt(args[4]);
    long events = Long.parseLong(args[5]);
    int requests = Integer.parseInt(args[6]);
    boolean cohorts = args.length > 7 && "cohorts".equals(args[7]);
    Vertx vertx = Vertx.vertx();
    Pool pool = PgBuilder.pool().connectingTo(PgConnectOptions.fromUri(url)).with(new PoolOptions().setMaxSize(1))
        .using(vertx).build();
    try {
      LocalDate to = LocalDate.now(ZoneOffset.UTC).minusDays(1);
      LocalDate from = to.minusDays(days - 1);
      long rows = cohorts ? seedCohorts(pool, workspace, from, days, events)
          : seed(pool, workspace, from, days, events);
      System.out.println("seeded " + rows + (cohorts ? " cohort" : " rollup") + " rows for " + events + " events over "
          + days + " days");
      String range = "from=" + from + "&to=" + to;
      Map<String, String> shapes = cohorts ? cohortShapes(range) : funnelShapes(range);
      String path = cohorts ? "/api/v1/reports/cohorts?" : "/api/v1/reports/funnel?";
      HttpClient http = HttpClient.newHttpClient();
      List<Double> all = new ArrayList<>();
      for (Map.Entry<String, String> shape : shapes.entrySet()) {
        List<Double> times = new ArrayList<>();
        int refused = 0;
        for (int i = 0; i < requests + 2; i++) {
          HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path
              + shape.getValue())).header("x-api-key", key).GET().build();
          long started = System.nanoTime();
          HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
          double ms = (System.nanoTime() - started) / 1e6;
          if (response.statusCode() == 503) {
            // Past the read statement timeout: refused, counted, not timed.
            refused++;
            continue;
          }
          if (response.statusCode() != 200) {
            throw new IllegalStateException(shape.getKey() + ": HTTP " + response.statusCode() + " "
                + response.body());
          }
          if (i >= 2) { // the first two warm the plan cache and the pages
            times.add(ms);
          }
        }
        all.addAll(times);
        System.out.printf("SHAPE name=%s p50_ms=%s p95_ms=%s max_ms=%s requests=%d refused=%d%n", shape.getKey(),
            ms(times, 0.5), ms(times, 0.95), ms(times, 1.0), times.size(), refused);
      }
      System.out.printf("RESULT rows=%d events=%d days=%d p50_ms=%.1f p95_ms=%.1f max_ms=%.1f requests=%d%n", rows,
          events, days, percentile(all, 0.5), percentile(all, 0.95), percentile(all, 1.0), all.size());
    } finally {
      pool.close().await();
      vertx.close().await();
    }
  }

  /** The funnel report's shapes over the range. */
  private static Map<String, String> funnelShapes(String range) {
    Map<String, String> shapes = new LinkedHashMap<>();
    shapes.put("by-day", range);
      shapes.put("by-campaign", range + "&group_by=utm_campaign");
      shapes.put("by-campaign-ad", range + "&group_by=campaign_id,ad_id");
      shapes.put("by-day-filtered", range + "&group_by=day&filter=country:DE");
      shapes.put("by-bot-channel", range + "&group_by=bot,channel");
      shapes.put("by-day-berlin", range + "&group_by=day&tz=Europe/Berlin");
      // Days of a zone other than the workspace's report_timezone, with a dimension: the day layer shifted by the
      // hours between the zones.
      shapes.put("other-zone-days-filtered", range + "&group_by=day&tz=Europe/Berlin&filter=country:DE");
      shapes.put("by-ad-with-cost", range + "&group_by=ad_id");
    return shapes;
  }

  /** The cohort report's shapes over the range, with the default ages. */
  private static Map<String, String> cohortShapes(String range) {
    Map<String, String> shapes = new LinkedHashMap<>();
    shapes.put("cohorts-by-campaign", range + "&group_by=campaign_id");
    shapes.put("cohorts-by-ad", range + "&group_by=ad_id");
    return shapes;
  }

  /** The rollup rows of the month, written by PostgreSQL itself (generate_series), then analysed. */
  private static long seed(Pool pool, UUID workspace, LocalDate from, int days, long events) {
    // A database kept from an earlier run of the same month (BENCH_KEEP, DATABASE_URL) is measured as it is.
    long kept = pool.preparedQuery("SELECT count(*) FROM funnel_rollup WHERE workspace_id = $1 AND hour >= $2")
        .execute(Tuple.of(workspace, from.atStartOfDay().atOffset(ZoneOffset.UTC))).await().iterator().next()
        .getLong(0);
    if (kept == (long) days * 24 * ADS * COUNTRIES * STEPS.length) {
      return kept;
    }
    double perCombo = (double) events / (days * 24L * ADS * COUNTRIES);
    StringBuilder steps = new StringBuilder();
    for (int i = 0; i < STEPS.length; i++) {
      steps.append(i == 0 ? "" : ", ").append("('").append(STEPS[i]).append("', ").append(PER_EVENT[i]).append(")");
    }
    String sql = """
        INSERT INTO funnel_rollup (workspace_id, hour, utm_source, utm_medium, utm_campaign, utm_content, utm_term,
            campaign_id, adset_id, ad_id, placement, bot, channel, country, step, n, users, revenue, approved)
        SELECT $1, $2::timestamptz + make_interval(hours => h),
               CASE WHEN ad % 2 = 0 THEN 'fb' ELSE 'tt' END, 'cpc', 'campaign-' || (ad / 20), 'ad-' || ad, '',
               (1000 + ad / 20)::text, (2000 + ad / 5)::text, (3000 + ad)::text,
               (ARRAY['Facebook_Mobile_Feed', 'Instagram_Stories', 'Instagram_Reels', 'TikTok'])[1 + ad % 4],
               (ARRAY['signals_bot', 'signals_backup_bot'])[1 + ad % 2],
               (ARRAY['-1001234567890', '-1009876543210', '@signals_es'])[1 + ad % 3],
               (ARRAY['DE', 'BR'])[1 + c], s.step,
               greatest(1, round(s.share * $3 * (0.5 + ((h * 31 + ad * 7 + c) % 10) / 10.0)))::bigint,
               greatest(1, round(s.share * $3 * 0.8))::bigint,
               CASE s.step WHEN 'FTD' THEN round(s.share * $3 * 50, 2) WHEN 'DEP' THEN round(s.share * $3 * 30, 2)
                           ELSE 0 END,
               CASE WHEN s.step IN ('FTD', 'DEP') THEN greatest(1, round(s.share * $3))::bigint ELSE 0 END
        FROM generate_series(0, $4 - 1) AS h, generate_series(0, $5 - 1) AS ad, generate_series(0, $6 - 1) AS c,
             (VALUES STEPS) AS s(step, share)
        ON CONFLICT DO NOTHING""".replace("STEPS", steps);
    long rows = pool.preparedQuery(sql).execute(Tuple.of(workspace, from.atStartOfDay().atOffset(ZoneOffset.UTC),
        perCombo, days * 24, ADS, COUNTRIES)).await().rowCount();
    // The coarser layers, as the rounds keep them: the days of the workspace's report zone (UTC here), their clicks
    // by ids, the hours' totals.
    String dims = "utm_source, utm_medium, utm_campaign, utm_content, utm_term, campaign_id, adset_id, ad_id, "
        + "placement, bot, channel, country";
    String sums = "sum(n), sum(users), sum(revenue), sum(unconverted), sum(pending), sum(approved), sum(rejected), "
        + "sum(chargeback)";
    pool.preparedQuery("INSERT INTO funnel_day_zone VALUES ($1, 'Z') ON CONFLICT DO NOTHING")
        .execute(Tuple.of(workspace)).await();
    pool.preparedQuery("INSERT INTO funnel_rollup_day SELECT workspace_id, (hour AT TIME ZONE 'UTC')::date, " + dims
        + ", step, " + sums + " FROM funnel_rollup WHERE workspace_id = $1 GROUP BY workspace_id,"
        + " (hour AT TIME ZONE 'UTC')::date, " + dims + ", step ON CONFLICT DO NOTHING")
        .execute(Tuple.of(workspace)).await();
    // The day rows' clicks by the click's ids alone.
    pool.preparedQuery("""
        INSERT INTO funnel_ad_clicks (workspace_id, day, campaign_id, adset_id, ad_id, n)
        SELECT workspace_id, day, campaign_id, adset_id, ad_id, sum(n) FROM funnel_rollup_day
         WHERE workspace_id = $1 AND step = '$click' GROUP BY workspace_id, day, campaign_id, adset_id, ad_id
        ON CONFLICT (workspace_id, day, campaign_id, adset_id, ad_id) DO UPDATE SET n = EXCLUDED.n""")
        .execute(Tuple.of(workspace)).await();
    pool.preparedQuery("INSERT INTO funnel_rollup_total SELECT workspace_id, hour, step, " + sums
        + " FROM funnel_rollup WHERE workspace_id = $1 GROUP BY workspace_id, hour, step ON CONFLICT DO NOTHING")
        .execute(Tuple.of(workspace)).await();
    // Each ad's daily spend over the days, in the account's zone (UTC here, the workspace's report zone too).
    pool.preparedQuery("""
        INSERT INTO ad_spend (workspace_id, source_id, level, object_id, day, zone, currency, spend, campaign_id,
                              adset_id)
        SELECT $1, 'bench-meta', 'ad', (3000 + ad)::text, $2::date + d, 'UTC', 'USD', 1 + ad % 97 + (d % 10) / 10.0,
               (1000 + ad / 20)::text, (2000 + ad / 5)::text
          FROM generate_series(0, $3 - 1) AS d, generate_series(0, $4 - 1) AS ad
        ON CONFLICT DO NOTHING""")
        .execute(Tuple.of(workspace, from, days, SPEND_ADS)).await();
    pool.preparedQuery("INSERT INTO ad_spend_zones VALUES ($1, 'UTC') ON CONFLICT DO NOTHING")
        .execute(Tuple.of(workspace)).await();
    pool.query("ANALYZE funnel_rollup, funnel_rollup_day, funnel_ad_clicks, funnel_rollup_total, ad_spend").execute()
        .await();
    return rows;
  }

  /** The click day rows, the cohort rows and the spend of the days, written by PostgreSQL itself (generate_series). */
  private static long seedCohorts(Pool pool, UUID workspace, LocalDate from, int days, long events) {
    double clicksPerCombo = 3.0 * events / (8.5 * days * ADS * COUNTRIES);
    String dims = "utm_source, utm_medium, utm_campaign, utm_content, utm_term, campaign_id, adset_id, ad_id, "
        + "placement, bot, channel, country";
    String values = """
        CASE WHEN ad % 2 = 0 THEN 'fb' ELSE 'tt' END, 'cpc', 'campaign-' || (ad / 20), 'ad-' || ad, '',
        (1000 + ad / 20)::text, (2000 + ad / 5)::text, (3000 + ad)::text,
        (ARRAY['Facebook_Mobile_Feed', 'Instagram_Stories', 'Instagram_Reels', 'TikTok'])[1 + ad % 4],
        (ARRAY['signals_bot', 'signals_backup_bot'])[1 + ad % 2],
        (ARRAY['-1001234567890', '-1009876543210', '@signals_es'])[1 + ad % 3], (ARRAY['DE', 'BR'])[1 + c]""";
    pool.preparedQuery("INSERT INTO funnel_day_zone VALUES ($1, 'Z') ON CONFLICT DO NOTHING")
        .execute(Tuple.of(workspace)).await();
    pool.preparedQuery("INSERT INTO funnel_rollup_day (workspace_id, day, " + dims + ", step, n) SELECT $1, "
        + "$2::date + d, " + values + ", '$click', greatest(1, round($3 * (0.5 + ((d * 31 + ad * 7 + c) % 10) "
        + "/ 10.0)))::bigint FROM generate_series(0, $4 - 1) AS d, generate_series(0, $5 - 1) AS ad, "
        + "generate_series(0, $6 - 1) AS c ON CONFLICT DO NOTHING")
        .execute(Tuple.of(workspace, from, clicksPerCombo, days, ADS, COUNTRIES)).await();
    // Revenue falls off with age: a first deposit on day 0, redeposits later.
    long rows = pool.preparedQuery("INSERT INTO funnel_cohort (workspace_id, click_day, age, " + dims
        + ", revenue, payers) SELECT $1, $2::date + d, a, " + values + ", round($3 * 40.0 / (1 + a), 2), "
        + "CASE WHEN a = 0 THEN greatest(1, round($3 * 0.06))::bigint ELSE (a % 3 = 0)::int END "
        + "FROM generate_series(0, $4 - 1) AS d, generate_series(0, $5 - 1) AS ad, generate_series(0, $6 - 1) AS c, "
        + "unnest($7::int[]) AS a WHERE $2::date + d + a < current_date ON CONFLICT DO NOTHING")
        .execute(Tuple.of(workspace, from, clicksPerCombo, days, ADS, COUNTRIES, AGES)).await().rowCount();
    // The layers by the click's ids alone (clicks, cohorts by day and by week), as the rounds keep them.
    pool.preparedQuery("""
        INSERT INTO funnel_ad_clicks (workspace_id, day, campaign_id, adset_id, ad_id, n)
        SELECT workspace_id, day, campaign_id, adset_id, ad_id, sum(n) FROM funnel_rollup_day
         WHERE workspace_id = $1 AND step = '$click' GROUP BY workspace_id, day, campaign_id, adset_id, ad_id
        ON CONFLICT (workspace_id, day, campaign_id, adset_id, ad_id) DO UPDATE SET n = EXCLUDED.n""")
        .execute(Tuple.of(workspace)).await();
    pool.preparedQuery("""
        INSERT INTO funnel_cohort_ads (workspace_id, click_day, age, campaign_id, adset_id, ad_id, revenue, payers)
        SELECT workspace_id, click_day, age, campaign_id, adset_id, ad_id, sum(revenue), sum(payers)
          FROM funnel_cohort WHERE workspace_id = $1 AND click_day >= $2
         GROUP BY workspace_id, click_day, age, campaign_id, adset_id, ad_id
        ON CONFLICT DO NOTHING""").execute(Tuple.of(workspace, from)).await();
    pool.preparedQuery("""
        INSERT INTO funnel_cohort_ad_weeks (workspace_id, click_week, age, campaign_id, adset_id, ad_id, revenue,
                                            payers)
        SELECT workspace_id, date_trunc('week', click_day::timestamp)::date, age, campaign_id, adset_id, ad_id,
               sum(revenue), sum(payers) FROM funnel_cohort_ads WHERE workspace_id = $1
         GROUP BY 1, 2, 3, 4, 5, 6
        ON CONFLICT (workspace_id, click_week, age, campaign_id, adset_id, ad_id) DO UPDATE
           SET revenue = EXCLUDED.revenue, payers = EXCLUDED.payers""").execute(Tuple.of(workspace)).await();
    pool.preparedQuery("""
        INSERT INTO ad_spend (workspace_id, source_id, level, object_id, day, zone, currency, spend, campaign_id,
                              adset_id)
        SELECT $1, 'bench-meta', 'ad', (3000 + ad)::text, $2::date + d, 'UTC', 'USD', 1 + ad % 97 + (d % 10) / 10.0,
               (1000 + ad / 20)::text, (2000 + ad / 5)::text
          FROM generate_series(0, $3 - 1) AS d, generate_series(0, $4 - 1) AS ad
        ON CONFLICT DO NOTHING""").execute(Tuple.of(workspace, from, days, ADS)).await();
    pool.preparedQuery("INSERT INTO ad_spend_zones VALUES ($1, 'UTC') ON CONFLICT DO NOTHING")
        .execute(Tuple.of(workspace)).await();
    pool.query("ANALYZE funnel_rollup_day, funnel_ad_clicks, funnel_cohort, funnel_cohort_ads, "
        + "funnel_cohort_ad_weeks, ad_spend").execute().await();
    return rows;
  }

  private static String ms(List<Double> values, double p) {
    return values.isEmpty() ? "-" : String.format("%.1f", percentile(values, p));
  }

  private static double percentile(List<Double> values, double p) {
    List<Double> sorted = new ArrayList<>(values);
    sorted.sort(Double::compare);
    return sorted.get(Math.min(sorted.size() - 1, (int) Math.ceil(p * sorted.size()) - 1));
  }
}
