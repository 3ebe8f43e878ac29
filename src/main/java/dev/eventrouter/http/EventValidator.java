package dev.eventrouter.http;

import dev.eventrouter.event.ConversionEvent;
import dev.eventrouter.event.EventNames;
import dev.eventrouter.http.ApiException.FieldError;
import io.vertx.core.json.JsonObject;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Currency;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.UUID;
import java.util.regex.Pattern;

/**
 * The field rules of {@code POST /api/v1/events/custom}. Every bad field gets its own details entry, so a client
 * fixes them all in one go. {@code null} counts as absent for optional fields.
 */
final class EventValidator {

  static final int MAX_USER_DATA_KEYS = 50;
  static final int MAX_USER_DATA_BYTES = 4096;
  static final String DEFAULT_CURRENCY = "USD";

  private static final Set<String> FIELDS =
      Set.of("event_name", "telegram_id", "workspace_id", "session_id", "value", "currency", "user_data");
  // ASCII letters, digits, _ - and inner spaces: names both ad networks take as custom events.
  private static final Pattern EVENT_NAME = Pattern.compile("[A-Za-z0-9_-](?:[A-Za-z0-9_ -]{0,48}[A-Za-z0-9_-])?");
  // The alphabet Telegram allows in a /start payload.
  private static final Pattern SESSION_ID = Pattern.compile("[A-Za-z0-9_-]{1,64}");
  private static final Pattern UUID_TEXT =
      Pattern.compile("[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}");
  private static final Pattern CURRENCY = Pattern.compile("[A-Za-z]{3}");

  private EventValidator() {}

  /** The workspace the body names, when it names one well-formed; used to answer 403 before anything else. */
  static UUID namedWorkspace(JsonObject body) {
    return body.getValue("workspace_id") instanceof String text && UUID_TEXT.matcher(text).matches()
        ? UUID.fromString(text) : null;
  }

  static ConversionEvent validate(JsonObject body) {
    List<FieldError> errors = new ArrayList<>();
    for (String field : body.fieldNames()) {
      if (!FIELDS.contains(field)) {
        errors.add(new FieldError(field, "unknown field"));
      }
    }
    String eventName = eventName(body.getValue("event_name"), errors);
    long telegramId = telegramId(body.getValue("telegram_id"), errors);
    UUID workspaceId = namedWorkspace(body);
    if (workspaceId == null) {
      errors.add(new FieldError("workspace_id", body.getValue("workspace_id") == null ? "required" : "must be a UUID string"));
    }
    String sessionId = sessionId(body.getValue("session_id"), errors);
    BigDecimal value = value(body.getValue("value"), eventName, errors);
    String currency = currency(body.getValue("currency"), errors);
    JsonObject userData = userData(body.getValue("user_data"), errors);
    if (!errors.isEmpty()) {
      throw ApiException.validation(errors);
    }
    return new ConversionEvent(workspaceId, eventName, telegramId, sessionId, value, currency, userData);
  }

  private static String eventName(Object value, List<FieldError> errors) {
    if (value instanceof String text && EVENT_NAME.matcher(text).matches()) {
      return text;
    }
    errors.add(new FieldError("event_name", value == null ? "required"
        : "must be 1 to 50 characters of letters, digits, '_', '-' and inner spaces"));
    return null;
  }

  private static long telegramId(Object value, List<FieldError> errors) {
    if ((value instanceof Integer || value instanceof Long) && ((Number) value).longValue() > 0) {
      return ((Number) value).longValue();
    }
    errors.add(new FieldError("telegram_id", value == null ? "required"
        : "must be a JSON integer from 1 to 9223372036854775807"));
    return 0;
  }

  private static String sessionId(Object value, List<FieldError> errors) {
    if (value == null) {
      return null;
    }
    if (value instanceof String text && SESSION_ID.matcher(text).matches()) {
      return text;
    }
    errors.add(new FieldError("session_id", "must be 1 to 64 characters of A-Z a-z 0-9 _ -"));
    return null;
  }

  private static BigDecimal value(Object value, String eventName, List<FieldError> errors) {
    if (value == null) {
      if (eventName != null && EventNames.requiresValue(eventName)) {
        errors.add(new FieldError("value", "required for " + eventName + " events"));
      }
      return null;
    }
    BigDecimal amount = toDecimal(value);
    if (amount == null || amount.signum() < 0) {
      errors.add(new FieldError("value", "must be a finite number greater than or equal to 0"));
      return null;
    }
    return amount;
  }

  private static BigDecimal toDecimal(Object value) {
    if (value instanceof Integer || value instanceof Long) {
      return BigDecimal.valueOf(((Number) value).longValue());
    }
    if (value instanceof BigInteger big) {
      return new BigDecimal(big);
    }
    if (value instanceof BigDecimal decimal) {
      return decimal;
    }
    if (value instanceof Double || value instanceof Float) {
      double d = ((Number) value).doubleValue();
      return Double.isFinite(d) ? BigDecimal.valueOf(d) : null;
    }
    return null;
  }

  private static String currency(Object value, List<FieldError> errors) {
    if (value == null) {
      return DEFAULT_CURRENCY;
    }
    if (value instanceof String text && CURRENCY.matcher(text).matches()) {
      String code = text.toUpperCase(Locale.ROOT);
      try {
        return Currency.getInstance(code).getCurrencyCode();
      } catch (IllegalArgumentException unknown) {
        // fall through to the error below
      }
    }
    errors.add(new FieldError("currency", "must be a 3-letter ISO 4217 currency code such as USD"));
    return null;
  }

  private static JsonObject userData(Object value, List<FieldError> errors) {
    if (value == null) {
      return null;
    }
    if (!(value instanceof JsonObject object)) {
      errors.add(new FieldError("user_data", "must be a JSON object"));
      return null;
    }
    int before = errors.size();
    if (object.size() > MAX_USER_DATA_KEYS) {
      errors.add(new FieldError("user_data", "must have at most " + MAX_USER_DATA_KEYS + " keys"));
    }
    for (String key : object.fieldNames()) {
      Object item = object.getValue(key);
      if (key.isEmpty()) {
        errors.add(new FieldError("user_data", "keys must not be empty"));
      } else if (!(item instanceof String || item instanceof Number || item instanceof Boolean)) {
        errors.add(new FieldError("user_data." + key, "must be a string, number or boolean"));
      }
    }
    if (errors.size() == before && object.encode().getBytes(StandardCharsets.UTF_8).length > MAX_USER_DATA_BYTES) {
      errors.add(new FieldError("user_data", "must be at most " + MAX_USER_DATA_BYTES + " bytes as JSON"));
    }
    return object;
  }
}
