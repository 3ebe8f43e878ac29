package dev.eventrouter.api.events;

import dev.eventrouter.common.CurrencyCode;
import dev.eventrouter.config.ConversionStatus;
import dev.eventrouter.config.WorkspaceConfig;
import dev.eventrouter.event.ConversionEvent;
import dev.eventrouter.event.EventMap;
import dev.eventrouter.http.Fields;
import io.vertx.core.json.JsonObject;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.Set;
import java.util.UUID;
import java.util.regex.Pattern;

/** The field rules of {@code POST /api/v1/events/custom}. */
public final class EventValidator {

  static final int MAX_USER_DATA_KEYS = 50;
  static final int MAX_USER_DATA_BYTES = 4096;
  static final String DEFAULT_CURRENCY = "USD";
  /**
   * The largest value an event may carry, in its currency: no single conversion is worth more, and a bound keeps an
   * absurd number (1e300, a typo's extra digits) out of the stored events and of the networks' value reports.
   */
  static final BigDecimal MAX_VALUE = new BigDecimal("1000000000");
  public static final String CURRENCY_RULE = "must be a 3-letter ISO 4217 currency code such as USD, or a unit the"
      + " workspace's currency_aliases map to one";

  private static final Set<String> FIELDS =
      Set.of("event_name", "telegram_id", "workspace_id", "session_id", "value", "currency", "user_data",
          "limited_data_use", "conversion_status", "transaction_id");
  private static final Pattern TRANSACTION_ID = Pattern.compile("[\\x21-\\x7E]{1,200}");
  // ASCII letters, digits, _ - and inner spaces: names both ad networks take as custom events.
  public static final Pattern EVENT_NAME = Pattern.compile("[A-Za-z0-9_-](?:[A-Za-z0-9_ -]{0,48}[A-Za-z0-9_-])?");

  private EventValidator() {}

  /** @param workspace the key's workspace, whose event_map may make more names monetary */
  public static ConversionEvent validate(JsonObject body, WorkspaceConfig workspace) {
    Fields fields = new Fields(body, FIELDS);
    String eventName = eventName(fields);
    long telegramId = fields.telegramId();
    UUID workspaceId = fields.workspaceId();
    String sessionId = fields.sessionId(false);
    BigDecimal value = value(fields, eventName, workspace);
    String currency = currency(fields, workspace);
    JsonObject userData = userData(fields);
    Boolean limitedDataUse = fields.optionalBoolean("limited_data_use");
    String status = conversionStatus(fields);
    String transactionId = transactionId(fields);
    fields.throwIfInvalid();
    return new ConversionEvent(workspaceId, eventName, telegramId, sessionId, value, currency, userData,
        limitedDataUse, status, transactionId);
  }

  /** One of the four statuses, or null (approved). */
  private static String conversionStatus(Fields fields) {
    Object value = fields.raw("conversion_status");
    if (value == null || value instanceof String text && ConversionStatus.ALL.contains(text)) {
      return (String) value;
    }
    fields.error("conversion_status", "must be one of " + String.join(", ", ConversionStatus.ALL));
    return null;
  }

  /** The sender's id of the conversion: a later event with the same one updates it. */
  private static String transactionId(Fields fields) {
    Object value = fields.raw("transaction_id");
    if (value == null || value instanceof String text && TRANSACTION_ID.matcher(text).matches()) {
      return (String) value;
    }
    fields.error("transaction_id", "must be 1 to 200 visible ASCII characters");
    return null;
  }

  private static String eventName(Fields fields) {
    Object value = fields.raw("event_name");
    if (value instanceof String text && EVENT_NAME.matcher(text).matches()) {
      return text;
    }
    fields.error("event_name", value == null ? "required"
        : "must be 1 to 50 characters of letters, digits, '_', '-' and inner spaces");
    return null;
  }

  private static BigDecimal value(Fields fields, String eventName, WorkspaceConfig workspace) {
    Object value = fields.raw("value");
    if (value == null) {
      if (eventName != null && EventMap.requiresValue(workspace, eventName)) {
        fields.error("value", "required for " + eventName + " events");
      }
      return null;
    }
    BigDecimal amount = toDecimal(value);
    String problem = amountProblem(amount);
    if (problem != null) {
      fields.error("value", problem);
      return null;
    }
    return amount;
  }

  /**
   * What is wrong with a value, as the events route and postbacks say it, or null when nothing is.
   *
   * @param amount the value read, or null when it was no finite number
   */
  public static String amountProblem(BigDecimal amount) {
    if (amount == null || amount.signum() < 0) {
      return "must be a finite number greater than or equal to 0";
    }
    if (amount.compareTo(MAX_VALUE) > 0) {
      return "must be at most 1000000000 (1e9) in the event's currency";
    }
    return null;
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

  /** An ISO code, or a unit the workspace maps to one (USDT). */
  private static String currency(Fields fields, WorkspaceConfig workspace) {
    Object value = fields.raw("currency");
    if (value == null) {
      return DEFAULT_CURRENCY;
    }
    String code = value instanceof String text ? CurrencyCode.iso(workspace.report().unaliased(text)) : null;
    if (code == null) {
      fields.error("currency", CURRENCY_RULE);
    }
    return code;
  }

  private static JsonObject userData(Fields fields) {
    Object value = fields.raw("user_data");
    if (value == null) {
      return null;
    }
    if (!(value instanceof JsonObject object)) {
      fields.error("user_data", "must be a JSON object");
      return null;
    }
    boolean valid = true;
    if (object.size() > MAX_USER_DATA_KEYS) {
      fields.error("user_data", "must have at most " + MAX_USER_DATA_KEYS + " keys");
      valid = false;
    }
    for (String key : object.fieldNames()) {
      Object item = object.getValue(key);
      if (key.isEmpty()) {
        fields.error("user_data", "keys must not be empty");
        valid = false;
      } else if (!(item instanceof String || item instanceof Number || item instanceof Boolean)) {
        fields.error("user_data." + key, "must be a string, number or boolean");
        valid = false;
      }
    }
    if (valid && object.encode().getBytes(StandardCharsets.UTF_8).length > MAX_USER_DATA_BYTES) {
      fields.error("user_data", "must be at most " + MAX_USER_DATA_BYTES + " bytes as JSON");
    }
    return object;
  }
}
