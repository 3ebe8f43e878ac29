package dev.eventrouter;

import dev.eventrouter.config.ApiKeys;
import dev.eventrouter.config.AppConfig;
import dev.eventrouter.config.ConfigException;
import dev.eventrouter.config.ConfigLoader;
import dev.eventrouter.config.WorkspaceConfig;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * {@code init}: a config for going live, with a new workspace and new secrets (an API key, a publishable key for
 * the landing pages' origins, a partner's postback token), each printed once and kept only as its digest; Meta and
 * TikTok integrations disabled, their tokens read from an environment file written beside the config.
 */
final class InitCommand {

  static final String USAGE = "usage: java -jar event-router.jar init --bot BOT_USERNAME [--name NAME]"
      + " [--origin https://LANDING.PAGE]... [--config PATH] [--host ADDRESS] [--trusted-proxy ADDRESS]... [--force]";
  /** The file beside the config that the systemd unit and docker compose read the tokens from. */
  static final String ENV_FILE = "event-router.env";
  static final String META_TOKEN_ENV = "META_ACCESS_TOKEN";
  static final String TIKTOK_TOKEN_ENV = "TIKTOK_ACCESS_TOKEN";
  /** Caddy (or nginx) on this host in front of the service: only it reaches the port, and its X-Forwarded-For counts. */
  private static final String DEFAULT_HOST = "127.0.0.1";
  private static final List<String> LOCAL_PROXIES = List.of("127.0.0.1", "::1");
  static final String PUBLIC_BASE_PLACEHOLDER = "https://YOUR.DOMAIN";

  private InitCommand() {}

  /** What the command line asks for. */
  private record Request(Path config, String name, String bot, List<String> origins, String host,
                         List<String> trustedProxies, boolean force) {}

  /** The new secrets, printed once. */
  private record Secrets(String apiKey, String publishableKey, String postbackToken) {}

  static int run(String[] args, Map<String, String> env, PrintStream out, PrintStream err) {
    Request request = parse(args, env);
    if (request == null) {
      err.println(USAGE);
      return 2;
    }
    Path envFile = request.config().toAbsolutePath().getParent().resolve(ENV_FILE);
    if (!request.force()) {
      for (Path existing : List.of(request.config(), envFile)) {
        if (Files.exists(existing)) {
          err.println("init: " + existing + " exists; it is left as it is (--force replaces it, and every key it "
              + "held stops working)");
          return 1;
        }
      }
    }
    Secrets secrets = new Secrets(ApiKeys.generate(), request.origins().isEmpty() ? null : ApiKeys.generate(),
        ApiKeys.generate());
    JsonObject config = config(request, UUID.randomUUID(), secrets);
    AppConfig parsed;
    try {
      // The parser the service runs: a bad origin, bot name or address is refused here, not at the first start.
      parsed = new ConfigLoader(Map.of(META_TOKEN_ENV, "", TIKTOK_TOKEN_ENV, "")).resolve(config);
    } catch (ConfigException e) {
      err.println(e.getMessage());
      return 2;
    }
    try {
      Files.createDirectories(envFile.getParent());
      write(request.config(), config.encodePrettily() + "\n", request.force(), false);
      write(envFile, envFileText(), request.force(), true);
    } catch (IOException e) {
      err.println("init: could not write " + e.getMessage());
      return 1;
    }
    printSecrets(out, request, parsed.workspaces().get(0), envFile, secrets);
    return 0;
  }

  /** The arguments, or null when they are not what {@link #USAGE} says. */
  private static Request parse(String[] args, Map<String, String> env) {
    String config = null;
    String name = "main";
    String bot = null;
    String host = DEFAULT_HOST;
    List<String> origins = new ArrayList<>();
    List<String> proxies = new ArrayList<>();
    boolean force = false;
    for (int i = 1; i < args.length; i++) {
      if (args[i].equals("--force")) {
        force = true;
        continue;
      }
      if (i + 1 >= args.length) {
        return null;
      }
      String value = args[++i];
      switch (args[i - 1]) {
        case "--config" -> config = value;
        case "--name" -> name = value;
        case "--bot" -> bot = value;
        case "--host" -> host = value;
        case "--origin" -> origins.add(value);
        case "--trusted-proxy" -> proxies.add(value);
        default -> {
          return null;
        }
      }
    }
    if (bot == null) {
      return null;
    }
    if (proxies.isEmpty() && host.equals(DEFAULT_HOST)) {
      proxies.addAll(LOCAL_PROXIES);
    }
    return new Request(new ConfigLoader(env).path(config), name, bot, origins, host, proxies, force);
  }

  private static JsonObject config(Request request, UUID workspaceId, Secrets secrets) {
    JsonObject workspace = new JsonObject()
        .put("id", workspaceId.toString())
        .put("name", request.name())
        .put("api_keys", new JsonArray().add(ApiKeys.configValue(secrets.apiKey())));
    if (secrets.publishableKey() != null) {
      workspace.put("publishable_keys", new JsonArray().add(new JsonObject()
          .put("key", ApiKeys.configValue(secrets.publishableKey()))
          .put("allowed_origins", new JsonArray(request.origins()))));
    }
    workspace.put("bot_name", request.bot())
        .put("report_currency", "USD")
        .put("report_timezone", "UTC")
        // TikTok has no standard Registration event: CompleteRegistration is its name, which campaigns can optimise
        // for (https://ads.tiktok.com/help/article/supported-standard-events).
        .put("event_map", new JsonObject().put("REG", new JsonObject().put("tiktok", "CompleteRegistration")))
        .put("postback_sources", new JsonArray().add(new JsonObject()
            .put("id", "partner")
            .put("token", ApiKeys.configValue(secrets.postbackToken()))
            .put("click_id_holds", "session_id")))
        .put("integrations", new JsonArray()
            .add(new JsonObject().put("id", "meta").put("type", "meta").put("pixel_id", "")
                .put("access_token", "${" + META_TOKEN_ENV + "}").put("action_source", "chat").put("enabled", false))
            .add(new JsonObject().put("id", "tiktok").put("type", "tiktok").put("pixel_code", "")
                .put("access_token", "${" + TIKTOK_TOKEN_ENV + "}").put("event_source", "web")
                .put("enabled", false)));
    JsonObject http = new JsonObject().put("host", request.host()).put("port", 8080);
    if (!request.trustedProxies().isEmpty()) {
      http.put("trusted_proxies", new JsonArray(request.trustedProxies()));
    }
    return new JsonObject()
        .put("http", http)
        .put("database", new JsonObject().putNull("url").put("data_dir", "data/postgres"))
        .put("workspaces", new JsonArray().add(workspace));
  }

  private static String envFileText() {
    return """
        # event-router's secrets: read by the systemd unit (EnvironmentFile=) and by docker compose (env_file:).
        # Keep this file private. To turn a network on, paste its token here, then set the integration's pixel and
        # "enabled": true in the config (docs/going-live.md, "Meta" and "TikTok").
        # Meta: Events Manager > your dataset > Settings > Conversions API > Generate access token
        %s=
        # TikTok: Events Manager > your pixel > Settings > Events API > Generate Access Token
        %s=
        """.formatted(META_TOKEN_ENV, TIKTOK_TOKEN_ENV);
  }

  /**
   * Writes a new file, or replaces one with {@code force}; a private one is created readable by its owner only, so
   * it never holds a byte under wider permissions.
   */
  private static void write(Path path, String text, boolean force, boolean secret) throws IOException {
    FileAttribute<?>[] attributes = secret && path.getFileSystem().supportedFileAttributeViews().contains("posix")
        ? new FileAttribute<?>[] {PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------"))}
        : new FileAttribute<?>[0];
    if (force) {
      Files.deleteIfExists(path);
    }
    try {
      Files.createFile(path, attributes);
    } catch (FileAlreadyExistsException e) {
      throw new IOException(path + ": it appeared meanwhile", e);
    }
    Files.writeString(path, text);
  }

  /** What was written, and each secret once, read back from the workspace as the service parsed it. */
  private static void printSecrets(PrintStream out, Request request, WorkspaceConfig workspace, Path envFile,
      Secrets secrets) {
    out.println("Wrote " + request.config() + ": workspace \"" + workspace.name() + "\", workspace_id "
        + workspace.id() + ", for the bot @" + workspace.botName() + ".");
    out.println("Wrote " + envFile + ": the networks' access tokens go there (empty for now).");
    out.println();
    out.println("Each secret below is shown this once: the config keeps only its sha256: digest. Keep them in a "
        + "password manager.");
    out.println();
    out.println("API key: for your bot or bot builder, sent as the x-api-key header of each event:");
    out.println("  " + secrets.apiKey());
    if (secrets.publishableKey() != null) {
      out.println("Publishable key: the data-key of the prelanding script, on " + String.join(", ",
          request.origins()) + ":");
      out.println("  " + secrets.publishableKey());
    } else {
      out.println("(No publishable key: give --origin with your landing pages' address to make one.)");
    }
    out.println("Postback token: for the partner source \"partner\", in the postback URL you give the partner:");
    out.println("  " + secrets.postbackToken());
    out.println("  the URL, with your domain and the partner's macros in place of {...}:");
    out.println("  " + workspace.postbackSources().get(0).urlTemplate(PUBLIC_BASE_PLACEHOLDER,
        secrets.postbackToken()));
    out.println();
    out.println("Next: docs/going-live.md, from \"Domain and HTTPS\".");
  }
}
