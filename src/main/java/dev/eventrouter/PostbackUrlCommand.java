package dev.eventrouter;

import dev.eventrouter.config.ApiKeys;
import dev.eventrouter.config.AppConfig;
import dev.eventrouter.config.ConfigException;
import dev.eventrouter.config.ConfigLoader;
import dev.eventrouter.config.PostbackSource;
import dev.eventrouter.config.WorkspaceConfig;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Map;

/**
 * {@code postback-url --base PUBLIC_URL [--config PATH] < TOKEN_ON_STDIN}: the ready-to-paste postback URL of the
 * source whose token is given, with the partner's macros in place. The token is read from standard input (never the
 * command line, which other local users see) and found by its digest, as the service finds it.
 */
final class PostbackUrlCommand {

  static final String USAGE = "usage: printf '%s' \"$TOKEN\" | java -jar event-router.jar postback-url"
      + " --base PUBLIC_URL [--config PATH]";

  private PostbackUrlCommand() {}

  static int run(String[] args, InputStream in, Map<String, String> env, PrintStream out, PrintStream err) {
    String base = null;
    String configPath = null;
    for (int i = 1; i + 1 < args.length; i += 2) {
      switch (args[i]) {
        case "--base" -> base = args[i + 1];
        case "--config" -> configPath = args[i + 1];
        default -> {
          err.println(USAGE);
          return 2;
        }
      }
    }
    if (base == null || args.length % 2 == 0 || !base.matches("https?://[^/?#\\s]+(/[^?#\\s]*)?")) {
      err.println(USAGE + "\n(PUBLIC_URL: the address partners reach this service at, such as "
          + "https://tracker.example)");
      return 2;
    }
    String token;
    try {
      token = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8)).readLine();
    } catch (IOException e) {
      token = null;
    }
    if (token == null || token.isBlank()) {
      err.println(USAGE + "\n(the token on standard input; java -jar event-router.jar generate-key makes one)");
      return 2;
    }
    token = token.strip();
    ConfigLoader loader = new ConfigLoader(env);
    AppConfig config;
    try {
      config = loader.readNow(loader.path(configPath));
    } catch (ConfigException e) {
      err.println(e.getMessage());
      return 1;
    }
    byte[] digest = ApiKeys.digest(token);
    for (WorkspaceConfig workspace : config.workspaces()) {
      for (PostbackSource source : workspace.postbackSources()) {
        if (MessageDigest.isEqual(source.tokenHash(), digest)) {
          out.println(source.urlTemplate(base.replaceAll("/+$", ""), token));
          err.println("postback source " + source.id() + " of workspace " + workspace.id()
              + ": paste this URL at the partner");
          return 0;
        }
      }
    }
    err.println("postback-url: no postback source of the config has this token (its token is the sha256: value of "
        + "the token given)");
    return 1;
  }
}
