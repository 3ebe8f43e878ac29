package dev.eventrouter.api.postbacks;

import dev.eventrouter.api.events.EventValidator;
import dev.eventrouter.common.CurrencyCode;
import dev.eventrouter.config.ConversionStatus;
import dev.eventrouter.config.PostbackSource;
import dev.eventrouter.config.WorkspaceConfig;
import dev.eventrouter.event.EventMap;
import dev.eventrouter.event.Postback;
import dev.eventrouter.http.ApiException.FieldError;
import dev.eventrouter.http.ApiException;
import dev.eventrouter.http.Fields;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Reads a partner's postback through its source's parameter names and words: our fields, checked as the events route
 * checks them, or the documented error. A parameter that still holds a macro is refused first, naming it: the most
 * common set-up mistake (Keitaro logs it as {@code SubID not found "{subacc4}"}).
 */
final class PostbackReader {

  /**
   * An unexpanded macro anywhere in any parameter, in the forms partners' systems use: {subid}, {{click_id}},
   * [SUBID], %subid%, $subid (a dollar amount has a digit after the sign, so it is not one).
   */
  static final Pattern MACRO = Pattern.compile(
      "\\{\\{?\\s*[A-Za-z_][\\w.:-]*\\s*}}?|\\[[A-Za-z_][\\w.-]*]|%[A-Za-z_][\\w.-]*%|\\$[A-Za-z_][\\w.-]*");
  /**
   * A value the source reads that is nothing but a macro in a form that also occurs in real values, so it is only
   * looked for there and whole: CAKE's #s2#, Rewarded Media's __SUBID__, MoarTraffic's <TRACKER>.
   */
  static final Pattern WHOLE_MACRO = Pattern.compile(
      "#[A-Za-z_][\\w.-]*#|__[A-Za-z0-9]+(?:_[A-Za-z0-9]+)*__|<[A-Za-z_][\\w.-]*>");
  private static final Pattern TRANSACTION_ID = Pattern.compile("[\\x21-\\x7E]{1,200}");

  private PostbackReader() {}

  /** The names the source reads, in lower case. */
  static Set<String> readNames(PostbackSource source) {
    Set<String> names = new HashSet<>();
    source.params().values().forEach(list -> list.forEach(name -> names.add(PostbackParams.lower(name))));
    return names;
  }

  /**
   * The parameter that still holds a macro, or null. Every parameter is looked at for the unambiguous forms, not
   * only those read: a macro anywhere says the partner's template is wrong.
   */
  static String unexpanded(PostbackParams params, Set<String> readNames) {
    return params.all().stream().filter(p -> MACRO.matcher(p.value()).find()
            || readNames.contains(PostbackParams.lower(p.name())) && WHOLE_MACRO.matcher(p.value().trim()).matches())
        .map(PostbackParams.Param::name).findFirst().orElse(null);
  }

  /** The postback, or the documented validation error. */
  static Postback read(PostbackParams params, WorkspaceConfig workspace, PostbackSource source, String method,
                       Instant receivedAt) {
    List<FieldError> errors = params.ambiguities(readNames(source));
    if (!errors.isEmpty()) {
      throw ApiException.validation(errors); // which value was meant is unknown: none is read
    }
    String clickId = param(params, source, PostbackSource.CLICK_ID);
    if (clickId == null) {
      errors.add(new FieldError(names(source, PostbackSource.CLICK_ID), "required: the click id the partner got "
          + "(our " + source.clickIdHolds() + ")"));
    } else if (PostbackSource.TELEGRAM_ID.equals(source.clickIdHolds()) ? positive(clickId) == null
        : !Fields.SESSION_ID.matcher(clickId).matches()) {
      errors.add(new FieldError(names(source, PostbackSource.CLICK_ID),
          PostbackSource.TELEGRAM_ID.equals(source.clickIdHolds()) ? "must be a Telegram user id (a positive whole "
              + "number)" : "must be a session id (1 to 64 of A-Z a-z 0-9 _ -)"));
    }
    String user = param(params, source, PostbackSource.TELEGRAM_ID);
    Long telegramId = user == null ? null : positive(user);
    if (user != null && telegramId == null) {
      errors.add(new FieldError(names(source, PostbackSource.TELEGRAM_ID), "must be a positive whole number"));
    }
    String eventName = eventName(param(params, source, PostbackSource.EVENT), source, errors);
    String status = status(param(params, source, PostbackSource.STATUS), source, errors);
    BigDecimal value = value(param(params, source, PostbackSource.VALUE), source, eventName, workspace, errors);
    String currency = currency(params, source, workspace, value != null, errors);
    String transactionId = param(params, source, PostbackSource.TRANSACTION_ID);
    if (transactionId != null && !TRANSACTION_ID.matcher(transactionId).matches()) {
      errors.add(new FieldError(names(source, PostbackSource.TRANSACTION_ID),
          "must be 1 to 200 visible ASCII characters"));
    }
    if (!errors.isEmpty()) {
      throw ApiException.validation(errors);
    }
    return new Postback(workspace.id(), source.id(), method, params.logged(), clickId, source.clickIdHolds(),
        telegramId, eventName, status, value, currency, transactionId, receivedAt, null, null, params.repairs());
  }

  /** The first of the field's names that the postback carries with a value. */
  private static String param(PostbackParams params, PostbackSource source, String field) {
    return params.first(source.params().get(field));
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

  /**
   * The currency named, else the source's default; but an amount is never stored under the default when the
   * postback names a currency that is empty (a partner's macro that filled in nothing).
   */
  private static String currency(PostbackParams params, PostbackSource source, WorkspaceConfig workspace,
                                 boolean amount, List<FieldError> errors) {
    String text = param(params, source, PostbackSource.CURRENCY);
    if (text == null) {
      String named = params.sent(source.params().get(PostbackSource.CURRENCY));
      if (named != null && amount) {
        errors.add(new FieldError(PostbackParams.shown(named), "is empty: the currency of the amount is unknown; "
            + "send its ISO 4217 code, or leave the parameter out for the source's default (" 
            + source.defaultCurrency() + ")"));
        return null;
      }
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
