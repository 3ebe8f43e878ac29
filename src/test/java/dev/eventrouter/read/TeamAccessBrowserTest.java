package dev.eventrouter.read;

import dev.eventrouter.config.ApiKeys;
import dev.eventrouter.support.Browser;
import dev.eventrouter.support.FunnelDataSet;
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
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.List;

import static dev.eventrouter.support.TestApp.KEY_A;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The debugger page signed in with each role's key, in a real headless Chromium against the real service, over the
 * funnel report's data set (campaign 111 "spring", campaign 999 "autumn", each with spend): a buyer of 111 finds
 * nothing of 999 anywhere in the page (its events, report rows, cost), nor the workspace's integrations, postbacks or
 * any action; a viewer sees everything and no action; an ingest key cannot sign in; an admin pauses an integration
 * from the page and finds it in the audit log. Screenshots of the buyer's views are left in target/screenshots.
 */
@ExtendWith(VertxExtension.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class TeamAccessBrowserTest {

  private static final Duration DEADLINE = Duration.ofSeconds(30);
  private static final String ADMIN = "page-admin-key-0123456789abcdef";
  private static final String VIEWER = "page-viewer-key-0123456789abcdef";
  private static final String BUYER = "page-buyer-key-0123456789abcdef";
  private static final String INGEST = "page-ingest-key-0123456789abcdef";
  /** What campaign 999 cost: an amount no other row or total of a buyer of 111 can show. */
  private static final String AUTUMN_COST = "31.17";

  private ChromeDriver browser;
  private FunnelDataSet data;
  private String autumnEvent;

  @BeforeAll
  void start(Vertx vertx, @TempDir Path dir) throws IOException {
    browser = Browser.start();
    data = FunnelDataSet.start(vertx, dir, config -> config.getJsonArray("workspaces").getJsonObject(0)
        .put("keys", new JsonArray().add(key("owner", ADMIN, "admin")).add(key("analyst", VIEWER, "viewer"))
            .add(key("anna", BUYER, "buyer").put("scope", new JsonObject().put("campaign_ids",
                new JsonArray().add("111"))))
            .add(key("bot", INGEST, "ingest")))
        .put("cost_sources", new JsonArray().add(new JsonObject().put("id", "meta-ads").put("type", "meta")
            .put("ad_account_id", "7").put("access_token", "unused-meta-token").put("enabled", false)))
        .put("integrations", new JsonArray().add(new JsonObject().put("id", "hook").put("type", "webhook")
            .put("url", "https://hooks.example/conversions").put("secret", "hook-secret-0123456789")
            .put("enabled", false))));
    String today = LocalDate.now(ZoneOffset.UTC).toString();
    HttpResponse<Buffer> cost = data.app().postJson("/api/v1/costs", KEY_A, new JsonObject().put("source", "sheet")
        .put("rows", new JsonArray()
            .add(new JsonObject().put("date", today).put("timezone", "UTC").put("level", "campaign").put("id", "111")
                .put("cost", 50).put("currency", "USD"))
            .add(new JsonObject().put("date", today).put("timezone", "UTC").put("level", "campaign").put("id", "999")
                .put("cost", AUTUMN_COST).put("currency", "USD"))));
    assertThat(cost.statusCode()).as(cost.bodyAsString()).isEqualTo(200);
    autumnEvent = data.app().get("/api/v1/events?limit=100", KEY_A).bodyAsJsonObject().getJsonObject("data")
        .getJsonArray("events").stream().map(JsonObject.class::cast)
        .filter(e -> "s3".equals(e.getString("session_id"))).findFirst().orElseThrow().getString("event_id");
  }

  private static JsonObject key(String name, String key, String role) {
    return new JsonObject().put("name", name).put("key", ApiKeys.configValue(key)).put("role", role);
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

  private WebDriverWait waiting() {
    return Browser.waiting(browser, DEADLINE);
  }

  private void signIn(String key) {
    Browser.openDebugger(browser, data.app().port(), DEADLINE);
    Browser.signIn(browser, key);
  }

  private void signedIn(String key) {
    signIn(key);
    waiting().until(ExpectedConditions.visibilityOfElementLocated(By.id("events-view")));
    waiting().until(d -> !d.findElements(By.cssSelector("#events tbody tr")).isEmpty());
  }

  /** Who the header says is signed in, once it says anyone. */
  private String keyRole() {
    return waiting().until(d -> {
      String text = d.findElement(By.id("key-role")).getText();
      return text.isEmpty() ? null : text;
    });
  }

  private boolean displayed(String id) {
    return browser.findElement(By.id(id)).isDisplayed();
  }

  /** The buttons of the page that act, shown or not: none may be in the DOM for a key that cannot act. */
  private List<String> actions() {
    return browser.findElements(By.cssSelector("#integrations button, #cost-sources button")).stream()
        .map(b -> b.getAttribute("textContent")).toList();
  }

  @Test
  @DisplayName("a buyer sees its campaign's events, report row and cost, and nothing of another campaign, of the "
      + "workspace's integrations and postbacks, nor any action")
  void buyer() {
    signedIn(BUYER);
    assertThat(keyRole()).isEqualTo("anna · buyer · campaigns 111");
    int annas = data.app().get("/api/v1/events?limit=100", BUYER).bodyAsJsonObject().getJsonObject("data")
        .getJsonArray("events").size();
    assertThat(annas).isPositive();
    waiting().until(d -> d.findElements(By.cssSelector("#events tbody tr")).size() == annas);
    assertThat(browser.getPageSource()).doesNotContain(autumnEvent);
    assertThat(displayed("strip")).isFalse();
    assertThat(browser.findElement(By.cssSelector("[aria-label=Integrations]")).isDisplayed()).isFalse();
    assertThat(browser.findElement(By.cssSelector("[aria-label=Postbacks]")).isDisplayed()).isFalse();
    assertThat(browser.findElements(By.cssSelector("#postbacks tbody tr"))).as("never asked for").isEmpty();
    assertThat(browser.findElements(By.cssSelector("#integrations tbody tr"))).as("never asked for").isEmpty();
    assertThat(displayed("tab-audit")).isFalse();
    assertThat(actions()).isEmpty();
    Browser.screenshot(browser, "ui-buyer-events");

    browser.findElement(By.id("tab-funnel")).click();
    waiting().until(d -> d.findElements(By.cssSelector("#funnel-table tbody tr")).stream()
        .map(r -> r.getAttribute("data-group")).toList().equals(List.of("spring")));
    waiting().until(d -> d.findElement(By.id("funnel-table")).getText().contains("50.00"));
    assertThat(browser.findElement(By.id("reconcile-title")).isDisplayed()).isFalse();
    String page = browser.getPageSource();
    assertThat(page).doesNotContain("autumn").doesNotContain(AUTUMN_COST).doesNotContain(autumnEvent);
    Browser.screenshot(browser, "ui-buyer-funnel");
  }

  @Test
  @DisplayName("a viewer sees every campaign, the integrations and cost sources, and no action; an ingest key cannot "
      + "sign in")
  void viewerAndIngest() {
    signedIn(VIEWER);
    assertThat(keyRole()).isEqualTo("analyst · viewer");
    waiting().until(d -> d.getPageSource().contains(autumnEvent));
    waiting().until(d -> d.findElements(By.cssSelector("#integrations tbody tr")).size() == 1);
    waiting().until(d -> d.findElements(By.cssSelector("#cost-sources tbody tr")).size() == 2);
    assertThat(actions()).isEmpty();
    assertThat(displayed("tab-audit")).isFalse();

    signIn(INGEST);
    waiting().until(ExpectedConditions.visibilityOfElementLocated(By.id("sign-in-error")));
    assertThat(browser.findElement(By.id("sign-in-error")).getText()).contains("ingest key");
    assertThat(displayed("events-view")).isFalse();
  }

  @Test
  @DisplayName("an admin pauses an integration from the page, and finds the action in the audit log")
  void admin() {
    signedIn(ADMIN);
    assertThat(keyRole()).isEqualTo("owner · admin");
    waiting().until(d -> actions().contains("Poll now") && actions().contains("Pause"));
    browser.findElement(By.xpath("//table[@id='integrations']//button[text()='Pause']")).click();
    waiting().until(d -> d.findElement(By.id("test-result")).getText().contains("hook: paused"));
    waiting().until(d -> actions().contains("Resume"));
    browser.findElement(By.id("tab-audit")).click();
    waiting().until(d -> d.findElements(By.cssSelector("#audit tbody tr")).stream().map(r -> r.getText())
        .anyMatch(text -> text.contains("owner") && text.contains("integration.pause") && text.contains("hook")
            && text.contains("200 ok")));
    browser.findElement(By.id("sign-out")).click();
    waiting().until(ExpectedConditions.visibilityOfElementLocated(By.id("api-key")));
    assertThat(browser.findElements(By.cssSelector("#audit tbody tr"))).as("forgotten at sign-out").isEmpty();
    assertThat(browser.findElement(By.id("key-role")).getText()).isEmpty();
  }
}
