package dev.eventrouter.forward;

import dev.eventrouter.config.ApiKeys;
import dev.eventrouter.config.ConfigLoader;
import dev.eventrouter.support.Await;
import dev.eventrouter.support.Browser;
import dev.eventrouter.support.FakeAdNetworks;
import dev.eventrouter.support.FakeGoogleAds;
import dev.eventrouter.support.FakeTelegram;
import dev.eventrouter.support.ServiceProcess;
import dev.eventrouter.support.TestApp;
import io.vertx.core.http.HttpServer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.sqlclient.Row;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.support.ui.WebDriverWait;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static dev.eventrouter.support.TestApp.BOT_A;
import static dev.eventrouter.support.TestApp.KEY_A;
import static dev.eventrouter.support.TestApp.WS_A;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The prelanding kit in a real headless Chromium: a landing page on another origin (a local server of the test's
 * own, with the pixels' cookies) loads the service's script, which records the click with a publishable key and
 * rewrites the bot link; an event posted with that session reaches both fake networks with the click's ids. A page
 * on an origin the key does not allow gets no CORS grant; the shipped demo page works with the shipped demo keys.
 */
class PrelandingKitBrowserTest extends FakeNetworksTest {

  private static final String PUBLISHABLE = "pk-test-landing";
  /** The _fbc cookie Meta's pixel set for this very click (its fbclid is the URL's). */
  private static final String FBC = "fb.1.1700000000000.IwAR-from-url";
  private static final String FBP = "fb.1.1596403881668.1116446470";
  private static final String TTP = "2Sx7yT9uVw.tt.1";
  private static final String SCID = "8f2a4c1e-3b5d-4e6f-9a7b-1c2d3e4f5a6b";

  private ChromeDriver browser;
  private HttpServer landing;
  private volatile int appPort;

  @BeforeAll
  void startBrowserAndLandingServer() {
    browser = Browser.start();
    // The advertiser's landing page: the pixels' cookies, the one script tag, a link to the bot and two others.
    landing = vertx.createHttpServer().requestHandler(request -> request.response()
        .putHeader("Content-Type", "text/html; charset=utf-8")
        .putHeader("Set-Cookie", (Iterable<String>) List.of("_fbc=" + FBC + "; Path=/", "_fbp=" + FBP + "; Path=/",
            "_ttp=" + TTP + "; Path=/", "_scid=" + SCID + "; Path=/"))
        .end("""
            <!doctype html><html><head><meta charset="utf-8"><title>Offer</title>
            <script>
              window.outcome = null;
              const send = window.fetch;
              window.fetch = function () {
                const sent = send.apply(this, arguments);
                sent.then(() => { window.outcome = 'answered'; }, () => { window.outcome = 'blocked'; });
                return sent;
              };
            </script>
            <script src="http://127.0.0.1:%d/sdk/v1/prelanding.js" async data-workspace="%s" data-key="%s"
                    data-bot="@%s"></script>
            </head><body>
              <a id="bot" href="https://t.me/%s">Join</a>
              <a id="channel" href="https://t.me/signals_channel" data-er-channel>Channel</a>
              <a id="app" href="tg://resolve?domain=%s">Open the app</a>
              <a id="other-bot" href="https://t.me/someone_elses_bot">Other</a>
              <a id="web" href="https://shop.example/">Shop</a>
            </body></html>
            """.formatted(appPort, WS_A, PUBLISHABLE, BOT_A, BOT_A, BOT_A)))
        .listen(0, "127.0.0.1").await();
  }

  @AfterAll
  void stop() {
    if (browser != null) {
      browser.quit();
    }
    if (landing != null) {
      landing.close().await();
    }
  }

  @AfterEach
  void clearCookies() {
    if (browser != null) {
      browser.manage().deleteAllCookies();
    }
  }

  private WebDriverWait waiting() {
    WebDriverWait wait = new WebDriverWait(browser, DEADLINE);
    wait.ignoring(StaleElementReferenceException.class);
    return wait;
  }

  /** The service, its workspace A with a publishable key for pages served from {@code origin}. */
  private void start(String origin) {
    start(origin, null);
  }

  /** With the workspace's Telegram connector, when given. */
  private void start(String origin, JsonObject telegram) {
    JsonObject config = ForwardingTestConfig.config(databaseUrl, fake.baseUrl());
    config.getJsonArray("workspaces").getJsonObject(0).getJsonArray("integrations")
        .add(FakeAdNetworks.snapchatIntegration(fake.baseUrl())).add(FakeGoogleAds.integration(fake.baseUrl()));
    if (telegram != null) {
      config.getJsonArray("workspaces").getJsonObject(0).put("telegram", telegram);
    }
    config.getJsonArray("workspaces").getJsonObject(0).put("publishable_keys", new JsonArray()
        .add(new JsonObject().put("key", ApiKeys.configValue(PUBLISHABLE))
            .put("allowed_origins", new JsonArray().add(origin))));
    app = TestApp.start(vertx, config);
    appPort = app.port();
  }

  private String href(String id) {
    return browser.findElement(By.id(id)).getAttribute("href");
  }

  @Test
  @DisplayName("a landing page on another origin: the click stored with every id, the bot links carrying the "
      + "session, and an event with that session delivered to both networks with fbc, fbp, ttclid and ttp")
  void wholeFunnel() {
    start("http://localhost:" + landing.actualPort());
    String page = "http://localhost:" + landing.actualPort()
        + "/offer?fbclid=IwAR-from-url&ttclid=E.C.P.from-url&utm_source=facebook&utm_campaign=spring";
    browser.get(page);
    waiting().until(d -> href("bot").contains("start="));

    String sessionId = href("bot").substring(href("bot").indexOf("start=") + "start=".length());
    assertThat(sessionId).matches("[A-Za-z0-9_-]{22}");
    assertThat(href("bot")).isEqualTo("https://t.me/" + BOT_A + "?start=" + sessionId);
    assertThat(href("app")).isEqualTo("tg://resolve?domain=" + BOT_A + "&start=" + sessionId);
    assertThat(href("other-bot")).as("another bot's link is left alone").isEqualTo("https://t.me/someone_elses_bot");
    assertThat(href("web")).isEqualTo("https://shop.example/");
    assertThat(href("channel")).as("no invite links made: the channel link as written")
        .isEqualTo("https://t.me/signals_channel");

    Row click = app.rows("SELECT * FROM click_sessions WHERE session_id = $1", sessionId).get(0);
    assertThat(click.getString("fbclid")).isEqualTo("IwAR-from-url");
    assertThat(click.getString("ttclid")).isEqualTo("E.C.P.from-url");
    assertThat(click.getString("fbc")).isEqualTo(FBC);
    assertThat(click.getString("fbp")).isEqualTo(FBP);
    assertThat(click.getString("ttp")).isEqualTo(TTP);
    assertThat(click.getString("landing_url")).isEqualTo(page);
    assertThat(click.getString("client_ip")).isEqualTo("127.0.0.1");
    assertThat(click.getString("user_agent")).contains("Chrome");
    assertThat(click.getJson("utm")).isEqualTo(new JsonObject().put("utm_source", "facebook")
        .put("utm_campaign", "spring"));
    assertThat(browser.manage().getCookies()).as("the script sets no cookie of its own").hasSize(4);

    var posted = app.postEvent(KEY_A, new JsonObject().put("workspace_id", WS_A).put("event_name", "FTD")
        .put("telegram_id", 555).put("session_id", sessionId).put("value", 20).put("currency", "USD"));
    String eventId = posted.bodyAsJsonObject().getJsonObject("data").getString("event_id");
    Await.until("delivered to both networks", DEADLINE, () -> count("meta", "delivered") == 1
        && count("tiktok", "delivered") == 1);
    JsonObject meta = fake.lastEvent("meta", eventId).getJsonObject("user_data");
    assertThat(meta.getString("fbc")).isEqualTo(FBC);
    assertThat(meta.getString("fbp")).isEqualTo(FBP);
    assertThat(meta.getString("client_user_agent")).contains("Chrome");
    JsonObject tiktok = fake.lastEvent("tiktok", eventId).getJsonObject("user");
    assertThat(tiktok.getString("ttclid")).isEqualTo("E.C.P.from-url");
    assertThat(tiktok.getString("ttp")).isEqualTo(TTP);
  }

  @Test
  @DisplayName("a click from Google and Snapchat: gclid, gbraid and Snapchat's ScCid from the URL, the _scid cookie; "
      + "an event of its session reaches Snapchat with them and Google Ads with the gclid")
  void googleAndSnapchatIds() {
    start("http://localhost:" + landing.actualPort());
    browser.get("http://localhost:" + landing.actualPort()
        + "/offer?gclid=Cj0KCQiA-from_url&gbraid=0AAAAA-braid&ScCid=5b4f1a0e-7d2c&campaignid={campaignid}");
    waiting().until(d -> href("bot").contains("start="));

    String sessionId = href("bot").substring(href("bot").indexOf("start=") + "start=".length());
    Row click = app.rows("SELECT * FROM click_sessions WHERE session_id = $1", sessionId).get(0);
    assertThat(click.getString("gclid")).isEqualTo("Cj0KCQiA-from_url");
    assertThat(click.getString("gbraid")).isEqualTo("0AAAAA-braid");
    assertThat(click.getString("wbraid")).isNull();
    assertThat(click.getString("sccid")).isEqualTo("5b4f1a0e-7d2c");
    assertThat(click.getString("scid")).isEqualTo(SCID);
    assertThat(click.getValue("ad")).as("an unexpanded ValueTrack macro is no id").isNull();

    String eventId = app.postEvent(KEY_A, new JsonObject().put("workspace_id", WS_A).put("event_name", "FTD")
        .put("telegram_id", 556).put("session_id", sessionId).put("value", 30).put("currency", "USD"))
        .bodyAsJsonObject().getJsonObject("data").getString("event_id");
    Await.until("delivered to Snapchat", DEADLINE, () -> count("snapchat", "delivered") == 1);
    JsonObject snap = fake.lastEvent("snapchat", eventId);
    assertThat(snap.getString("event_name")).isEqualTo("PURCHASE");
    assertThat(snap.getJsonObject("user_data").getString("sc_click_id")).isEqualTo("5b4f1a0e-7d2c");
    assertThat(snap.getJsonObject("user_data").getString("sc_cookie1")).isEqualTo(SCID);
    assertThat(snap.getJsonObject("user_data").getString("client_user_agent")).contains("Chrome");
    Await.until("uploaded to Google Ads", DEADLINE, () -> count("google_ads", "delivered") == 1);
    assertThat(fake.google().uploads().get(eventId).getString("gclid")).isEqualTo("Cj0KCQiA-from_url");
    assertThat(fake.google().uploads().get(eventId).containsKey("gbraid")).as("one Google click id: gclid first")
        .isFalse();
  }

  @Test
  @DisplayName("with the workspace's invite links, the channel link becomes the visitor's own, bound to the click")
  void channelInviteLink() {
    FakeTelegram telegram = FakeTelegram.start(vertx);
    try {
      start("http://localhost:" + landing.actualPort(), new JsonObject()
          .put("webhook_secret", "tg-secret-0123456789ab").put("bot_token", FakeTelegram.TOKEN)
          .put("channel_id", -1001234567890L).put("invite_link_pool", 1).put("api_base", telegram.baseUrl()));
      Await.until("the pool made ahead", DEADLINE, () -> app.count("telegram_invite_links") == 1);
      browser.get("http://localhost:" + landing.actualPort() + "/offer?fbclid=IwAR-channel");
      waiting().until(d -> href("channel").startsWith("https://t.me/+"));

      String sessionId = href("bot").substring(href("bot").indexOf("start=") + "start=".length());
      assertThat(app.rows("SELECT session_id FROM telegram_invite_links WHERE invite_link = $1", href("channel"))
          .get(0).getString("session_id")).isEqualTo(sessionId);
    } finally {
      telegram.close();
    }
  }

  @Test
  @DisplayName("a page on an origin the key does not allow gets no CORS grant: no session, links unchanged")
  void originNotAllowed() {
    start("http://localhost:" + landing.actualPort());
    // The same page from 127.0.0.1: another origin, not in the key's list.
    browser.get("http://127.0.0.1:" + landing.actualPort() + "/offer?fbclid=IwAR-elsewhere");
    waiting().until(d -> browser.executeScript("return window.outcome") != null);

    assertThat(browser.executeScript("return window.outcome")).isEqualTo("blocked");
    assertThat(href("bot")).isEqualTo("https://t.me/" + BOT_A);
    assertThat(app.count("click_sessions")).isZero();
  }

  @Test
  @DisplayName("the quick start's demo page, with the shipped config's demo workspace and keys, gives the bot link "
      + "its session and shows how the bot posts the event")
  void demoPage() {
    int port = ServiceProcess.freePort();
    JsonObject shipped = readShippedConfig();
    shipped.getJsonObject("http").put("host", "127.0.0.1").put("port", port);
    shipped.getJsonObject("database").put("url", databaseUrl);
    shipped.getJsonArray("workspaces").getJsonObject(0).getJsonArray("publishable_keys").getJsonObject(0)
        .getJsonArray("allowed_origins").add("http://127.0.0.1:" + port);
    app = TestApp.start(vertx, shipped);

    browser.get("http://127.0.0.1:" + port + "/demo/?fbclid=IwAR-demo&utm_source=facebook");
    waiting().until(d -> browser.findElement(By.id("session")).isDisplayed());

    String sessionId = browser.findElement(By.id("session-id")).getText();
    assertThat(href("bot-link")).isEqualTo("https://t.me/demo_router_bot?start=" + sessionId);
    assertThat(browser.findElement(By.id("curl")).getText()).contains("\"session_id\":\"" + sessionId + "\"",
        "demo-key-change-me");
    Row click = app.rows("SELECT fbclid, utm FROM click_sessions WHERE session_id = $1", sessionId).get(0);
    assertThat(click.getString("fbclid")).isEqualTo("IwAR-demo");
    assertThat(click.getJson("utm")).isEqualTo(new JsonObject().put("utm_source", "facebook"));
    Browser.screenshot(browser, "demo-prelanding");
  }

  private static JsonObject readShippedConfig() {
    try {
      return new JsonObject(Files.readString(Path.of(ConfigLoader.DEFAULT_PATH)));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
