package dev.eventrouter.support;

import org.junit.jupiter.api.Assumptions;
import org.openqa.selenium.By;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

/**
 * Headless Chromium for the page tests, driven by Selenium through the chromedriver of the same Debian release
 * (packages chromium and chromium-driver, which .ci/run installs). Both binaries are given to Selenium explicitly, so
 * it never tries to download one; CHROMIUM_BIN and CHROMEDRIVER_BIN name others. Where neither can be found the test
 * is skipped, saying so.
 */
public final class Browser {

  private static final Path CHROMIUM = Path.of(env("CHROMIUM_BIN", "/usr/bin/chromium"));
  private static final Path CHROMEDRIVER = Path.of(env("CHROMEDRIVER_BIN", "/usr/bin/chromedriver"));
  /** Where a test run leaves its screenshots (the README shows copies of them). */
  public static final Path SCREENSHOTS = Path.of("target", "screenshots");

  private Browser() {}

  private static String env(String name, String fallback) {
    String value = System.getenv(name);
    return value == null || value.isBlank() ? fallback : value;
  }

  /** A new headless browser; skips the test when this machine has none (CI installs one). */
  public static ChromeDriver start() {
    return start(null);
  }

  /**
   * A new headless browser that saves the files a page downloads in {@code downloads}, without asking (Chromium's
   * preferences, https://chromium.googlesource.com/chromium/src/+/main/chrome/common/pref_names.h).
   */
  public static ChromeDriver start(Path downloads) {
    Assumptions.assumeTrue(Files.isExecutable(CHROMIUM) && Files.isExecutable(CHROMEDRIVER),
        "no browser here: the page tests need Debian's chromium and chromium-driver (" + CHROMIUM + ", "
            + CHROMEDRIVER + "); .ci/run installs them, or run apt-get install chromium chromium-driver");
    ChromeOptions options = new ChromeOptions();
    options.setBinary(CHROMIUM.toFile());
    // Root needs --no-sandbox; the rest keep Chromium from calling out of a closed network at every start.
    options.addArguments("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
        "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync",
        "--window-size=1440,1000");
    Map<String, Object> prefs = new HashMap<>(Map.of("credentials_enable_service", false));
    if (downloads != null) {
      prefs.put("download.default_directory", downloads.toAbsolutePath().toString());
      prefs.put("download.prompt_for_download", false);
    }
    options.setExperimentalOption("prefs", prefs);
    ChromeDriverService service = new ChromeDriverService.Builder().usingDriverExecutable(CHROMEDRIVER.toFile())
        .usingAnyFreePort().build();
    return new ChromeDriver(service, options);
  }

  /** Polls the page until a condition holds, over the page redrawing itself (a live list replaces its rows). */
  public static WebDriverWait waiting(ChromeDriver driver, Duration deadline) {
    WebDriverWait wait = new WebDriverWait(driver, deadline);
    wait.ignoring(StaleElementReferenceException.class);
    return wait;
  }

  /** Opens the debugger signed out (sessionStorage is per tab: cleared, so each test signs in itself). */
  public static void openDebugger(ChromeDriver driver, int port, Duration deadline) {
    driver.get("http://127.0.0.1:" + port + "/ui/");
    driver.executeScript("sessionStorage.clear()");
    driver.navigate().refresh();
    waiting(driver, deadline).until(ExpectedConditions.visibilityOfElementLocated(By.id("api-key")));
  }

  /** Signs in to the debugger with an API key. */
  public static void signIn(ChromeDriver driver, String key) {
    WebElement field = driver.findElement(By.id("api-key"));
    field.clear();
    field.sendKeys(key);
    driver.findElement(By.cssSelector("#sign-in button[type=submit]")).click();
  }

  /** Saves what the browser shows as {@code target/screenshots/<name>.png}. */
  public static Path screenshot(ChromeDriver driver, String name) {
    try {
      Files.createDirectories(SCREENSHOTS);
      Path file = SCREENSHOTS.resolve(name + ".png");
      Files.write(file, driver.getScreenshotAs(OutputType.BYTES));
      return file;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
