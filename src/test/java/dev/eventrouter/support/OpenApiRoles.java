package dev.eventrouter.support;

import org.yaml.snakeyaml.Yaml;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

import static org.assertj.core.api.Assertions.assertThat;

/** The roles each operation of the OpenAPI document names ({@code x-roles}), for the tests that walk them. */
public final class OpenApiRoles {

  /** The roles, in the order the walks call them. */
  public static final List<String> ROLES = List.of("ingest", "viewer", "buyer", "admin");
  /** A path parameter's value: any will do, the role is checked before it is read. */
  private static final Map<String, String> PARAMETERS = Map.of("event_id", "evt_1", "integration_id", "none",
      "source_id", "none", "campaign", "1");

  private OpenApiRoles() {}

  /**
   * "METHOD path" of each operation that takes an API key, with the roles it names; fails on one that takes a key
   * and names none.
   */
  @SuppressWarnings("unchecked")
  public static Map<String, List<String>> operations() throws IOException {
    Map<String, Object> document = new Yaml().load(Files.readString(Path.of("src/main/resources/openapi.yaml")));
    Map<String, Map<String, Object>> paths = (Map<String, Map<String, Object>>) document.get("paths");
    Map<String, List<String>> operations = new TreeMap<>();
    paths.forEach((path, item) -> item.forEach((method, value) -> {
      if (!(value instanceof Map<?, ?> operation)) {
        return;
      }
      boolean keyless = operation.get("security") instanceof List<?> list && list.isEmpty();
      Object roles = operation.get("x-roles");
      assertThat(keyless || roles != null).as(method + " " + path + " takes a key but names no x-roles").isTrue();
      if (roles != null) {
        operations.put(method.toUpperCase(Locale.ROOT) + " " + path, (List<String>) roles);
      }
    }));
    return operations;
  }

  /** The operation's method. */
  public static String method(String operation) {
    return operation.substring(0, operation.indexOf(' '));
  }

  /** The operation's path, its parameters filled in. */
  public static String path(String operation) {
    String filled = operation.substring(operation.indexOf(' ') + 1);
    for (Map.Entry<String, String> parameter : PARAMETERS.entrySet()) {
      filled = filled.replace("{" + parameter.getKey() + "}", parameter.getValue());
    }
    return filled;
  }
}
