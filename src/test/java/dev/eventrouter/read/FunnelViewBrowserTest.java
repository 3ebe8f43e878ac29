package dev.eventrouter.read;

import dev.eventrouter.support.Await;
import dev.eventrouter.support.Browser;
import dev.eventrouter.support.FunnelDataSet;
import dev.eventrouter.support.TestApp;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.junit5.VertxExtension;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.Select;
import org.openqa.selenium.support.ui.WebDriverWait;

import java.io.IOException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDate;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;

import static dev.eventrouter.support.TestApp.KEY_A;
import static dev.eventrouter.support.TestApp.KEY_B;
import static dev.eventrouter.support.TestApp.WS_B;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The debugger page's Funnel view, in a real headless Chromium against the real service and PostgreSQL, over the
 * funnel report's own data set ({@link FunnelDataSet}): the numbers {@link FunnelReportTest} computes by hand read
 * on the page, sorting, the chart of the steps, the grouping and filter pickers, the time range and zone, the CSV
 * file, a cut report, markup in a campaign shown as text, and sign-out forgetting the report. A screenshot of the
 * view is left in target/screenshots.
 */
@ExtendWith(VertxExtension.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class FunnelViewBrowserTest {

  private static final Duration DEADLINE = Duration.ofSeconds(30);
  /** A campaign name that would run if the page inserted it as HTML. */
  private static final String SCRIPT_CAMPAIGN = "<img src=x onerror=window.pwned=1>";
  /** Workspace B's campaigns: one more than a report shows. */
  private static final int B_CAMPAIGNS = 1001;

  private ChromeDriver browser;
  private Path downloads;
  private FunnelDataSet data;

  @BeforeAll
  void start(Vertx vertx, @TempDir Path dir) throws IOException {
    downloads = Files.createDirectories(dir.resolve("downloads"));
    // First, so a machine without a browser skips the class before building anything.
    browser = Browser.start(downloads);
    data = FunnelDataSet.start(vertx, dir);
    seedWorkspaceB();
    // Spring's campaign (111) cost 50.00 today: against its 183.00 of revenue, ROAS 3.66 and 133.00 of profit.
    HttpResponse<Buffer> cost = data.app().postJson("/api/v1/costs", KEY_A, new JsonObject().put("source", "sheet")
        .put("rows", new JsonArray().add(new JsonObject().put("date", LocalDate.now(ZoneOffset.UTC).toString())
            .put("timezone", "UTC").put("level", "campaign").put("id", "111").put("cost", 50)
            .put("currency", "USD"))));
    assertThat(cost.statusCode()).as(cost.bodyAsString()).isEqualTo(200);
  }

  @AfterAll
  void stop() {
    if (browser != null) {
      browser.quit();
    }
    if (data != null) {
      data.close();
    }
  }

  /** Workspace B: a click for each of 1,001 campaigns, one of them named with markup. */
  private void seedWorkspaceB() {
    TestApp app = data.app();
    for (int from = 0; from < B_CAMPAIGNS; from += 100) {
      List<Future<HttpResponse<Buffer>>> sent = new ArrayList<>();
      for (int i = from; i < Math.min(from + 100, B_CAMPAIGNS); i++) {
        String campaign = i == 0 ? SCRIPT_CAMPAIGN : String.format("c%04d", i);
        JsonObject capture = new JsonObject().put("workspace_id", WS_B).put("session_id", "b" + i)
            .put("landing_url", "https://pre.example/?utm_source=fb&utm_campaign="
                + URLEncoder.encode(campaign, StandardCharsets.UTF_8));
        sent.add(app.client().post(app.port(), "127.0.0.1", "/api/v1/sessions")
            .putHeaders(TestApp.jsonHeaders(KEY_B)).sendBuffer(capture.toBuffer()));
      }
      Future.join(sent).await();
      sent.forEach(r -> assertThat(r.result().statusCode()).as(r.result().bodyAsString()).isEqualTo(200));
    }
    data.awaitRolledUp(KEY_B);
  }

  // ---- driving the page ----------------------------------------------------------------------------------------

  private WebDriverWait waiting() {
    return Browser.waiting(browser, DEADLINE);
  }

  private void open() {
    Browser.openDebugger(browser, data.app().port(), DEADLINE);
  }

  private void signIn(String key) {
    Browser.signIn(browser, key);
  }

  /** Signed in as A, on the Funnel view with its first report (the last 7 days by campaign) shown. */
  private void openFunnel() {
    open();
    signIn(KEY_A);
    waiting().until(ExpectedConditions.visibilityOfElementLocated(By.id("events-view")));
    browser.findElement(By.id("tab-funnel")).click();
    awaitGroups("autumn", "spring");
  }

  private String text(String css) {
    return waiting().until(d -> d.findElement(By.cssSelector(css)).getText());
  }

  /** The groups the table shows, top to bottom. */
  private List<String> groups() {
    return waiting().until(d -> d.findElements(By.cssSelector("#funnel-table tbody tr")).stream()
        .map(row -> row.getAttribute("data-group")).toList());
  }

  /** Waits until the table shows these groups, in this order. */
  private void awaitGroups(String... expected) {
    List<String> wanted = List.of(expected);
    AtomicReference<List<String>> seen = new AtomicReference<>(List.of());
    waiting().withMessage(() -> "the groups " + wanted + "; shown: " + seen.get() + ", error: "
        + browser.findElement(By.id("funnel-error")).getText()).until(d -> {
          seen.set(groups());
          return seen.get().equals(wanted);
        });
  }

  /** One cell of a group's row: {@code col} a field (clicks), an event's (events.FTD.revenue) or a rate's. */
  private String cell(String group, String col) {
    return text("#funnel-table tbody tr[data-group='" + group + "'] [data-col='" + col + "']");
  }

  private String total(String col) {
    return text("#funnel-table tfoot tr [data-col='" + col + "']");
  }

  private WebElement header(String col) {
    return browser.findElement(By.cssSelector("#funnel-table thead th[data-col='" + col + "']"));
  }

  private void sortBy(String col) {
    header(col).findElement(By.tagName("button")).click();
  }

  private WebElement field(String name) {
    return browser.findElement(By.cssSelector("#funnel-form [name=" + name + "]"));
  }

  /** Sets a picker's value as a user's choice would (a date input's typing is the browser locale's). */
  private void set(String name, String value) {
    WebElement field = field(name);
    if (field.getTagName().equals("select")) {
      new Select(field).selectByValue(value);
    } else {
      browser.executeScript("arguments[0].value = arguments[1]", field, value);
    }
  }

  private void showReport() {
    browser.findElement(By.cssSelector("#funnel-form button[type=submit]")).click();
  }

  /** The n-th filter row's pickers (from 1). */
  private void filter(int n, String dimension, String value) {
    String row = "#funnel-filter-list .filter-row:nth-child(" + n + ") ";
    new Select(browser.findElement(By.cssSelector(row + "select"))).selectByValue(dimension);
    WebElement input = browser.findElement(By.cssSelector(row + "input"));
    input.clear();
    input.sendKeys(value);
  }

  /** The chart's steps: each bar's title, top to bottom. */
  private List<String> bars() {
    return waiting().until(d -> d.findElements(By.cssSelector("#funnel-chart svg g.step title")).stream()
        .map(t -> t.getAttribute("textContent")).toList());
  }

  // ---- the tests -----------------------------------------------------------------------------------------------

  @Test
  @DisplayName("by campaign: the hand-computed numbers of the report's test on the page (clicks, starts, joins, "
      + "unsubscribes, each event's count, users and revenue, the step rates, the totals), how fresh it is; the "
      + "events view still there")
  void byCampaign() {
    openFunnel();
    String zone = (String) browser.executeScript("return Intl.DateTimeFormat().resolvedOptions().timeZone");
    assertThat(field("tz").getAttribute("value")).as("the browser's time zone").isEqualTo(zone);
    LocalDate today = LocalDate.now(ZoneId.of(zone));
    assertThat(field("to").getAttribute("value")).isEqualTo(today.toString());
    assertThat(field("from").getAttribute("value")).isEqualTo(today.minusDays(6).toString());
    assertThat(browser.findElement(By.id("tab-funnel")).getAttribute("aria-selected")).isEqualTo("true");
    assertThat(browser.findElement(By.id("events-view")).isDisplayed()).isFalse();

    assertThat(cell("spring", "group.utm_campaign")).isEqualTo("spring");
    assertThat(cell("spring", "clicks")).isEqualTo("2");
    assertThat(cell("spring", "starts")).isEqualTo("2");
    assertThat(cell("spring", "join_requests")).isEqualTo("0");
    assertThat(cell("spring", "joins")).isEqualTo("1");
    assertThat(cell("spring", "unsubscribes")).isEqualTo("1");
    assertThat(cell("spring", "remaining_subscribers")).isEqualTo("0");
    assertThat(cell("spring", "revenue")).isEqualTo("183.00");
    assertThat(cell("spring", "events.FTD.count")).isEqualTo("2");
    assertThat(cell("spring", "events.FTD.users")).isEqualTo("2");
    assertThat(cell("spring", "events.FTD.revenue")).isEqualTo("163.00");
    assertThat(cell("spring", "events.DEP.revenue")).isEqualTo("20.00");
    assertThat(cell("spring", "events.REG.users")).isEqualTo("2");
    assertThat(cell("spring", "rates.clicks_to_starts")).isEqualTo("100.0%");
    assertThat(cell("spring", "rates.REG_to_FTD")).isEqualTo("100.0%");
    assertThat(cell("spring", "rates.FTD_to_DEP")).isEqualTo("50.0%");
    assertThat(cell("spring", "rates.unsubscribe_rate")).isEqualTo("100.0%");
    assertThat(cell("autumn", "clicks")).isEqualTo("1");
    assertThat(cell("autumn", "starts")).isEqualTo("0");
    assertThat(cell("autumn", "join_requests")).isEqualTo("1");
    assertThat(cell("autumn", "revenue")).isEqualTo("12.35");
    assertThat(cell("autumn", "rates.starts_to_join_requests")).as("no starts: no rate").isEqualTo("–");
    assertThat(total("group.utm_campaign")).isEqualTo("Total");
    assertThat(total("clicks")).isEqualTo("3");
    assertThat(total("revenue")).isEqualTo("195.35");
    assertThat(total("events.FTD.users")).isEqualTo("3");

    assertThat(header("revenue").getText()).startsWith("revenue, USD");
    assertThat(browser.findElements(By.cssSelector("#funnel-table thead th.band")).stream()
        .map(WebElement::getText).toList()).startsWith("REG", "FTD", "DEP")
        .endsWith("step rates", "cost, USD", "return");
    assertThat(browser.findElements(By.cssSelector("#funnel-table th")).stream()
        .map(th -> th.getAttribute("scope")).distinct().toList())
        .as("every header says what it heads").containsExactlyInAnyOrder("col", "colgroup", "row");
    assertThat(text("#funnel-meta")).contains(today.minusDays(6) + " to " + today, zone, "revenue and cost in USD")
        .containsPattern("counted up to \\d{2}:\\d{2}$");
    assertThat(browser.findElement(By.id("funnel-truncated")).isDisplayed()).isFalse();
    Browser.screenshot(browser, "ui-funnel");

    browser.findElement(By.id("tab-events")).click();
    waiting().until(ExpectedConditions.visibilityOfElementLocated(By.id("events-view")));
    assertThat(browser.findElement(By.id("funnel-view")).isDisplayed()).isFalse();
    waiting().until(d -> d.findElements(By.cssSelector("#events tbody tr")).stream()
        .anyMatch(row -> row.getText().contains("DEP")));
    assertThat(browser.findElement(By.id("tab-events")).getAttribute("aria-selected")).isEqualTo("true");
  }

  @Test
  @DisplayName("a column's header sorts the rows by it and says so (aria-sort); a second click reverses; a rate of "
      + "nothing sorts last either way; the totals stay last")
  void sorting() {
    openFunnel();
    assertThat(browser.findElements(By.cssSelector("#funnel-table th[aria-sort]"))).isEmpty();
    sortBy("clicks");
    awaitGroups("spring", "autumn");
    assertThat(header("clicks").getAttribute("aria-sort")).isEqualTo("descending");
    sortBy("clicks");
    awaitGroups("autumn", "spring");
    assertThat(header("clicks").getAttribute("aria-sort")).isEqualTo("ascending");

    sortBy("group.utm_campaign");
    waiting().until(d -> "ascending".equals(header("group.utm_campaign").getAttribute("aria-sort")));
    assertThat(groups()).containsExactly("autumn", "spring");
    assertThat(header("clicks").getAttribute("aria-sort")).as("one column sorts").isNull();
    sortBy("group.utm_campaign");
    awaitGroups("spring", "autumn");
    assertThat(header("group.utm_campaign").getAttribute("aria-sort")).isEqualTo("descending");

    sortBy("events.FTD.revenue");
    waiting().until(d -> "descending".equals(header("events.FTD.revenue").getAttribute("aria-sort")));
    assertThat(groups()).containsExactly("spring", "autumn");
    sortBy("events.FTD.revenue");
    awaitGroups("autumn", "spring");

    // spring: 2 starts, no join request (0%); autumn: no starts, so no rate.
    sortBy("rates.starts_to_join_requests");
    waiting().until(d -> "descending".equals(header("rates.starts_to_join_requests").getAttribute("aria-sort")));
    assertThat(groups()).containsExactly("spring", "autumn");
    sortBy("rates.starts_to_join_requests");
    waiting().until(d -> "ascending".equals(header("rates.starts_to_join_requests").getAttribute("aria-sort")));
    assertThat(groups()).containsExactly("spring", "autumn");
    assertThat(browser.findElements(By.cssSelector("#funnel-table th[aria-sort]"))).hasSize(1);
    List<WebElement> rows = browser.findElements(By.cssSelector("#funnel-table tr"));
    assertThat(rows.get(rows.size() - 1).getText()).startsWith("Total 3 ");
  }

  @Test
  @DisplayName("cost: spring's spend with its cost per click and per FTD, ROAS, profit and ROI; autumn, which no "
      + "spend names, shows none; the chart of spring has a ROAS bar past break-even; the Cost sources panel lists "
      + "the pushed sheet")
  void cost() {
    openFunnel();
    assertThat(cell("spring", "cost")).isEqualTo("50.00");
    assertThat(cell("spring", "cost_per_click")).isEqualTo("25.0000");
    assertThat(cell("spring", "cost_per.FTD")).isEqualTo("25.0000");
    assertThat(cell("spring", "roas")).isEqualTo("3.66×");
    assertThat(cell("spring", "profit")).isEqualTo("133.00");
    assertThat(cell("spring", "roi")).isEqualTo("266.0%");
    assertThat(cell("autumn", "cost")).isEqualTo("–");
    assertThat(cell("autumn", "roas")).isEqualTo("–");
    assertThat(total("cost")).isEqualTo("50.00");
    browser.findElement(By.cssSelector("#funnel-table tbody tr[data-group='spring']")).click();
    WebElement roas = waiting().until(d -> d.findElement(By.cssSelector("#funnel-chart svg g.roas")));
    assertThat(roas.getAttribute("data-roas")).isEqualTo("3.66");
    assertThat(roas.findElement(By.cssSelector("rect")).getAttribute("class")).isEqualTo("roas-bar good");
    browser.findElement(By.id("tab-events")).click();
    assertThat(text("#cost-sources tbody tr[data-source='sheet']")).contains("push").contains("1");
  }

  @Test
  @DisplayName("cohorts: by campaign and click day 60 days ago, each age's revenue and ROAS shaded good or bad, an "
      + "age not reached a dash, the totals, and a ROAS curve per campaign, the costliest first")
  void cohorts() {
    LocalDate day = LocalDate.now(ZoneOffset.UTC).minusDays(60);
    TestApp app = data.app();
    for (Object[] clicks : new Object[][] {{"north", 4}, {"south", 2}}) {
      app.rows("""
          INSERT INTO funnel_rollup_day (workspace_id, day, utm_source, utm_medium, utm_campaign, utm_content,
                                         utm_term, campaign_id, adset_id, ad_id, placement, bot, channel, country,
                                         step, n)
          VALUES ($1, $2, '', '', '', '', '', $3, '', '', '', '', '', '', '$click', $4)""",
          java.util.UUID.fromString(TestApp.WS_A), day, clicks[0], clicks[1]);
    }
    for (Object[] cohort : new Object[][] {{"north", 0, "30.00"}, {"north", 3, "50.00"}, {"south", 0, "5.00"}}) {
      app.rows("""
          INSERT INTO funnel_cohort (workspace_id, click_day, age, utm_source, utm_medium, utm_campaign, utm_content,
                                     utm_term, campaign_id, adset_id, ad_id, placement, bot, channel, country,
                                     revenue, payers)
          VALUES ($1, $2, $3, '', '', '', '', '', $4, '', '', '', '', '', '', $5::numeric, 1)""",
          java.util.UUID.fromString(TestApp.WS_A), day, cohort[1], cohort[0],
          new java.math.BigDecimal((String) cohort[2]));
    }
    // The layers by the click's ids alone, as the rounds keep them beside those: this report reads them.
    app.rows("""
        INSERT INTO funnel_ad_clicks (workspace_id, day, campaign_id, adset_id, ad_id, n)
        SELECT workspace_id, day, campaign_id, adset_id, ad_id, sum(n) FROM funnel_rollup_day
         WHERE workspace_id = $1 AND day = $2 AND step = '$click' GROUP BY 1, 2, 3, 4, 5
        ON CONFLICT (workspace_id, day, campaign_id, adset_id, ad_id) DO UPDATE SET n = EXCLUDED.n""",
        java.util.UUID.fromString(TestApp.WS_A), day);
    app.rows("""
        INSERT INTO funnel_cohort_ads (workspace_id, click_day, age, campaign_id, adset_id, ad_id, revenue, payers)
        SELECT workspace_id, click_day, age, campaign_id, adset_id, ad_id, sum(revenue), sum(payers) FROM funnel_cohort
         WHERE workspace_id = $1 AND click_day = $2 GROUP BY 1, 2, 3, 4, 5, 6""",
        java.util.UUID.fromString(TestApp.WS_A), day);
    JsonArray spend = new JsonArray();
    for (Object[] cost : new Object[][] {{"north", 40}, {"south", 20}}) {
      spend.add(new JsonObject().put("date", day.toString()).put("timezone", "UTC").put("level", "campaign")
          .put("id", cost[0]).put("cost", cost[1]).put("currency", "USD"));
    }
    HttpResponse<Buffer> pushed = app.postJson("/api/v1/costs", KEY_A, new JsonObject().put("source", "cohort-sheet")
        .put("rows", spend));
    assertThat(pushed.statusCode()).as(pushed.bodyAsString()).isEqualTo(200);

    openFunnel();
    set("from", day.toString());
    set("to", day.toString());
    set("group1", "campaign_id");
    set("group2", "");
    WebElement ages = browser.findElement(By.cssSelector("#cohort-form [name=ages]"));
    ages.clear();
    ages.sendKeys("0,3,7,90");
    browser.findElement(By.cssSelector("#cohort-form button[type=submit]")).click();
    String north = "#cohort-table tbody tr[data-group='north · " + day + "']";
    waiting().withMessage(() -> "the cohorts; error: " + browser.findElement(By.id("cohort-error")).getText())
        .until(d -> !d.findElements(By.cssSelector(north)).isEmpty());
    assertThat(text(north)).startsWith("north · " + day + " 4 40.00");
    WebElement d0 = browser.findElement(By.cssSelector(north + " td[data-age='0']"));
    assertThat(d0.getText()).isEqualTo("30.00\n0.75×");
    assertThat(d0.getAttribute("class")).isEqualTo("heat bad");
    WebElement d3 = browser.findElement(By.cssSelector(north + " td[data-age='3']"));
    assertThat(d3.getText()).isEqualTo("80.00\n2.00×");
    assertThat(d3.getAttribute("class")).isEqualTo("heat good");
    assertThat(browser.findElement(By.cssSelector(north + " td[data-age='90']")).getAttribute("class"))
        .isEqualTo("unreached");
    assertThat(text("#cohort-table tbody tr[data-group='south · " + day + "'] td[data-age='7']"))
        .isEqualTo("5.00\n0.25×");
    assertThat(text("#cohort-table tfoot tr")).startsWith("total 6 60.00 35.00\n0.58×");
    assertThat(text("#cohort-table tfoot td[data-age='3']")).isEqualTo("85.00\n1.42×");
    assertThat(text("#cohort-table tfoot td[data-age='90']")).isEqualTo("—");
    List<String> curves = browser.findElements(By.cssSelector("#cohort-chart svg g.curve")).stream()
        .map(g -> g.getAttribute("data-group")).toList();
    assertThat(curves).containsExactly("north · " + day, "south · " + day);
    assertThat(text("#cohort-meta")).contains("Click days " + day + " to " + day + " (UTC), revenue in USD");
  }

  @Test
  @DisplayName("reconcile: per ad, what was delivered to Meta beside Meta's own count, an ad counted under 80% of it "
      + "marked, the totals")
  void reconcile() {
    LocalDate day = LocalDate.now(ZoneOffset.UTC).minusDays(40);
    TestApp app = data.app();
    java.util.UUID ws = java.util.UUID.fromString(TestApp.WS_A);
    app.rows("""
        INSERT INTO cost_sources (workspace_id, source_id, kind, account_zone) VALUES ($1, 'fb-browser', 'meta', 'UTC')
        ON CONFLICT DO NOTHING""", ws);
    for (Object[] ad : new Object[][] {{"911", 5}, {"922", 4}}) {
      app.rows("""
          INSERT INTO ad_spend (workspace_id, source_id, level, object_id, day, zone, currency, spend, campaign_id,
                                adset_id, actions)
          VALUES ($1, 'fb-browser', 'ad', $2, $3, 'UTC', 'USD', 10, 'c9', 'as9',
                  jsonb_build_object('offsite_conversion.fb_pixel_purchase', $4::int, 'link_click', 70))""",
          ws, ad[0], day, ad[1]);
    }
    for (Object[] ad : new Object[][] {{"911", 10}, {"922", 4}}) {
      app.rows("""
          INSERT INTO delivered_counts (workspace_id, hour, network, integration_id, campaign_id, adset_id, ad_id,
                                        mapped_event, n)
          VALUES ($1, $2, 'meta', 'meta-main', 'c9', 'as9', $3, 'Purchase', $4)""",
          ws, day.atTime(12, 0).atOffset(ZoneOffset.UTC), ad[0], ad[1]);
    }

    openFunnel();
    set("from", day.toString());
    set("to", day.toString());
    browser.findElement(By.cssSelector("#reconcile-form button[type=submit]")).click();
    String short911 = "#reconcile-table tbody tr[data-group='911']";
    waiting().withMessage(() -> "the reconciliation; error: " + browser.findElement(By.id("reconcile-error"))
        .getText()).until(d -> !d.findElements(By.cssSelector(short911)).isEmpty());
    assertThat(text(short911)).isEqualTo("911 offsite_conversion.fb_pixel_purchase Purchase 10 5 -5 50.0%");
    assertThat(browser.findElement(By.cssSelector(short911)).getAttribute("class")).isEqualTo("short");
    String full = "#reconcile-table tbody tr[data-group='922']";
    assertThat(text(full)).isEqualTo("922 offsite_conversion.fb_pixel_purchase Purchase 4 4 0 100.0%");
    assertThat(browser.findElement(By.cssSelector(full)).getAttribute("class")).isEmpty();
    assertThat(text("#reconcile-table tfoot tr")).isEqualTo("total offsite_conversion.fb_pixel_purchase Purchase 14 9 "
        + "-5 64.3%");
    assertThat(text("#reconcile-meta")).contains("Days " + day + " to " + day + " (UTC), meta: 1 marked where the "
        + "network counts under 80% of what was delivered");
  }

  @Test
  @DisplayName("the chart: a bar per step of the totals (clicks, starts, join requests, joins, each event) with its "
      + "count and share of the step before; a row chosen charts that row, chosen again the totals")
  void chart() {
    openFunnel();
    waiting().until(d -> d.findElements(By.cssSelector("#funnel-chart svg g.step rect")).size() == 8);
    assertThat(bars()).containsExactly("clicks: 3", "starts: 2, 67% of clicks", "join requests: 1, 50% of starts",
        "joins: 1, 100% of join requests", "REG: 2, 200% of joins", "FTD: 3, 150% of REG", "DEP: 1, 33% of FTD",
        "JoinRequest: 2, 200% of DEP");
    assertThat(browser.findElements(By.cssSelector("#funnel-chart svg g.step text.step-label")).stream()
        .map(WebElement::getText).toList()).containsExactly("clicks", "starts", "join requests", "joins", "REG",
        "FTD", "DEP", "JoinRequest");
    assertThat(text("#funnel-chart-of")).isEqualTo("of the totals");
    assertThat(barWidth("clicks")).as("the longest bar: the most of any step").isEqualTo(barWidth("FTD"))
        .isGreaterThan(barWidth("starts"));

    browser.findElement(By.cssSelector("#funnel-table tbody tr[data-group='autumn']")).click();
    waiting().until(d -> text("#funnel-chart-of").equals("of autumn"));
    assertThat(bars()).as("no share of a step before with none").containsExactly("clicks: 1",
        "starts: 0, 0% of clicks", "join requests: 1", "joins: 0, 0% of join requests", "REG: 0", "FTD: 1",
        "DEP: 0, 0% of FTD", "JoinRequest: 1");
    assertThat(barWidth("starts")).isZero();
    assertThat(browser.findElement(By.cssSelector("#funnel-table tbody tr[data-group='autumn']"))
        .getAttribute("class")).contains("selected");
    browser.findElement(By.cssSelector("#funnel-table tbody tr[data-group='autumn']")).click();
    waiting().until(d -> text("#funnel-chart-of").equals("of the totals"));
    assertThat(bars()).first().isEqualTo("clicks: 3");
  }

  private double barWidth(String step) {
    return Double.parseDouble(browser.findElement(By.cssSelector("#funnel-chart g[data-step='" + step + "'] rect"))
        .getAttribute("width"));
  }

  @Test
  @DisplayName("the grouping picker: by campaign id and ad (an unexpanded macro no ad), by country")
  void grouping() {
    openFunnel();
    set("group1", "campaign_id");
    set("group2", "ad_id");
    showReport();
    awaitGroups("111 / 333", "111 / 334", "999 / ");
    assertThat(header("group.campaign_id").getText()).isEqualTo("campaign id");
    assertThat(header("group.ad_id").getText()).isEqualTo("ad id");
    assertThat(cell("111 / 333", "clicks")).isEqualTo("1");
    assertThat(cell("111 / 333", "revenue")).isEqualTo("120.00");
    assertThat(cell("999 / ", "group.ad_id")).isEqualTo("(not known)");
    assertThat(total("group.campaign_id")).isEqualTo("Total");

    set("group1", "country");
    set("group2", "");
    showReport();
    awaitGroups("DE");
    assertThat(cell("DE", "clicks")).isEqualTo("3");
    assertThat(browser.findElements(By.cssSelector("#funnel-table thead th[data-col^='group.']"))).hasSize(1);
  }

  @Test
  @DisplayName("the filter picker narrows the rows: to a source, to two dimensions at once, back; it offers the "
      + "values reports have shown")
  void filtering() {
    openFunnel();
    new Select(browser.findElement(By.cssSelector("#funnel-filter-list select"))).selectByValue("utm_campaign");
    assertThat(browser.findElements(By.cssSelector("#funnel-filter-list datalist option")).stream()
        .map(o -> o.getAttribute("value")).toList()).containsExactly("autumn", "spring");

    set("group1", "campaign_id");
    set("group2", "ad_id");
    filter(1, "utm_source", "fb");
    showReport();
    awaitGroups("111 / 333", "111 / 334");
    assertThat(total("clicks")).isEqualTo("2");
    assertThat(total("revenue")).isEqualTo("183.00");

    browser.findElement(By.id("funnel-add-filter")).click();
    filter(2, "utm_campaign", "autumn");
    showReport();
    awaitGroups();
    assertThat(browser.findElement(By.id("funnel-empty")).isDisplayed()).isTrue();
    assertThat(total("clicks")).isEqualTo("0");
    assertThat(text("#funnel-chart")).isEqualTo("No steps to draw: nothing in this range.");

    filter(1, "utm_source", "tt");
    showReport();
    awaitGroups("999 / ");
    assertThat(cell("999 / ", "revenue")).isEqualTo("12.35");

    browser.findElement(By.cssSelector("#funnel-filter-list .filter-row:nth-child(1) button")).click();
    browser.findElement(By.cssSelector("#funnel-filter-list .filter-row:nth-child(1) button")).click();
    assertThat(browser.findElements(By.cssSelector("#funnel-filter-list .filter-row"))).as("one, empty, stays")
        .hasSize(1);
    showReport();
    awaitGroups("111 / 333", "111 / 334", "999 / ");
  }

  @Test
  @DisplayName("the time range and zone: a range of other days is empty, a preset is the last so many days, another "
      + "zone is asked for, one that is no zone is refused on the page")
  void rangeAndZone() {
    openFunnel();
    set("from", "2020-01-01");
    set("to", "2020-01-07");
    showReport();
    awaitGroups();
    assertThat(total("clicks")).isEqualTo("0");
    assertThat(text("#funnel-meta")).startsWith("2020-01-01 to 2020-01-07");

    set("tz", "Asia/Kolkata");
    browser.findElement(By.cssSelector("#funnel-form [data-days='30']")).click();
    awaitGroups("autumn", "spring");
    LocalDate today = LocalDate.now(ZoneId.of("Asia/Kolkata"));
    assertThat(field("from").getAttribute("value")).isEqualTo(today.minusDays(29).toString());
    assertThat(field("to").getAttribute("value")).isEqualTo(today.toString());
    assertThat(text("#funnel-meta")).contains(today.minusDays(29) + " to " + today + ", Asia/Kolkata");
    assertThat(total("clicks")).isEqualTo("3");

    set("tz", "Mars/Base");
    showReport();
    waiting().until(ExpectedConditions.visibilityOfElementLocated(By.id("funnel-error")));
    assertThat(text("#funnel-error")).contains("tz: must be an IANA time zone");
  }

  @Test
  @DisplayName("Download CSV saves the report as the API's CSV, named by its days")
  void csv() throws IOException {
    openFunnel();
    String from = field("from").getAttribute("value");
    String to = field("to").getAttribute("value");
    browser.findElement(By.id("funnel-csv")).click();
    WebElement link = waiting().until(ExpectedConditions.visibilityOfElementLocated(By.id("funnel-csv-link")));
    String name = "funnel-" + from + "-" + to + ".csv";
    assertThat(link.getAttribute("download")).isEqualTo(name);
    assertThat(link.getAttribute("href")).startsWith("blob:");
    Path file = downloads.resolve(name);
    // Chromium writes a .crdownload first and renames it when done.
    Await.until("the file saved", DEADLINE, () -> Files.exists(file));
    List<String> lines = List.of(Files.readString(file).split("\r\n"));
    assertThat(lines.get(0)).startsWith("utm_campaign,clicks,starts,join_requests,joins,unsubscribes,"
        + "remaining_subscribers,revenue,");
    assertThat(lines).anyMatch(l -> l.startsWith("spring,2,2,0,1,1,0,183.00,"));
    assertThat(lines.get(lines.size() - 1)).startsWith("total,3,");
  }

  @Test
  @DisplayName("a cut report says so; markup in a campaign shows as the text it is; sign-out forgets the report")
  void cutReportMarkupAndSignOut() {
    open();
    signIn(KEY_B);
    waiting().until(ExpectedConditions.visibilityOfElementLocated(By.id("events-view")));
    browser.findElement(By.id("tab-funnel")).click();
    waiting().until(ExpectedConditions.visibilityOfElementLocated(By.id("funnel-truncated")));
    assertThat(text("#funnel-truncated")).startsWith("Only the first 1000 groups are shown");
    assertThat(groups()).hasSize(1000);
    assertThat(total("clicks")).as("the totals count every group").isEqualTo(String.valueOf(B_CAMPAIGNS));

    filter(1, "utm_campaign", SCRIPT_CAMPAIGN);
    showReport();
    awaitGroups(SCRIPT_CAMPAIGN);
    assertThat(cell(SCRIPT_CAMPAIGN, "group.utm_campaign")).isEqualTo(SCRIPT_CAMPAIGN);
    assertThat(browser.findElement(By.id("funnel-truncated")).isDisplayed()).isFalse();
    assertThat(browser.findElements(By.cssSelector("#funnel-view img"))).isEmpty();
    assertThat(browser.executeScript("return window.pwned === undefined")).isEqualTo(true);

    browser.findElement(By.id("sign-out")).click();
    waiting().until(ExpectedConditions.visibilityOfElementLocated(By.id("api-key")));
    assertThat(browser.findElement(By.id("views")).isDisplayed()).isFalse();
    signIn(KEY_A);
    // The page comes back to the view it was on: the Funnel, now A's.
    awaitGroups("autumn", "spring");
    String page = (String) browser.executeScript("return document.documentElement.outerHTML");
    assertThat(page).doesNotContain("c0001").doesNotContain("onerror").doesNotContain("Only the first");
    assertThat(browser.findElement(By.cssSelector("#funnel-filter-list input")).getAttribute("value")).isEmpty();
  }
}
