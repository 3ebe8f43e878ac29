package dev.eventrouter.server;

import dev.eventrouter.config.ApiKeys;
import dev.eventrouter.support.OpenApiRoles;
import dev.eventrouter.support.TestApp;
import dev.eventrouter.support.TestDatabase;
import io.vertx.core.MultiMap;
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

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static dev.eventrouter.support.TestApp.WS_A;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Walks every operation of the OpenAPI document with a key of each role (and one of {@code api_keys}): where the
 * operation's {@code x-roles} leave the role out, the answer is 403 {@code forbidden} in the documented error body,
 * naming the key and its role; where they take it, anything but 401 and 403. The roles table of docs/api.md says
 * the same as the document.
 */
@ExtendWith(VertxExtension.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class RoleWalkTest {

  private static final Map<String, String> KEYS = Map.of(
      "ingest", "walk-ingest-key-0123456789abcdef",
      "viewer", "walk-viewer-key-0123456789abcdef",
      "buyer", "walk-buyer-key-0123456789abcdef",
      "admin", "walk-admin-key-0123456789abcdef");
  private static final Pattern TABLE_ROW = Pattern.compile("^\\| `(GET|POST) (/\\S+)` \\| ([a-z, ]+) \\|",
      Pattern.MULTILINE);

  private TestApp app;

  @BeforeAll
  void start(Vertx vertx) {
    JsonObject config = TestApp.config(TestDatabase.freshDatabaseUrl());
    JsonArray keys = new JsonArray();
    KEYS.forEach((role, key) -> {
      JsonObject entry = new JsonObject().put("name", role + "-walker").put("key", ApiKeys.configValue(key))
          .put("role", role);
      keys.add(role.equals("buyer") ? entry.put("scope", new JsonObject().put("campaign_ids",
          new JsonArray().add("111"))) : entry);
    });
    config.getJsonArray("workspaces").getJsonObject(0).put("keys", keys);
    app = TestApp.start(vertx, config);
  }

  @AfterAll
  void stop() {
    app.close();
  }

  @Test
  @DisplayName("every operation answers each role as its x-roles say: 403 forbidden where it is left out")
  void walk() throws IOException {
    Map<String, List<String>> operations = OpenApiRoles.operations();
    assertThat(operations).hasSizeGreaterThanOrEqualTo(23);
    List<String> checked = new ArrayList<>();
    operations.forEach((operation, roles) -> {
      String method = OpenApiRoles.method(operation);
      String path = OpenApiRoles.path(operation);
      Map<String, String> callers = new LinkedHashMap<>(KEYS);
      callers.put("api_keys", TestApp.KEY_A);
      callers.forEach((role, key) -> {
        HttpResponse<Buffer> answer = call(method, path, key);
        boolean allowed = roles.contains(role.equals("api_keys") ? "admin" : role);
        String what = operation + " as " + role + ": " + answer.statusCode() + " " + answer.bodyAsString();
        if (allowed) {
          assertThat(answer.statusCode()).as(what).isNotIn(401, 403);
        } else {
          assertThat(answer.statusCode()).as(what).isEqualTo(403);
          JsonObject body = answer.bodyAsJsonObject();
          assertThat(body.fieldNames()).as(what).containsExactlyInAnyOrder("ok", "error");
          assertThat(body.getBoolean("ok")).isFalse();
          assertThat(body.getJsonObject("error").getString("code")).as(what).isEqualTo("forbidden");
          assertThat(body.getJsonObject("error").getString("message")).as(what).contains(role + "-walker")
              .contains("role " + role);
          assertThat(answer.getHeader("X-Request-Id")).isNotBlank();
        }
        checked.add(operation + " " + role);
      });
    });
    assertThat(checked).hasSize(operations.size() * 5);
  }

  @Test
  @DisplayName("docs/api.md's roles table lists every operation with the document's roles")
  void documented() throws IOException {
    Map<String, List<String>> table = new TreeMap<>();
    Matcher row = TABLE_ROW.matcher(Files.readString(Path.of("docs/api.md")));
    while (row.find()) {
      table.put(row.group(1) + " " + row.group(2), List.of(row.group(3).trim().split(",\\s*")));
    }
    assertThat(table).isEqualTo(OpenApiRoles.operations());
  }

  private HttpResponse<Buffer> call(String method, String path, String key) {
    if (method.equals("GET")) {
      return app.get(path, key);
    }
    MultiMap headers = TestApp.jsonHeaders(key);
    return app.post(path, headers, new JsonObject().put("workspace_id", WS_A).toBuffer());
  }
}
