package dev.eventrouter;

import dev.eventrouter.config.ApiKeys;
import dev.eventrouter.config.AppConfig;
import dev.eventrouter.config.ConfigLoader;
import dev.eventrouter.config.DemoKey;
import dev.eventrouter.config.IntegrationConfig;
import dev.eventrouter.config.WorkspaceConfig;
import dev.eventrouter.http.ApiKeyAuthenticator;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.util.Arrays;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code init}: a live config with new secrets, printed once; never over an existing one without --force. */
class InitCommandTest {

  @TempDir
  Path dir;
  private ByteArrayOutputStream out = new ByteArrayOutputStream();
  private ByteArrayOutputStream err = new ByteArrayOutputStream();

  private int init(String... args) {
    out = new ByteArrayOutputStream();
    err = new ByteArrayOutputStream();
    String[] all = new String[args.length + 1];
    all[0] = "init";
    System.arraycopy(args, 0, all, 1, args.length);
    return Main.run(all, new ByteArrayInputStream(new byte[0]), new PrintStream(out, true, StandardCharsets.UTF_8),
        new PrintStream(err, true, StandardCharsets.UTF_8));
  }

  private String output() {
    return out.toString(StandardCharsets.UTF_8);
  }

  /** The secret printed on the line after the one that starts with {@code label}. */
  static String secret(String output, String label) {
    List<String> lines = output.lines().toList();
    for (int i = 0; i + 1 < lines.size(); i++) {
      if (lines.get(i).startsWith(label)) {
        return lines.get(i + 1).strip();
      }
    }
    throw new AssertionError("no '" + label + "' in:\n" + output);
  }

  private static AppConfig load(Path config) {
    return new ConfigLoader(Map.of(InitCommand.META_TOKEN_ENV, "", InitCommand.TIKTOK_TOKEN_ENV, ""))
        .readNow(config);
  }

  @Test
  @DisplayName("init writes a config the service loads: a new workspace whose new API key, publishable key and "
      + "postback token are printed once and kept as digests; no demo secret; both networks disabled, their tokens "
      + "from a private environment file")
  void writesLiveConfig() throws Exception {
    Path config = dir.resolve("etc/live.json");
    assertThat(init("--config", config.toString(), "--name", "Acme team", "--bot", "@acme_bot",
        "--origin", "https://promo.acme.example", "--origin", "https://lp.acme.example")).as(err.toString()).isZero();

    AppConfig loaded = load(config);
    assertThat(loaded.workspaces()).hasSize(1);
    WorkspaceConfig workspace = loaded.workspaces().get(0);
    assertThat(workspace.name()).isEqualTo("Acme team");
    assertThat(workspace.botName()).isEqualTo("acme_bot");
    assertThat(workspace.id().toString()).isNotEqualTo("7c9e6679-7425-40de-944b-e07fc1f90ae7");
    assertThat(output()).contains("workspace_id " + workspace.id());

    String apiKey = secret(output(), "API key:");
    String publishable = secret(output(), "Publishable key:");
    String token = secret(output(), "Postback token:");
    assertThat(List.of(apiKey, publishable, token)).doesNotHaveDuplicates()
        .allSatisfy(key -> assertThat(key).hasSizeGreaterThanOrEqualTo(ApiKeys.MIN_LENGTH).matches("[A-Za-z0-9_-]+"));
    assertThat(new ApiKeyAuthenticator(loaded.workspaces()).authenticate(apiKey, Instant.now()).workspace()).isEqualTo(workspace);
    assertThat(workspace.publishableKeys()).singleElement().satisfies(key -> {
      assertThat(key.hash()).isEqualTo(ApiKeys.digest(publishable));
      assertThat(key.allowedOrigins()).containsExactly("https://promo.acme.example", "https://lp.acme.example");
    });
    assertThat(workspace.postbackSources()).singleElement()
        .satisfies(source -> assertThat(MessageDigest.isEqual(source.tokenHash(), ApiKeys.digest(token))).isTrue());
    assertThat(output()).contains("  https://YOUR.DOMAIN/api/v1/postbacks/" + token + "?subid={subid}&");
    String text = Files.readString(config);
    assertThat(text).as("only digests in the file").doesNotContain(apiKey, publishable, token)
        .contains(ApiKeys.configValue(apiKey));
    for (String demo : List.of(DemoKey.KEY, DemoKey.PUBLISHABLE_KEY, DemoKey.POSTBACK_TOKEN)) {
      assertThat(text).doesNotContain(ApiKeys.configValue(demo));
    }
    assertThat(DemoKey.exposedIn(loaded)).isEmpty();

    assertThat(workspace.integrations()).extracting(IntegrationConfig::id).containsExactly("meta", "tiktok");
    assertThat(workspace.eventMap().get("REG").tiktok()).as("TikTok's own name").isEqualTo("CompleteRegistration");
    assertThat(workspace.integrations()).allSatisfy(i -> {
      assertThat(i.enabled()).isFalse();
      assertThat(i.pixel()).isEmpty();
    });
    JsonObject raw = new JsonObject(text).getJsonArray("workspaces").getJsonObject(0);
    assertThat(raw.getJsonArray("integrations").getJsonObject(0).getString("access_token"))
        .isEqualTo("${META_ACCESS_TOKEN}");
    assertThat(raw.getJsonArray("integrations").getJsonObject(1).getString("access_token"))
        .isEqualTo("${TIKTOK_ACCESS_TOKEN}");
    assertThat(loaded.http().host()).as("behind a proxy on this host").isEqualTo("127.0.0.1");
    assertThat(new JsonObject(text).getJsonObject("http").getJsonArray("trusted_proxies"))
        .containsExactly("127.0.0.1", "::1");

    Path envFile = dir.resolve("etc").resolve(InitCommand.ENV_FILE);
    assertThat(Files.readAllLines(envFile)).contains("META_ACCESS_TOKEN=", "TIKTOK_ACCESS_TOKEN=");
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(envFile))).isEqualTo("rw-------");
  }

  @Test
  @DisplayName("an existing config or environment file is left alone without --force (exit 1); --force makes new "
      + "secrets, and the old ones stop working")
  void neverOverwritesWithoutForce() throws Exception {
    Path config = dir.resolve("config.json");
    assertThat(init("--config", config.toString(), "--bot", "acme_bot")).isZero();
    String first = Files.readString(config);
    String firstKey = secret(output(), "API key:");
    assertThat(output()).contains("No publishable key");

    assertThat(init("--config", config.toString(), "--bot", "acme_bot")).isEqualTo(1);
    assertThat(err.toString(StandardCharsets.UTF_8)).contains(config.toString(), "--force");
    assertThat(output()).isEmpty();
    assertThat(Files.readString(config)).isEqualTo(first);

    Files.delete(config);
    assertThat(init("--config", config.toString(), "--bot", "acme_bot")).as("the environment file alone")
        .isEqualTo(1);
    assertThat(err.toString(StandardCharsets.UTF_8)).contains(InitCommand.ENV_FILE);
    assertThat(config).doesNotExist();

    assertThat(init("--config", config.toString(), "--bot", "acme_bot", "--force")).isZero();
    AppConfig replaced = load(config);
    assertThat(new ApiKeyAuthenticator(replaced.workspaces()).authenticate(firstKey, Instant.now())).isNull();
    assertThat(new ApiKeyAuthenticator(replaced.workspaces()).authenticate(secret(output(), "API key:"), Instant.now()))
        .isNotNull();
  }

  @Test
  @DisplayName("the default path is the service's (EVENT_ROUTER_CONFIG); --host beyond loopback trusts no proxy "
      + "unless named")
  void defaultPathAndHost() {
    Path config = dir.resolve("from-env.json");
    String[] args = {"init", "--bot", "acme_bot", "--host", "0.0.0.0", "--trusted-proxy", "172.30.250.0/24"};
    ByteArrayOutputStream sink = new ByteArrayOutputStream();
    assertThat(InitCommand.run(args, Map.of("EVENT_ROUTER_CONFIG", config.toString()),
        new PrintStream(sink, true, StandardCharsets.UTF_8), new PrintStream(sink, true, StandardCharsets.UTF_8)))
        .as(sink.toString(StandardCharsets.UTF_8)).isZero();
    AppConfig loaded = load(config);
    assertThat(loaded.http().host()).isEqualTo("0.0.0.0");
    assertThat(new JsonObject(readString(config)).getJsonObject("http").getJsonArray("trusted_proxies"))
        .containsExactly("172.30.250.0/24");

    Path other = dir.resolve("second/other.json"); // its own directory: each config has its environment file
    assertThat(init("--config", other.toString(), "--bot", "acme_bot", "--host", "0.0.0.0")).isZero();
    assertThat(new JsonObject(readString(other)).getJsonObject("http").containsKey("trusted_proxies")).isFalse();
  }

  @Test
  @DisplayName("usage errors (no --bot, an unknown or valueless option) and values the service would refuse (an "
      + "origin without its scheme, a bad bot name) are exit 2 with nothing written")
  void refusals() {
    Path config = dir.resolve("config.json");
    assertThat(init("--config", config.toString())).isEqualTo(2);
    assertThat(err.toString(StandardCharsets.UTF_8)).contains(InitCommand.USAGE);
    assertThat(init("--config", config.toString(), "--bot", "acme_bot", "--colour", "red")).isEqualTo(2);
    assertThat(init("--config", config.toString(), "--bot")).isEqualTo(2);
    assertThat(init("--config", config.toString(), "--bot", "acme_bot", "--origin", "promo.acme.example"))
        .isEqualTo(2);
    assertThat(err.toString(StandardCharsets.UTF_8)).contains("allowed_origins");
    assertThat(init("--config", config.toString(), "--bot", "acme bot!")).isEqualTo(2);
    assertThat(err.toString(StandardCharsets.UTF_8)).contains("bot_name");
    assertThat(output()).isEmpty();
    assertThat(Arrays.asList(dir.toFile().list())).isEmpty();
  }

  private static String readString(Path path) {
    try {
      return Files.readString(path);
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }
}
