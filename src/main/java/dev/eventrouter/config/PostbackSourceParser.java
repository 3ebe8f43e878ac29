package dev.eventrouter.config;

import dev.eventrouter.common.CurrencyCode;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.BiFunction;
import java.util.regex.Pattern;

/** One entry of a workspace's {@code postback_sources}. */
final class PostbackSourceParser {

  private static final Set<String> KEYS = Set.of("id", "token", "click_id_holds", "params", "macros", "events",
      "statuses", "default_currency", "default_event");
  private static final Pattern SOURCE_ID = Pattern.compile("[A-Za-z0-9_.-]{1,64}");
  /** A query parameter's name as partners write them (sub_id_1, aff-click-id, subacc4). */
  private static final Pattern PARAM_NAME = Pattern.compile("[A-Za-z0-9_.\\[\\]-]{1,64}");
  /** A partner's event or status word, kept in lower case. */
  private static final Pattern WORD = Pattern.compile("[a-z0-9_ .-]{1,50}");
  /** A partner's macro as its template writes it. */
  private static final Pattern MACRO = Pattern.compile("[^\\s&#?=]{1,100}|#[A-Za-z0-9_.-]{1,98}#");

  private final JsonReader r;
  /** The workspace parser's key-hash check: one digest opens one thing, across every workspace. */
  private final BiFunction<Object, String, byte[]> keyHash;

  PostbackSourceParser(JsonReader reader, BiFunction<Object, String, byte[]> keyHash) {
    this.r = reader;
    this.keyHash = keyHash;
  }

  PostbackSource source(JsonObject json, String path) {
    r.unknownKeys(json, path, KEYS);
    String id = r.string(json, "id", path + ".id", null);
    if (id == null || !SOURCE_ID.matcher(id).matches()) {
      r.problem(path + ".id: required, 1 to 64 of A-Z a-z 0-9 _ . -");
    }
    byte[] token = keyHash.apply(json.getValue("token"), path + ".token");
    String holds = r.string(json, "click_id_holds", path + ".click_id_holds", PostbackSource.SESSION_ID);
    if (!holds.equals(PostbackSource.SESSION_ID) && !holds.equals(PostbackSource.TELEGRAM_ID)) {
      r.problem(path + ".click_id_holds: must be \"session_id\" or \"telegram_id\"");
    }
    String currency = CurrencyCode.iso(r.string(json, "default_currency", path + ".default_currency", "USD"));
    if (currency == null) {
      r.problem(path + ".default_currency: must be a 3-letter ISO 4217 code such as USD");
    }
    String defaultEvent = r.string(json, "default_event", path + ".default_event", null);
    if (defaultEvent != null && !WorkspaceParser.EVENT_NAME.matcher(defaultEvent).matches()) {
      r.problem(path + ".default_event: must be an event name (1 to 50 letters, digits, '_', '-' or spaces)");
    }
    Map<String, String> events = new HashMap<>(PostbackSource.DEFAULT_EVENTS);
    words(r.object(json, "events", path + ".events"), path + ".events").forEach((word, name) -> {
      if (!WorkspaceParser.EVENT_NAME.matcher(name).matches()) {
        r.problem(path + ".events." + word + ": must map to an event name (1 to 50 letters, digits, _ - or spaces)");
      }
      events.put(word, name);
    });
    Map<String, String> statuses = new HashMap<>(PostbackSource.DEFAULT_STATUSES);
    statuses(r.object(json, "statuses", path + ".statuses"), path + ".statuses", statuses);
    return id == null || token == null ? null
        : new PostbackSource(id, token, holds, params(r.object(json, "params", path + ".params"), path + ".params"),
            macros(r.object(json, "macros", path + ".macros"), path + ".macros"), Map.copyOf(events),
            Map.copyOf(statuses), currency, defaultEvent);
  }

  /** Each field's parameter names: the configured ones (a name or a list) instead of the defaults. */
  private Map<String, List<String>> params(JsonObject json, String path) {
    r.unknownKeys(json, path, Set.copyOf(PostbackSource.FIELDS));
    Map<String, List<String>> params = new LinkedHashMap<>();
    for (String field : PostbackSource.FIELDS) {
      Object value = json.getValue(field);
      List<String> names = value == null ? PostbackSource.DEFAULT_PARAMS.get(field) : names(value, path + "." + field);
      params.put(field, names);
    }
    return params;
  }

  private List<String> names(Object value, String path) {
    List<Object> items = value instanceof JsonArray array ? array.getList() : List.of(value);
    List<String> names = new ArrayList<>();
    for (Object item : items) {
      if (item instanceof String name && PARAM_NAME.matcher(name).matches()) {
        names.add(name);
      } else {
        r.problem(path + ": must be a parameter name or a non-empty array of them (1 to 64 of A-Z a-z 0-9 _ . - [ ])");
      }
    }
    if (names.isEmpty()) {
      r.problem(path + ": must name at least one parameter");
    }
    return List.copyOf(names);
  }

  /**
   * The partner's macros by our field, for the URL template: text without spaces, such as {subid} or [SUBID], or
   * CAKE's #s2# (a '#' elsewhere would end the URL's query).
   */
  private Map<String, String> macros(JsonObject json, String path) {
    r.unknownKeys(json, path, Set.copyOf(PostbackSource.FIELDS));
    Map<String, String> macros = new LinkedHashMap<>();
    json.forEach(entry -> {
      if (entry.getValue() instanceof String macro && MACRO.matcher(macro).matches()) {
        macros.put(entry.getKey(), macro);
      } else {
        r.problem(path + "." + entry.getKey() + ": must be the partner's macro, such as \"{subid}\" or \"#s2#\" (no "
            + "spaces, & ? =, and # only around a name)");
      }
    });
    return Map.copyOf(macros);
  }

  /** {"dep": "DEP"}: the words in lower case, as postbacks are matched. */
  private Map<String, String> words(JsonObject json, String path) {
    Map<String, String> words = new HashMap<>();
    json.forEach(entry -> {
      String word = entry.getKey().toLowerCase(Locale.ROOT);
      if (!WORD.matcher(word).matches() || !(entry.getValue() instanceof String name)) {
        r.problem(path + "." + entry.getKey() + ": the partner's word (1 to 50 letters, digits, _ . - or spaces) to "
            + "a name");
      } else {
        words.put(word, name);
      }
    });
    return words;
  }

  /** {"approved": ["sale", "1"], "rejected": ["trash"]}: each status with the partner's words for it. */
  private void statuses(JsonObject json, String path, Map<String, String> statuses) {
    r.unknownKeys(json, path, Set.copyOf(ConversionStatus.ALL));
    json.forEach(entry -> {
      List<Object> items = entry.getValue() instanceof JsonArray array ? array.getList() : List.of(entry.getValue());
      for (Object item : items) {
        String word = item instanceof String text ? text.toLowerCase(Locale.ROOT)
            : item instanceof Number n ? n.toString() : null;
        if (word == null || !WORD.matcher(word).matches()) {
          r.problem(path + "." + entry.getKey() + ": must be the partner's word for it, or an array of them");
        } else {
          statuses.put(word, entry.getKey());
        }
      }
    });
  }
}
