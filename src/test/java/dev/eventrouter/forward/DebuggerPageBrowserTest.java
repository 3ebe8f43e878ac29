package dev.eventrouter.forward;

import dev.eventrouter.config.ApiKeys;
import dev.eventrouter.support.Await;
import dev.eventrouter.support.Browser;
import dev.eventrouter.support.FakeAdNetworks;
import dev.eventrouter.support.FakeAdNetworks.Reply;
import dev.eventrouter.support.TestApp;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.Select;
import org.openqa.selenium.support.ui.WebDriverWait;

import java.nio.file.Files;
import java.time.Duration;
import java.util.List;

import static dev.eventrouter.support.TestApp.KEY_A;
import static dev.eventrouter.support.TestApp.KEY_B;
import static dev.eventrouter.support.TestApp.WS_A;
import static dev.eventrouter.support.TestApp.WS_B;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The event debugger, {@code /ui/}, in a real headless Chromium against the real service, a real PostgreSQL and the
 * fake networks: sign-in, the live list, filters, the detail with the click and both payloads, redelivery, the test
 * event, the last hour's strip, values shown as text, and one workspace's events only. Screenshots of the list and
 * the detail are left in target/screenshots.
 */
class DebuggerPageBrowserTest extends FakeNetworksTest {

  /** A user agent that would run if the page inserted it as HTML. */
  private static final String SCRIPT_UA = "<script>window.pwned = true</script><img src=x onerror=\"window.pwned=1\">";

  private ChromeDriver browser;

  @BeforeAll
  void startBrowser() {
    browser = Browser.start();
  }

  @AfterAll
  void stopBrowser() {
    if (browser != null) {
      browser.quit();
    }
  }

  private WebDriverWait waiting() {
    return Browser.waiting(browser, DEADLINE);
  }

  private void start(JsonObject... metaOverrides) {
    app = TestApp.start(vertx, ForwardingTestConfig.config(databaseUrl, fake.baseUrl(), metaOverrides));
  }

  private void open() {
    Browser.openDebugger(browser, app.port(), DEADLINE);
  }

  private void signIn(String key) {
    Browser.signIn(browser, key);
  }

  private String post(String key, JsonObject event) {
    var response = app.postEvent(key, event);
    assertThat(response.statusCode()).as(response.bodyAsString()).isEqualTo(200);
    return response.bodyAsJsonObject().getJsonObject("data").getString("event_id");
  }

  private static JsonObject event(String workspace, String name, long telegramId) {
    JsonObject event = new JsonObject().put("workspace_id", workspace).put("event_name", name)
        .put("telegram_id", telegramId);
    return name.equals("FTD") ? event.put("value", 49.99).put("currency", "EUR") : event;
  }

  /** The event ids the list shows, top to bottom. */
  private List<String> listed() {
    return waiting().until(d -> d.findElements(By.cssSelector("#events tbody tr")).stream()
        .map(row -> row.getAttribute("data-event-id")).toList());
  }

  /** Clicks what {@code by} finds, finding it again when the page re-rendered it in between (every 2 s). */
  private void click(By by) {
    waiting().until(d -> {
      d.findElement(by).click();
      return true;
    });
  }

  private void awaitListed(String... eventIds) {
    waiting().until(d -> listed().equals(List.of(eventIds)));
  }

  /** Read again when the page re-rendered the element between finding and reading it (it refreshes every 2 s). */
  private String text(String css) {
    return waiting().until(d -> d.findElement(By.cssSelector(css)).getText());
  }

  private void filter(String name, String value) {
    WebElement field = browser.findElement(By.cssSelector("#filters [name=" + name + "]"));
    if (field.getTagName().equals("select")) {
      new Select(field).selectByValue(value);
    } else {
      field.clear();
      field.sendKeys(value);
    }
    browser.findElement(By.cssSelector("#filters button[type=submit]")).click();
  }

  private void clearFilters() {
    browser.findElement(By.cssSelector("#filters button[type=reset]")).click();
  }

  private void openDetail(String eventId) {
    click(By.cssSelector("#events tr[data-event-id='" + eventId + "']"));
    waiting().until(d -> text("#detail-title").endsWith(eventId));
  }

  /** The detail's text for one delivery of the open event. */
  private String delivery(String integrationId) {
    return text("#detail-deliveries article[data-integration='" + integrationId + "']");
  }

  /** The state badge of one delivery of the open event. */
  private String deliveryState(String integrationId) {
    return text("#detail-deliveries article[data-integration='" + integrationId + "'] .delivery-head .badge");
  }

  @Test
  @DisplayName("received postbacks are listed with their outcome and parameters, the token-bearing ones masked; the "
      + "conversion one made opens with its status history")
  void postbacks() {
    JsonObject config = ForwardingTestConfig.config(databaseUrl, fake.baseUrl());
    config.getJsonArray("workspaces").getJsonObject(0).put("postback_sources", new JsonArray().add(new JsonObject()
        .put("id", "casino").put("token", ApiKeys.configValue(PostbackTest.TOKEN))));
    app = TestApp.start(vertx, config);
    app.postJson("/api/v1/sessions", KEY_A, new JsonObject().put("workspace_id", WS_A).put("session_id", "ses_ui"));
    String base = "/api/v1/postbacks/" + PostbackTest.TOKEN;
    var matched = app.get(base + "?subid=ses_ui&goal=ftd&payout=25&status=hold&tid=U-1&api_key=hunter2", null);
    assertThat(matched.statusCode()).as(matched.bodyAsString()).isEqualTo(200);
    String eventId = matched.bodyAsJsonObject().getJsonObject("data").getString("event_id");
    assertThat(app.get(base + "?subid=ses_ui&goal=ftd&payout=25&tid=U-1&status=approved?sig=abc1", null)
        .statusCode()).as("a partner's appended '?'").isEqualTo(200);
    assertThat(app.get(base + "?subid={subid}&goal=reg", null).statusCode()).isEqualTo(400);

    open();
    signIn(KEY_A);
    waiting().until(d -> d.findElements(By.cssSelector("#postbacks tbody tr")).size() == 3);
    List<String> outcomes = browser.findElements(By.cssSelector("#postbacks tbody tr td:nth-child(3) .badge"))
        .stream().map(WebElement::getText).toList();
    assertThat(outcomes).containsExactly("macro not expanded", "matched", "matched");
    String params = text("#postbacks tbody tr:last-child td.params");
    assertThat(params).contains("subid=ses_ui").contains("api_key=***").doesNotContain("hunter2");
    assertThat(text("#postbacks tbody tr:nth-child(2) td.params")).contains("sig=***").doesNotContain("abc1")
        .contains("repaired: status: split at a second '?' into sig");

    click(By.cssSelector("#postbacks tbody tr:last-child td:nth-child(8) button"));
    waiting().until(d -> text("#detail-title").endsWith(eventId));
    waiting().until(d -> d.findElements(By.cssSelector("#detail-history tbody tr")).size() == 2);
    assertThat(browser.findElements(By.cssSelector("#detail-history tbody tr td:nth-child(2)")).stream()
        .map(WebElement::getText).toList()).containsExactly("pending", "approved");
    assertThat(text("#detail-event")).contains("postback").contains("U-1");
    assertThat(browser.executeScript("return window.pwned === undefined")).isEqualTo(true);
  }

  @Test
  @DisplayName("sign-in: a wrong key is refused on the page; a good one shows its workspace's events, new ones "
      + "appearing without a reload, never another workspace's; no credential reaches the page")
  void signInAndLiveList() {
    start();
    String first = post(KEY_A, event(WS_A, "REG", 1));
    open();
    signIn("not-a-key");
    waiting().until(ExpectedConditions.visibilityOfElementLocated(By.id("sign-in-error")));
    assertThat(text("#sign-in-error")).isEqualTo("That API key was not accepted.");
    assertThat(browser.findElement(By.id("events-view")).isDisplayed()).isFalse();
    assertThat(browser.executeScript("return sessionStorage.length")).isEqualTo(0L);

    signIn(KEY_A);
    awaitListed(first);
    assertThat(browser.executeScript("return sessionStorage.getItem('event-router.api-key')")).isEqualTo(KEY_A);

    String theirs = post(KEY_B, event(WS_B, "FTD", 1));
    String second = post(KEY_A, event(WS_A, "FTD", 2));
    awaitListed(second, first);
    assertThat(browser.getPageSource()).as("another workspace's event").doesNotContain(theirs);
    String row = "#events tr[data-event-id='" + second + "']";
    assertThat(text(row)).contains("FTD", "Purchase, CompletePayment", "49.99 EUR", "none");
    waiting().until(d -> d.findElements(By.cssSelector(row + " .badge.delivered")).size() == 2);
    List<String> badges = waiting().until(d -> d.findElements(By.cssSelector(row + " .badges .badge")).stream()
        .map(WebElement::getText).toList());
    assertThat(badges).containsExactly("meta-main: delivered", "tiktok-main: delivered");

    waiting().until(d -> text("#stat-accepted").equals("2"));
    waiting().until(d -> text("#stat-delivered").equals("100%"));
    assertThat(text("#stat-unattributed")).as("both events without a session").isEqualTo("100%");
    openDetail(second);
    assertThat(browser.getPageSource()).as("tokens never reach the browser")
        .doesNotContain(FakeAdNetworks.META_TOKEN, FakeAdNetworks.TIKTOK_TOKEN);

    browser.findElement(By.id("sign-out")).click();
    waiting().until(ExpectedConditions.visibilityOfElementLocated(By.id("api-key")));
    assertThat(browser.executeScript("return sessionStorage.length")).isEqualTo(0L);
    signIn(KEY_B);
    awaitListed(theirs);
  }

  @Test
  @DisplayName("filters narrow the list; the detail shows the session's click ids and both payloads as sent, and "
      + "markup in the data as text")
  void filtersAndDetail() throws Exception {
    start();
    JsonObject click = new JsonObject().put("workspace_id", WS_A).put("session_id", "sess-debug-1")
        .put("fbclid", "IwAR2AbCdEf").put("fbp", "fb.1.1596403881668.1116446470").put("ttclid", "E.C.P.CqgBxyz")
        .put("ttp", "2Sx7yT9uVw").put("client_ip", "203.0.113.7").put("user_agent", SCRIPT_UA)
        .put("landing_url", "https://lp.example/offer?utm_source=fb");
    assertThat(app.postJson("/api/v1/sessions", KEY_A, click).statusCode()).isEqualTo(200);
    assertThat(app.postJson("/api/v1/sessions", KEY_A, click.copy().put("session_id", "sess-debug-2")
        .put("landing_url", "https://lp.example/<script>alert(1)</script>")).statusCode())
        .as("markup in a landing URL is not a URL: refused at the door").isEqualTo(400);
    String reg = post(KEY_A, event(WS_A, "REG", 7));
    String ftd = post(KEY_A, event(WS_A, "FTD", 8).put("session_id", "sess-debug-1")
        .put("user_data", new JsonObject().put("email", "Buyer@Example.com").put("first_name", SCRIPT_UA)));
    Await.until("both delivered to both", DEADLINE, () -> count("meta", "delivered") == 2
        && count("tiktok", "delivered") == 2);
    open();
    signIn(KEY_A);
    awaitListed(ftd, reg);

    filter("event_name", "FTD");
    awaitListed(ftd);
    clearFilters();
    awaitListed(ftd, reg);
    filter("session_source", "none");
    awaitListed(reg);
    filter("session_source", "supplied");
    awaitListed(ftd);
    clearFilters();
    filter("telegram_id", "7");
    awaitListed(reg);
    clearFilters();
    filter("status", "failed");
    waiting().until(d -> listed().isEmpty() && browser.findElement(By.id("empty")).isDisplayed());
    clearFilters();
    awaitListed(ftd, reg);
    waiting().until(d -> new Select(browser.findElement(By.cssSelector("#filters [name=integration_id]")))
        .getOptions().size() == 3);
    filter("integration_id", "tiktok-main");
    awaitListed(ftd, reg);
    filter("status", "retrying");
    waiting().until(d -> listed().isEmpty());
    clearFilters();
    browser.executeScript("document.querySelector('#filters [name=until]').value = '2026-01-01T00:00:00'");
    browser.findElement(By.cssSelector("#filters button[type=submit]")).click();
    waiting().until(d -> listed().isEmpty());
    browser.executeScript("document.querySelector('#filters [name=until]').value = ''; "
        + "document.querySelector('#filters [name=since]').value = arguments[0]",
        java.time.LocalDateTime.now().minusHours(1).withNano(0).toString());
    browser.findElement(By.cssSelector("#filters button[type=submit]")).click();
    awaitListed(ftd, reg);
    clearFilters();
    awaitListed(ftd, reg);
    Browser.screenshot(browser, "ui-list");

    browser.manage().window().setSize(new Dimension(1440, 1900)); // the detail down to both payloads
    openDetail(ftd);
    assertThat(text("#detail-click")).contains("IwAR2AbCdEf", "fb.1.1596403881668.1116446470", "E.C.P.CqgBxyz",
        "2Sx7yT9uVw", "203.0.113.7", "https://lp.example/offer?utm_source=fb");
    assertThat(text("#detail-event")).contains("sess-debug-1", "supplied", "49.99", "EUR");
    String meta = delivery("meta-main");
    assertThat(deliveryState("meta-main")).isEqualTo("delivered");
    assertThat(deliveryState("tiktok-main")).isEqualTo("delivered");
    assertThat(meta).contains("Purchase", "Payload sent", ftd, "\"fbc\"", "fb.1.",
        "IwAR2AbCdEf", "\"em\"", "\"client_user_agent\"");
    assertThat(meta).as("the email as Meta got it: hashed").doesNotContain("Buyer@Example.com");
    String tiktok = delivery("tiktok-main");
    assertThat(tiktok).contains("CompletePayment", "\"ttclid\"", "E.C.P.CqgBxyz", "2Sx7yT9uVw");
    Browser.screenshot(browser, "ui-detail");

    assertThat(text("#detail-click")).as("markup shown as the text it is").contains(SCRIPT_UA);
    assertThat(meta).contains("<script>window.pwned = true</script>");
    assertThat(browser.executeScript("return window.pwned === undefined")).isEqualTo(true);
    assertThat(browser.findElements(By.cssSelector("#detail script, #detail img"))).isEmpty();
    assertThat(browser.findElements(By.tagName("script"))).hasSize(1);
    assertThat(Files.size(Browser.SCREENSHOTS.resolve("ui-list.png"))).isPositive();
    browser.manage().window().setSize(new Dimension(1440, 1000));
  }

  @Test
  @DisplayName("redeliver turns a failed delivery into a delivered one; a test event goes to an integration with a "
      + "test code; a refused token shows in the strip")
  void actions() {
    fake.scriptMeta(body -> Reply.of(400, FakeAdNetworks.metaError(100, null, "Invalid parameter")));
    start(new JsonObject().put("test_event_code", "TEST4242"));
    String failed = post(KEY_A, event(WS_A, "FTD", 3));
    Await.until("Meta refused it", DEADLINE, () -> count("meta", "failed") == 1);
    open();
    signIn(KEY_A);
    awaitListed(failed);
    openDetail(failed);
    assertThat(deliveryState("meta-main")).isEqualTo("failed");
    assertThat(delivery("meta-main")).contains("Invalid parameter", "Payload sent");
    waiting().until(ExpectedConditions.visibilityOfElementLocated(By.id("redeliver")));

    fake.scriptMeta(body -> null);
    click(By.id("redeliver"));
    waiting().until(d -> deliveryState("meta-main").equals("delivered"));
    assertThat(text("#detail-result")).isEqualTo("1 delivery(ies) re-queued.");
    waiting().until(ExpectedConditions.invisibilityOfElementLocated(By.id("redeliver")));
    assertThat(fake.accepted("meta")).containsEntry(failed, 1);
    waiting().until(d -> browser.findElement(By.cssSelector("#events tr[data-event-id='" + failed + "']"))
        .getText().contains("meta-main: delivered"));

    assertThat(text("#integrations tr[data-integration=meta-main]")).contains("TEST4242");
    assertThat(browser.findElements(By.cssSelector("#integrations tr[data-integration=tiktok-main] button[data-action=test]")))
        .as("no test code, no test button").isEmpty();
    int before = fake.received("meta").size();
    click(By.cssSelector("#integrations tr[data-integration=meta-main] button[data-action=test]"));
    waiting().until(d -> text("#test-result").startsWith("meta-main: accepted"));
    assertThat(fake.received("meta")).hasSize(before + 1);
    assertThat(fake.received("meta").get(before).body().getString("test_event_code")).isEqualTo("TEST4242");

    fake.scriptMeta(body -> Reply.of(400, FakeAdNetworks.metaError(190, null, "Invalid OAuth access token")));
    post(KEY_A, event(WS_A, "REG", 4));
    waiting().until(d -> text("#stat-attention").contains("meta-main: token refused"));
    assertThat(text("#integrations tr[data-integration=meta-main]")).contains("token refused");
  }

  @Test
  @DisplayName("sign-out forgets the workspace: signed in as another in the same tab, nothing of the first remains "
      + "anywhere in the page (detail, payloads, test verdict, filters, strip, integrations), and no timer of it runs")
  void signOutForgets() {
    start(new JsonObject().put("test_event_code", "TEST4242"));
    String ftd = post(KEY_A, event(WS_A, "FTD", 5));
    Await.until("delivered", DEADLINE, () -> count("meta", "delivered") == 1);
    open();
    signIn(KEY_A);
    awaitListed(ftd);
    openDetail(ftd);
    waiting().until(d -> delivery("meta-main").contains("Payload sent"));
    click(By.cssSelector("#integrations tr[data-integration=meta-main] button[data-action=test]"));
    waiting().until(d -> text("#test-result").startsWith("meta-main: accepted"));
    WebElement name = browser.findElement(By.cssSelector("#filters [name=event_name]"));
    name.sendKeys("FT");
    waiting().until(d -> text("#stat-accepted").equals("1"));

    click(By.id("sign-out"));
    waiting().until(ExpectedConditions.visibilityOfElementLocated(By.id("api-key")));
    signIn(KEY_B);
    waiting().until(ExpectedConditions.visibilityOfElementLocated(By.id("events-view")));
    waiting().until(ExpectedConditions.visibilityOfElementLocated(By.id("empty")));
    waiting().until(d -> text("#stat-accepted").equals("0"));
    // A poll or two of B's (every 2 s), so any timer or answer left from A's session has had its chance to show.
    int polls = countRequests();
    Await.until("two polls of B's", DEADLINE, () -> countRequests() >= polls + 2);
    String page = (String) browser.executeScript("return document.documentElement.outerHTML");
    assertThat(page).doesNotContain(ftd).doesNotContain("meta-main").doesNotContain("TEST4242")
        .doesNotContain("49.99").doesNotContain("Payload sent").doesNotContain("accepted (test_event_code");
    assertThat(browser.findElement(By.cssSelector("#filters [name=event_name]")).getAttribute("value")).isEmpty();
    assertThat(browser.findElement(By.id("detail")).isDisplayed()).isFalse();
    assertThat(browser.findElement(By.id("test-result")).isDisplayed()).isFalse();
  }

  /** The API requests the page has made so far, from the browser's own resource timing. */
  private int countRequests() {
    return ((Number) browser.executeScript(
        "return performance.getEntriesByType('resource').filter(e => e.name.includes('/api/v1/events')).length"))
        .intValue();
  }

  @Test
  @DisplayName("a dry-run integration's delivery shows the payload it would have been sent")
  void dryRun() {
    start(new JsonObject().put("dry_run", true));
    String ftd = post(KEY_A, event(WS_A, "FTD", 5));
    Await.until("Meta's payload stored", DEADLINE, () -> count("meta", "dry_run") == 1);
    open();
    signIn(KEY_A);
    awaitListed(ftd);
    openDetail(ftd);
    waiting().until(d -> deliveryState("tiktok-main").equals("delivered"));
    assertThat(deliveryState("meta-main")).isEqualTo("dry_run");
    assertThat(delivery("meta-main")).contains("Payload it would have been sent", ftd, "\"Purchase\"");
    assertThat(text("#integrations tr[data-integration=meta-main]")).contains("dry run");
  }

  @Test
  @DisplayName("a page holds 50 events; Older events pages back to the rest")
  void pagingBack() {
    JsonObject config = ForwardingTestConfig.config(databaseUrl, fake.baseUrl());
    // The poll cursor stays behind what is still being written for twice the request timeout: short, so the events
    // settle soon (below).
    config.getJsonObject("http").put("request_timeout_ms", 2000);
    app = TestApp.start(vertx, config);
    List<String> ids = new java.util.ArrayList<>();
    for (var answer : app.postConcurrently(53, i -> TestApp.jsonHeaders(KEY_A), i -> event(WS_A, "REG", 100 + i))) {
      assertThat(answer.result().statusCode()).isEqualTo(200);
      ids.add(answer.result().bodyAsJsonObject().getJsonObject("data").getString("event_id"));
    }
    List<String> newestFirst = ids.stream().sorted(java.util.Comparator.comparing(
        (String id) -> new java.math.BigInteger(id.substring(4))).reversed()).toList();
    // Opened before they settle, the page's first poll rightly adds the three older ones too, and the first page
    // cannot be seen alone.
    Await.until("the events to settle behind the first page's cursor", DEADLINE, () -> newestFirst.get(0).equals(
        app.get("/api/v1/events?limit=50", KEY_A).bodyAsJsonObject().getJsonObject("data").getString("next_after")));
    open();
    signIn(KEY_A);
    waiting().until(d -> listed().size() == 50);
    assertThat(listed()).isEqualTo(newestFirst.subList(0, 50));
    waiting().until(ExpectedConditions.visibilityOfElementLocated(By.id("older")));
    click(By.id("older"));
    awaitListed(newestFirst.toArray(String[]::new));
    waiting().until(ExpectedConditions.invisibilityOfElementLocated(By.id("older")));
  }

  @Test
  @DisplayName("an integration whose breaker is open shows in the strip and the integrations table")
  void breakerShown() {
    fake.scriptMeta(body -> Reply.of(503, FakeAdNetworks.metaError(2, null, "Service temporarily unavailable")));
    JsonObject config = ForwardingTestConfig.config(databaseUrl, fake.baseUrl());
    config.getJsonObject("delivery").getJsonObject("breaker").put("reset_timeout_ms", 600_000);
    app = TestApp.start(vertx, config);
    open();
    signIn(KEY_A);
    waiting().until(d -> text("#stat-attention").equals("none"));
    post(KEY_A, event(WS_A, "REG", 6));
    waiting().until(d -> text("#stat-attention").startsWith("meta-main: breaker open until"));
    assertThat(text("#integrations tr[data-integration=meta-main]")).contains("breaker open");
    assertThat(text("#integrations tr[data-integration=tiktok-main]")).contains("ok");
  }
}
