package dev.eventrouter.cost;

/** Why a platform did not give a page, as its answer says; the message in its words, never with the token. */
final class SpendFailure extends RuntimeException {

  enum Kind {
    /** The token is invalid, expired or lacks the permission: the source pauses until it is replaced. */
    TOKEN_REFUSED,
    /** Rate limited: the poll ends, and the next waits {@link #waitMs()}. */
    RATE_LIMITED,
    /** "Reduce the amount of data": asked again for fewer days or a smaller page. */
    TOO_MUCH_DATA,
    /** A 200 whose JSON is cut off: the page is asked again. */
    TRUNCATED,
    /** Anything else: the poll fails and is tried again later. */
    FAILED
  }

  /** The longest a platform's words are kept. */
  static final int MAX_MESSAGE = 300;

  private final Kind kind;
  private final long waitMs;

  SpendFailure(Kind kind, String message, long waitMs) {
    super(message, null, false, false);
    this.kind = kind;
    this.waitMs = waitMs;
  }

  SpendFailure(Kind kind, String message) {
    this(kind, message, 0);
  }

  Kind kind() {
    return kind;
  }

  /** How long the platform asked to be left alone (rate limits), 0 when it did not say. */
  long waitMs() {
    return waitMs;
  }

  /** Text from a platform made fit to keep and show: one line, bounded, without the token. */
  static String words(String text, String token) {
    if (text == null) {
      return "";
    }
    String clean = text.replaceAll("[\\p{Cntrl}]+", " ").strip();
    if (token != null && !token.isEmpty()) {
      clean = clean.replace(token, "***");
    }
    return clean.length() <= MAX_MESSAGE ? clean : clean.substring(0, MAX_MESSAGE) + "...";
  }
}
