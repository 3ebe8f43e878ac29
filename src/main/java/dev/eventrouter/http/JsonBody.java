package dev.eventrouter.http;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import dev.eventrouter.http.ApiException.FieldError;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.core.json.jackson.JacksonCodec;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads a request body as one JSON object, refusing what is ambiguous or what PostgreSQL cannot store: bytes that are
 * not UTF-8 (overlong forms and encoded surrogates included), a key given twice, and text holding U+0000 or a lone
 * surrogate (whether raw or written as a {@code \\u} escape). A body that passes is stored exactly as it was meant.
 */
public final class JsonBody {

  private static final Pattern DUPLICATE = Pattern.compile("^Duplicate field '(.*)'", Pattern.DOTALL);

  private JsonBody() {}

  public static JsonObject parse(Buffer body) {
    JsonObject object = parseAnyText(body);
    List<FieldError> errors = new ArrayList<>();
    checkText(object, "", errors);
    if (!errors.isEmpty()) {
      throw ApiException.validation(errors);
    }
    return object;
  }

  /**
   * The same, but text may hold what PostgreSQL cannot store (U+0000, a lone surrogate, as {@code \\u} escapes): for
   * a body that is passed on as it came rather than stored field by field (a Telegram update), whose reader must
   * check each field it keeps with {@link #storable}.
   */
  public static JsonObject parseAnyText(Buffer body) {
    if (body == null || body.length() == 0) {
      throw invalid("The request body is empty; it must be a JSON object.");
    }
    requireUtf8(body);
    Object value;
    try {
      JsonParser parser = JacksonCodec.createParser(body);
      parser.enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION);
      value = JacksonCodec.fromParser(parser, Object.class);
    } catch (DecodeException e) {
      throw invalid(describe(e));
    }
    if (!(value instanceof JsonObject object)) {
      throw invalid("The request body must be a JSON object.");
    }
    return object;
  }

  /** Java's decoder is strict where Jackson is lenient: it refuses overlong forms such as C0 80 and CESU surrogates. */
  private static void requireUtf8(Buffer body) {
    try {
      StandardCharsets.UTF_8.newDecoder()
          .onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT)
          .decode(ByteBuffer.wrap(body.getBytes()));
    } catch (CharacterCodingException e) {
      throw invalid("The request body is not valid UTF-8.");
    }
  }

  /** Names a repeated key, or where the syntax broke; never echoes more of the body than that. */
  public static String describe(DecodeException e) {
    Matcher duplicate = DUPLICATE.matcher(String.valueOf(e.getMessage()));
    if (duplicate.find()) {
      return "The request body has the key \"" + duplicate.group(1) + "\" more than once.";
    }
    if (e.getCause() instanceof JsonProcessingException parse && parse.getLocation() != null) {
      JsonLocation at = parse.getLocation();
      return "The request body is not valid JSON (line " + at.getLineNr() + ", column " + at.getColumnNr() + ").";
    }
    return "The request body is not valid JSON.";
  }

  private static void checkText(Object value, String path, List<FieldError> errors) {
    if (value instanceof JsonObject object) {
      object.forEach(entry -> {
        String key = entry.getKey();
        String keyPath = path.isEmpty() ? printable(key) : path + "." + printable(key);
        if (!storable(key)) {
          errors.add(new FieldError(keyPath, "key must not contain U+0000 or an unpaired surrogate"));
        }
        checkText(entry.getValue(), keyPath, errors);
      });
    } else if (value instanceof JsonArray array) {
      for (int i = 0; i < array.size(); i++) {
        checkText(array.getValue(i), path + "[" + i + "]", errors);
      }
    } else if (value instanceof String text && !storable(text)) {
      errors.add(new FieldError(path, "must not contain U+0000 or an unpaired surrogate"));
    }
  }

  /** PostgreSQL text and jsonb take every Unicode scalar value but U+0000. */
  public static boolean storable(String text) {
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c == 0) {
        return false;
      }
      if (Character.isHighSurrogate(c)) {
        if (i + 1 >= text.length() || !Character.isLowSurrogate(text.charAt(i + 1))) {
          return false;
        }
        i++;
      } else if (Character.isLowSurrogate(c)) {
        return false;
      }
    }
    return true;
  }

  /** A key as it can be shown in an error: offending characters as {@code \\uXXXX}. */
  private static String printable(String key) {
    if (storable(key)) { // nearly every key: no copy on the hot path
      return key;
    }
    StringBuilder out = new StringBuilder();
    key.chars().forEach(c -> {
      if (c == 0 || Character.isSurrogate((char) c)) {
        out.append(String.format("\\u%04x", c));
      } else {
        out.append((char) c);
      }
    });
    return out.toString();
  }

  private static ApiException invalid(String message) {
    return new ApiException(ErrorCode.INVALID_JSON, message, null, null);
  }
}
