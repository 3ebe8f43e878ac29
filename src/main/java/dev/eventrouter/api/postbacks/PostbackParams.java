package dev.eventrouter.api.postbacks;

import dev.eventrouter.http.ApiException.FieldError;
import dev.eventrouter.http.JsonBody;
import io.vertx.core.json.JsonObject;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.UnaryOperator;
import java.util.regex.Pattern;

/**
 * A postback's parameters as a partner's system sent them, grouped by name without regard to case, and what was
 * repaired on the way ({@link PostbackRepairs}). What the source reads must be unambiguous: a value holding U+0000
 * (or an unpaired surrogate, from a JSON body), a value over {@link #MAX_VALUE_CHARS}, or a name repeated with
 * different values is refused, naming it. What it does not read is only logged: cleaned, cut, secrets masked.
 */
final class PostbackParams {

  /** One {@code name=value} as sent, in order. */
  record Param(String name, String value) {}

  /** Pairs past this many are not read (a form body may hold thousands; a postback carries a handful). */
  static final int MAX_PAIRS = 1000;
  /** At most this many parameters are logged. */
  static final int MAX_LOGGED = 50;
  static final int MAX_VALUE_CHARS = 500;
  static final int MAX_NAME_CHARS = 64;
  /**
   * Names whose values are credentials, signatures or user data: logged masked. Any name holding one of the words,
   * or {@code sig} standing alone between other characters than letters ({@code sig}, {@code postback_sig}).
   */
  private static final Pattern MASKED = Pattern.compile(
      "(?i).*(token|key|secret|sign|pass|pwd|auth|hash|hmac|mail|phone).*|(.*[^a-z])?sig([^a-z].*)?"
          + "|ip|user_ip|client_ip|name|first_name|last_name|fn|ln|em|ph");
  /** How a name the partner sent is quoted back (errors, the log's details, alerts): what a parameter name is. */
  private static final Pattern SHOWN_CHAR = Pattern.compile("[^A-Za-z0-9_.\\[\\]-]");

  private final List<Param> params;
  private final Map<String, List<String>> byName = new LinkedHashMap<>();
  private final List<String> repairs;

  /** @param repairs what was repaired, in our words, or empty */
  PostbackParams(List<Param> params, List<String> repairs) {
    this.params = List.copyOf(params);
    this.repairs = List.copyOf(repairs);
    params.forEach(p -> byName.computeIfAbsent(lower(p.name()), n -> new ArrayList<>()).add(p.value()));
  }

  List<Param> all() {
    return params;
  }

  List<String> repairs() {
    return repairs;
  }

  /** The first value, trimmed, under the first of these names that carries one that is not blank; or null. */
  String first(List<String> names) {
    for (String name : names) {
      for (String value : byName.getOrDefault(lower(name), List.of())) {
        if (!value.isBlank()) {
          return value.trim();
        }
      }
    }
    return null;
  }

  /** The first of these names that the request carries at all (blank or not), as the partner spelt it; or null. */
  String sent(List<String> names) {
    for (String name : names) {
      for (Param p : params) {
        if (lower(p.name()).equals(lower(name))) {
          return p.name();
        }
      }
    }
    return null;
  }

  /** Each name the source reads whose values cannot be read as one value, with why. */
  List<FieldError> ambiguities(Set<String> readNames) {
    List<FieldError> errors = new ArrayList<>();
    byName.forEach((name, values) -> {
      if (!readNames.contains(name)) {
        return;
      }
      String problem = problem(values);
      if (problem != null) {
        errors.add(new FieldError(shown(sent(List.of(name))), problem));
      }
    });
    return errors;
  }

  private static String problem(List<String> values) {
    if (values.stream().anyMatch(v -> !JsonBody.storable(v))) {
      return "must not contain a NUL byte (%00) or an unpaired surrogate";
    }
    if (values.stream().anyMatch(v -> v.length() > MAX_VALUE_CHARS)) {
      return "must be at most " + MAX_VALUE_CHARS + " characters";
    }
    long different = values.stream().filter(v -> !v.isBlank()).map(String::trim).distinct().count();
    return different > 1 ? "sent " + values.size() + " times with different values; the partner must send it once"
        : null;
  }

  /**
   * The parameters as logged: the first {@link #MAX_LOGGED} names in the order sent, each with its first value,
   * cleaned of what PostgreSQL cannot store, cut, credentials and user data masked.
   */
  JsonObject logged() {
    JsonObject logged = new JsonObject();
    for (Param p : params) {
      String name = cut(storable(p.name()), MAX_NAME_CHARS);
      if (logged.size() < MAX_LOGGED && !logged.containsKey(name)) {
        logged.put(name, MASKED.matcher(name).matches() ? "***" : cut(storable(p.value()), MAX_VALUE_CHARS));
      }
    }
    return logged;
  }

  /** A partner's parameter name as we quote it: letters, digits and {@code _ . - [ ]} (others as '?'), cut. */
  static String shown(String name) {
    String safe = SHOWN_CHAR.matcher(name).replaceAll("?");
    return safe.length() <= MAX_NAME_CHARS ? safe : safe.substring(0, MAX_NAME_CHARS) + "...";
  }

  static String lower(String name) {
    return name.toLowerCase(Locale.ROOT);
  }

  private static String cut(String value, int max) {
    return value.length() <= max ? value : value.substring(0, max) + "...";
  }

  /** The text without U+0000, its unpaired surrogates as U+FFFD: what PostgreSQL stores. */
  static String storable(String text) {
    StringBuilder clean = new StringBuilder(text.length());
    text.codePoints().filter(c -> c != 0)
        .forEach(c -> clean.appendCodePoint(Character.isSurrogate((char) c) ? 0xFFFD : c));
    return clean.toString();
  }

  /**
   * The {@code name=value} pairs of a query string or a form body (its bytes as ISO-8859-1 characters, as the
   * request line arrives), at most {@link #MAX_PAIRS}. Decoded as browsers and PHP's {@code urldecode} do, never
   * refusing: a {@code %} not followed by two hex digits stays as written (a partner's {@code %subid%} macro), a
   * {@code +} is a space, and bytes that are not UTF-8 become U+FFFD. A pair without a name is skipped.
   */
  static List<Param> decode(String raw) {
    return pairs(raw, PostbackParams::component);
  }

  /** The {@code name=value} pairs of {@code text}, each part read by {@code read}, at most {@link #MAX_PAIRS}. */
  static List<Param> pairs(String text, UnaryOperator<String> read) {
    List<Param> pairs = new ArrayList<>();
    for (String pair : text.split("&")) {
      if (pairs.size() >= MAX_PAIRS) {
        break;
      }
      String[] nameAndValue = pair.split("=", 2);
      String name = read.apply(nameAndValue[0]);
      if (!name.isEmpty()) {
        pairs.add(new Param(name, nameAndValue.length < 2 ? "" : read.apply(nameAndValue[1])));
      }
    }
    return pairs;
  }

  static String component(String raw) {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    for (int i = 0; i < raw.length(); i++) {
      char c = raw.charAt(i);
      if (c == '%' && i + 2 < raw.length() && HexFormat.isHexDigit(raw.charAt(i + 1))
          && HexFormat.isHexDigit(raw.charAt(i + 2))) {
        bytes.write(HexFormat.fromHexDigits(raw, i + 1, i + 3));
        i += 2;
      } else {
        bytes.write(c == '+' ? ' ' : c); // c is a byte: the caller gives ISO-8859-1 text
      }
    }
    return bytes.toString(StandardCharsets.UTF_8);
  }
}
