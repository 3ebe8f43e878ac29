package dev.eventrouter;

import dev.eventrouter.config.ApiKeys;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.List;

/**
 * {@code generate-key} prints a new random key and its config value; {@code hash-key} prints the config value of
 * the key on its standard input. Keys are kept only as these {@code sha256:} values.
 */
final class KeyCommands {

  private static final List<String> ROLES = List.of("ingest", "viewer", "buyer", "admin");

  private KeyCommands() {}

  /**
   * {@code generate-key [ingest|viewer|buyer|admin]}: the key, its {@code sha256:} value, and a line for the
   * workspace's {@code keys} with a name to keep or change: the role and today's date, so keys rotated later are told
   * apart (docs/configuration.md, "Keys and roles").
   */
  static int generateKey(String[] args, PrintStream out, PrintStream err) {
    String role = args.length == 2 ? args[1] : "admin";
    if (args.length > 2 || !ROLES.contains(role)) {
      err.println("usage: java -jar event-router.jar generate-key [ingest|viewer|buyer|admin]");
      return 2;
    }
    String key = ApiKeys.generate();
    String value = ApiKeys.configValue(key);
    out.println(key);
    out.println(value);
    JsonObject line = new JsonObject().put("name", role + "-" + LocalDate.now(ZoneOffset.UTC)).put("key", value)
        .put("role", role);
    if (role.equals("buyer")) {
      line.put("scope", new JsonObject().put("campaign_ids", new JsonArray().add("<campaign id>")));
    }
    out.println(line.encode());
    err.println("first line: the new API key, for its holder (it is kept nowhere); second line: its value for the"
        + " workspace's api_keys; third line: an entry for the workspace's keys, its name a suggestion");
    return 0;
  }

  /**
   * The config value of the key on standard input (its first line, without surrounding blanks, which no HTTP header
   * could carry). A key after {@code hash-key} on the command line is still taken, with a warning: other local users
   * see a process's arguments, and the shell keeps them in its history.
   */
  static int hashKey(String[] args, InputStream in, PrintStream out, PrintStream err) {
    String key;
    if (args.length == 2) {
      err.println("hash-key: a key on the command line is visible to other local users and kept in the shell's "
          + "history; give it on standard input instead: printf '%s' \"$KEY\" | java -jar event-router.jar hash-key");
      key = args[1];
    } else if (args.length == 1) {
      try {
        key = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8)).readLine();
      } catch (IOException e) {
        key = null;
      }
    } else {
      key = null;
    }
    if (key == null || key.isBlank()) {
      err.println("usage: printf '%s' \"$KEY\" | java -jar event-router.jar hash-key  (the key on standard input)");
      return 2;
    }
    key = key.strip();
    if (!ApiKeys.longEnough(key)) {
      err.println("hash-key: an API key needs at least " + ApiKeys.MIN_LENGTH + " characters, and random ones: "
          + "java -jar event-router.jar generate-key makes one");
      return 2;
    }
    out.println(ApiKeys.configValue(key));
    return 0;
  }
}
