package dev.eventrouter.config;

import java.util.List;
import java.util.Map;

/**
 * A partner (an affiliate program, a casino's back office) that reports conversions by URL, as affiliate trackers
 * take them (Keitaro, Binom, Voluum: a GET with the partner's own macros filled in). Its token, in the URL's path,
 * allows nothing but recording this source's postbacks; only its SHA-256 digest is kept.
 *
 * @param tokenHash     SHA-256 digest (32 bytes) of the URL token
 * @param clickIdHolds  what the partner's click id carries back: {@link #SESSION_ID} (our session, passed to the
 *                      offer as its subid) or {@link #TELEGRAM_ID}
 * @param params        for each of our fields ({@link #FIELDS}), the partner's parameter names that carry it, first
 *                      match wins
 * @param macros        for each of our fields, the partner's macro, for the URL template (e.g. click_id -> {subid})
 * @param events        the partner's event words (lower case) to our event names
 * @param statuses      the partner's status words (lower case) to our statuses
 * @param defaultEvent  the event of a postback that names none, or null (then one is required)
 */
public record PostbackSource(String id, byte[] tokenHash, String clickIdHolds, Map<String, List<String>> params,
                             Map<String, String> macros, Map<String, String> events, Map<String, String> statuses,
                             String defaultCurrency, String defaultEvent) {

  public static final String SESSION_ID = "session_id";
  public static final String TELEGRAM_ID = "telegram_id";

  public static final String CLICK_ID = "click_id";
  public static final String EVENT = "event";
  public static final String VALUE = "value";
  public static final String CURRENCY = "currency";
  public static final String STATUS = "status";
  public static final String TRANSACTION_ID = "transaction_id";
  /** Our fields, in the order a URL template lists them. */
  public static final List<String> FIELDS = List.of(CLICK_ID, TELEGRAM_ID, EVENT, VALUE, CURRENCY, STATUS,
      TRANSACTION_ID);

  /**
   * The names each field is read from when the source names none: the synonyms affiliate programs use (Qubix accepts
   * the partner's own names the same way, https://docs.qubix.pro/domains/detail).
   */
  public static final Map<String, List<String>> DEFAULT_PARAMS = Map.of(
      CLICK_ID, List.of("subid", "sub_id", "click_id", "clickid", "aff_click_id", "cid", "session_id"),
      TELEGRAM_ID, List.of("telegram_id", "tg_id", "user_id"),
      EVENT, List.of("event", "goal", "action", "type"),
      VALUE, List.of("payout", "revenue", "amount", "sum", "value"),
      CURRENCY, List.of("currency"),
      STATUS, List.of("status"),
      TRANSACTION_ID, List.of("tid", "txid", "trans_id", "transaction_id", "eid", "postback_id"));

  /** The event words partners send for our names; a source's {@code events} adds to them or overrides them. */
  public static final Map<String, String> DEFAULT_EVENTS = Map.of(
      "registration", "REG", "reg", "REG",
      "ftd", "FTD", "first_deposit", "FTD",
      "deposit", "DEP", "redeposit", "DEP");

  /**
   * The status words partners send (Keitaro's lead/sale/rejected, BeMob's and Scaleo's words, AlterCPA's
   * new/hold/approve/cancel/trash); a source's {@code statuses} adds to them or overrides them, like Keitaro's
   * {@code *_status=} lists.
   */
  public static final Map<String, String> DEFAULT_STATUSES = Map.ofEntries(
      Map.entry("pending", "pending"), Map.entry("hold", "pending"), Map.entry("lead", "pending"),
      Map.entry("new", "pending"), Map.entry("wait", "pending"),
      Map.entry("approved", "approved"), Map.entry("approve", "approved"), Map.entry("sale", "approved"),
      Map.entry("confirmed", "approved"), Map.entry("ok", "approved"), Map.entry("paid", "approved"),
      Map.entry("rejected", "rejected"), Map.entry("reject", "rejected"), Map.entry("declined", "rejected"),
      Map.entry("cancel", "rejected"), Map.entry("cancelled", "rejected"), Map.entry("canceled", "rejected"),
      Map.entry("trash", "rejected"),
      Map.entry("chargeback", "chargeback"), Map.entry("refund", "chargeback"), Map.entry("reversed", "chargeback"));

  /** The route a partner fires, the token in its path. */
  public static final String PATH = "/api/v1/postbacks/";

  /**
   * The URL to paste into the partner's postback settings: our route with the token, and for each field the partner
   * fills the first of its parameter names with the partner's macro (configured in {@code macros}; else
   * {@code {<name>}}). Currency and Telegram user only when a macro is configured; event, when the source has no
   * default event.
   *
   * @param base  the service's public address, such as https://tracker.example
   * @param token the URL token, or a placeholder such as {@code <token>} where it goes
   */
  public String urlTemplate(String base, String token) {
    StringBuilder url = new StringBuilder(base).append(PATH).append(token);
    char separator = '?';
    for (String field : FIELDS) {
      boolean optional = field.equals(CURRENCY) || field.equals(TELEGRAM_ID) || (field.equals(EVENT)
          && defaultEvent != null);
      if (optional && !macros.containsKey(field)) {
        continue;
      }
      String name = params.get(field).get(0);
      url.append(separator).append(name).append('=').append(macros.getOrDefault(field, "{" + name + "}"));
      separator = '&';
    }
    return url.toString();
  }

  /** Never print the token digest. */
  @Override
  public String toString() {
    return "PostbackSource[" + id + "]";
  }
}
