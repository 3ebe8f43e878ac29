package dev.eventrouter.config;

import dev.eventrouter.common.UuidText;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.function.BiFunction;
import java.util.function.Function;
import java.util.regex.Pattern;

/**
 * Typed reads of config JSON that never stop at the first mistake: each bad value is recorded as a problem named by
 * its JSON path, and a usable default is returned, so one start reports every mistake at once.
 */
final class JsonReader {

  private static final Set<String> RATE_LIMIT_KEYS = Set.of("per_second", "burst");

  private final List<String> problems = new ArrayList<>();

  void problem(String message) {
    problems.add(message);
  }

  List<String> problems() {
    return problems;
  }

  JsonObject object(JsonObject parent, String key, String path) {
    Object value = parent.getValue(key);
    if (value == null) {
      return new JsonObject();
    }
    if (value instanceof JsonObject json) {
      return json;
    }
    problem(path + ": must be an object");
    return new JsonObject();
  }

  String string(JsonObject json, String key, String path, String fallback) {
    Object value = json.getValue(key);
    if (value == null) {
      return fallback;
    }
    if (value instanceof String text && !text.isBlank()) {
      return text;
    }
    problem(path + ": must be a non-empty string");
    return fallback;
  }

  long integer(JsonObject json, String key, String path, long fallback, long min, long max) {
    Object value = json.getValue(key);
    if (value == null) {
      return fallback;
    }
    if ((value instanceof Integer || value instanceof Long) && ((Number) value).longValue() >= min
        && ((Number) value).longValue() <= max) {
      return ((Number) value).longValue();
    }
    problem(path + ": must be a whole number from " + min + " to " + max);
    return fallback;
  }

  boolean bool(JsonObject json, String key, String path, boolean fallback) {
    Object value = json.getValue(key);
    if (value == null) {
      return fallback;
    }
    if (value instanceof Boolean b) {
      return b;
    }
    problem(path + ": must be true or false");
    return fallback;
  }

  double number(JsonObject json, String key, String path, double fallback) {
    Object value = json.getValue(key);
    if (value == null) {
      return fallback;
    }
    if (value instanceof Number number && number.doubleValue() > 0 && Double.isFinite(number.doubleValue())) {
      return number.doubleValue();
    }
    problem(path + ": must be a number greater than 0");
    return fallback;
  }

  /** An optional non-empty array of strings, each matching the pattern; null when absent. */
  Set<String> strings(JsonObject json, String key, String path, Pattern each, String rule) {
    Object value = json.getValue(key);
    if (value == null) {
      return null;
    }
    if (!(value instanceof JsonArray array) || array.isEmpty()) {
      problem(path + ": must be a non-empty array of " + rule);
      return null;
    }
    Set<String> result = new LinkedHashSet<>();
    for (int i = 0; i < array.size(); i++) {
      if (array.getValue(i) instanceof String text && each.matcher(text).matches()) {
        result.add(text);
      } else {
        problem(path + "[" + i + "]: must be " + rule);
      }
    }
    return Collections.unmodifiableSet(result);
  }

  /** A token-bucket rate limit {@code {"per_second", "burst"}}, each defaulting to {@code defaults}'. */
  RateLimitConfig rateLimit(JsonObject json, String path, RateLimitConfig defaults) {
    unknownKeys(json, path, RATE_LIMIT_KEYS);
    double perSecond = number(json, "per_second", path + ".per_second", defaults.perSecond());
    double burst = number(json, "burst", path + ".burst", defaults.burst());
    if (burst < 1) {
      problem(path + ".burst: must be at least 1");
    }
    return new RateLimitConfig(perSecond, Math.max(burst, 1));
  }

  UUID uuid(JsonObject json, String key, String path) {
    UUID id = UuidText.parse(json.getValue(key));
    if (id == null) {
      problem(path + ": required, a UUID such as 7c9e6679-7425-40de-944b-e07fc1f90ae7");
    }
    return id;
  }

  void unknownKeys(JsonObject json, String path, Set<String> known) {
    for (String key : json.fieldNames()) {
      if (!known.contains(key)) {
        problem((path.isEmpty() ? key : path + "." + key) + ": unknown key (known: "
            + String.join(", ", known.stream().sorted().toList()) + ")");
      }
    }
  }

  /**
   * An optional array of objects, each parsed (null when it cannot be), whose ids must be unique: a repeated id is
   * reported with both paths.
   *
   * @param what "workspace" or "integration", for the messages
   */
  <T, K> List<T> uniqueObjects(Object value, String path, BiFunction<JsonObject, String, T> parse, Function<T, K> id,
                               String what) {
    if (value == null) {
      return List.of();
    }
    if (!(value instanceof JsonArray array)) {
      problem(path + ": must be an array");
      return List.of();
    }
    Map<K, String> seen = new HashMap<>();
    return objects(array, path, (item, itemPath) -> {
      T parsed = parse.apply(item, itemPath);
      String earlier = parsed == null ? null : seen.putIfAbsent(id.apply(parsed), itemPath);
      if (earlier != null) {
        problem(itemPath + ".id: duplicate " + what + " id " + id.apply(parsed) + " (also at " + earlier + ")");
      }
      return parsed;
    });
  }

  /**
   * Each item of an array parsed with its path ({@code path[i]}); an item that is no object, or parses to null, is
   * left out.
   */
  <T> List<T> objects(JsonArray array, String path, BiFunction<JsonObject, String, T> parse) {
    List<T> result = new ArrayList<>();
    for (int i = 0; i < array.size(); i++) {
      String itemPath = path + "[" + i + "]";
      if (!(array.getValue(i) instanceof JsonObject item)) {
        problem(itemPath + ": must be an object");
        continue;
      }
      T parsed = parse.apply(item, itemPath);
      if (parsed != null) {
        result.add(parsed);
      }
    }
    return List.copyOf(result);
  }
}
