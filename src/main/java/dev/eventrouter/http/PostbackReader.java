package dev.eventrouter.http;

import dev.eventrouter.common.CurrencyCode;
import dev.eventrouter.config.ConversionStatus;
import dev.eventrouter.config.PostbackSource;
import dev.eventrouter.config.WorkspaceConfig;
import dev.eventrouter.event.EventMap;
import dev.eventrouter.event.Postback;
import dev.eventrouter.http.ApiException.FieldError;
import io.vertx.core.json.JsonObject;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Reads a partner's postback through its source's parameter names and words: our fields, checked as the events route
 * checks them, or the documented error. A parameter that still holds a macro is refused first, naming it: the most
 * common set-up mistake (Keitaro logs it as {@code SubID not found "{subacc4}"}).
 */
final class PostbackReader {

  /** At most this many parameters are logged; a postback carries a handful. */
  static final int MAX_PARAMS = 50;
  static final int MAX_VALUE_CHARS = 500;
  /**
   * An unexpanded macro in the forms partners' systems use: {subid}, {{click_id}}, [SUBID], %subid%, $subid (a
   * dollar amount has a digit after the sign, so it is not one).
   */
  static final Pattern MACRO = Pattern.compile(
      "\\{\\{?\\s*[A-Za-z_][\\w.:-]*\\s*}}?|\\[[A-Za-z_][\\w.-]*]|%[A-Za-z_][\\w.-]*%|\\$[A-Za-z_][\\w.-]*");
  /** Parameter names whose values are credentials or user data: logged masked. */
  private static final Pattern MASKED = Pattern.compile("(?i).*(token|key|secret|sign|pass|auth|hash|mail|phone).*"
      + "|ip|user_ip|client_ip|name|first_name|last_name|fn|ln|em|ph");
  private static final Pattern TRANSACTION_ID = Pattern.compile("[\\x21-\\x7E]{1,200}");

  private PostbackReader() {}

  /** The parameters as logged: at most {@link #MAX_PARAMS}, values cut, credentials and user data masked. */
  static JsonObject logged(Map<String, String> params) {
    JsonObject logged = new JsonObject();
    params.entrySet().stream().limit(MAX_PARAMS).forEach(e -> logged.put(e.getKey(),
        MASKED.matcher(e.getKey()).matches() ? "***" : cut(e.getValue())));
    return logged;
  }

  private static String cut(String value) {
    return value.length() <= MAX_VALUE_CHARS ? value : value.substring(0, MAX_VALUE_CHARS) + "...";
  }

  /**
   * The parameter that still holds a macro, or null. Every parameter is looked at, not only those read: a macro
   * anywhere says the partner's template is wrong.
   */
  static String unexpanded(Map<String, String> params) {
    return params.entrySet().stream().filter(e -> MACRO.matcher(e.getValue()).find()).map(Map.Entry::getKey)
        .findFirst().orElse(null);
  }

  /** The postback, or the documented validation error. */
  static Postback read(Map<String, String> params, WorkspaceConfig workspace, PostbackSource source, String method,
                       Instant receivedAt) {
    List<FieldError> errors = new ArrayList<>();
    Map<String, String> lower = lowerCased(params);
    String clickId = param(lower, source, PostbackSource.CLICK_ID);
    if (clickId == null) {
      errors.add(new FieldError(names(source, PostbackSource.CLICK_ID), "required: the click id the partner got "
          + "(our " + source.clickIdHolds() + ")"));
    } else if (PostbackSource.TELEGRAM_ID.equals(source.clickIdHolds()) ? positive(clickId) == null
        : !Fields.SESSION_ID.matcher(clickId).matches()) {
      errors.add(new FieldError(names(source, PostbackSource.CLICK_ID),
          PostbackSource.TELEGRAM_ID.equals(source.clickIdHolds()) ? "must be a Telegram user id (a positive whole "
              + "number)" : "must be a session id (1 to 64 of A-Z a-z 0-9 _ -)"));
    }
    String user = param(lower, source, PostbackSource.TELEGRAM_ID);
    Long telegramId = user == null ? null : positive(user);
    if (user != null && telegramId == null) {
      errors.add(new FieldError(names(source, PostbackSource.TELEGRAM_ID), "must be a positive whole number"));
    }
    String eventName = eventName(param(lower, source, PostbackSource.EVENT), source, errors);
    String status = status(param(lower, source, PostbackSource.STATUS), source, errors);
    BigDecimal value = value(param(lower, source, PostbackSource.VALUE), source, eventName, workspace, errors);
    String currency = currency(param(lower, source, PostbackSource.CURRENCY), source, workspace, errors);
    String transactionId = param(lower, source, PostbackSource.TRANSACTION_ID);
    if (transactionId != null && !TRANSACTION_ID.matcher(transactionId).matches()) {
      errors.add(new FieldError(names(source, PostbackSource.TRANSACTION_ID),
          "must be 1 to 200 visible ASCII characters"));
    }
    if (!errors.isEmpty()) {
      throw ApiException.validation(errors);
    }
    return new Postback(workspace.id(), source.id(), method, logged(params), clickId, source.clickIdHolds(),
        telegramId, eventName, status, value, currency, transactionId, receivedAt, null, null);
  }

  private static Map<String, String> lowerCased(Map<String, String> params) {
    Map<String, String> lower = new HashMap<>();
    params.forEach((name, value) -> lower.putIfAbsent(name.toLowerCase(Locale.ROOT), value));
    return lower;
  }

  /** The first of the field's names that the postback carries with a value. */
  private static String param(Map<String, String> lower, PostbackSource source, String field) {
    for (String name : source.params().get(field)) {
      String value = lower.get(name.toLowerCase(Locale.ROOT));
      if (value != null && !value.isBlank()) {
        return value.trim();
      }
    }
    return null;
  }

  /** How an error names a field: the partner's first name for it (what its template has). */
  private static String names(PostbackSource source, String field) {
    return source.params().get(field).get(0);
  }

  private static String eventName(String word, PostbackSource source, List<FieldError> errors) {
    if (word == null) {
      if (source.defaultEvent() == null) {
        errors.add(new FieldError(names(source, PostbackSource.EVENT), "required (or set the source's default_event)"));
      }
      return source.defaultEvent();
    }
    String mapped = source.events().get(word.toLowerCase(Locale.ROOT));
    if (mapped != null) {
      return mapped;
    }
    if (EventValidator.EVENT_NAME.matcher(word).matches()) {
      return word; // passed through as a custom event, as the JSON route takes any such name
    }
    errors.add(new FieldError(names(source, PostbackSource.EVENT), "must be one of the source's event words, or an "
        + "event name of 1 to 50 letters, digits, '_', '-' and inner spaces"));
    return null;
  }

  private static String status(String word, PostbackSource source, List<FieldError> errors) {
    if (word == null) {
      return ConversionStatus.APPROVED;
    }
    String status = source.statuses().get(word.toLowerCase(Locale.ROOT));
    if (status == null) {
      errors.add(new FieldError(names(source, PostbackSource.STATUS), "unknown status word; map it to one of "
          + String.join(", ", ConversionStatus.ALL) + " in the source's statuses"));
    }
    return status;
  }

  private static BigDecimal value(String text, PostbackSource source, String eventName, WorkspaceConfig workspace,
                                  List<FieldError> errors) {
    String field = names(source, PostbackSource.VALUE);
    if (text == null) {
      if (eventName != null && EventMap.requiresValue(workspace, eventName)) {
        errors.add(new FieldError(field, "required for " + eventName + " events"));
      }
      return null;
    }
    BigDecimal value;
    try {
      value = new BigDecimal(text);
    } catch (NumberFormatException notANumber) {
      value = null;
    }
    String problem = EventValidator.amountProblem(value);
    if (problem != null) {
      errors.add(new FieldError(field, problem));
      return null;
    }
    return value;
  }

  private static String currency(String text, PostbackSource source, WorkspaceConfig workspace,
                                  List<FieldError> errors) {
    if (text == null) {
      return source.defaultCurrency();
    }
    String code = CurrencyCode.iso(workspace.report().unaliased(text));
    if (code == null) {
      errors.add(new FieldError(names(source, PostbackSource.CURRENCY), EventValidator.CURRENCY_RULE));
    }
    return code;
  }

  private static Long positive(String text) {
    if (!text.matches("[0-9]{1,19}")) {
      return null;
    }
    try {
      long n = Long.parseLong(text);
      return n > 0 ? n : null;
    } catch (NumberFormatException tooLarge) {
      return null;
    }
  }
}
