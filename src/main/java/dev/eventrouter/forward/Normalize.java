package dev.eventrouter.forward;

import dev.eventrouter.common.Sha256;

import java.text.Normalizer;
import java.time.DateTimeException;
import java.time.LocalDate;
import java.util.Arrays;
import java.util.Locale;
import java.util.Map;
import java.util.function.UnaryOperator;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Normalisation of customer information before it is hashed (or, for TikTok's address, sent plain). Every rule
 * starts the same way: Unicode NFC, so a composed and a decomposed "José" are one value, then trimming of every
 * Unicode space (no-break, ideographic, zero-width), not only ASCII's. Then the field's own rule, from Meta's
 * customer-information parameters
 * (https://developers.facebook.com/docs/marketing-api/conversions-api/parameters/customer-information-parameters),
 * which TikTok's Events API follows for the same fields. Each rule returns null for a value that cannot be made
 * valid: such a value is not sent (and is counted), it never fails the event. Every input is bounded before any
 * pattern runs over it, and no pattern repeats a group, so no value can make a pattern slow or deep.
 */
public final class Normalize {

  /** Spaces of every script at the edges, and the invisible characters that ride along with pasted text. */
  private static final Pattern EDGE_SPACE =
      Pattern.compile("^[\\p{IsWhite_Space}\\u200B\\u2060\\uFEFF]+|[\\p{IsWhite_Space}\\u200B\\u2060\\uFEFF]+$");
  private static final Pattern INNER_SPACE = Pattern.compile("[\\p{IsWhite_Space}\\u200B\\u2060\\uFEFF]+");

  // What each field keeps after lower-casing. Letters and combining marks of every script are kept together: a
  // Devanagari vowel sign or a Thai tone mark is part of the word, and dropping it gives another word.
  private static final Pattern NOT_NAME = Pattern.compile("[^\\p{L}\\p{M}\\p{N} ]+");
  private static final Pattern NOT_LETTER = Pattern.compile("[^\\p{L}\\p{M}]+");
  private static final Pattern NOT_LETTER_OR_DIGIT = Pattern.compile("[^\\p{L}\\p{M}\\p{N}]+");

  /**
   * The longest value of any field: longer is no name, city or address, and no pattern here runs over it (a few
   * thousand characters can make a pattern's work grow with the square of their number).
   */
  static final int MAX_INPUT_CHARS = 1_024;
  /**
   * An e-mail address is at most 254 characters (RFC 5321, section 4.5.3.1, as corrected:
   * https://www.rfc-editor.org/errata/eid1690).
   */
  static final int MAX_EMAIL_CHARS = 254;
  /** The longest phone field taken: 15 digits (E.164) with room for spacing, punctuation and an extension. */
  static final int MAX_PHONE_CHARS = 64;

  // An e-mail address's parts, each a single character class: the domain's labels are split in code, not by a
  // repeated group (Java runs each repetition of a group as one more level of recursion: a long domain overflowed the
  // stack).
  private static final Pattern EMAIL_LOCAL = Pattern.compile("[^\\s@]+");
  private static final Pattern EMAIL_DOMAIN = Pattern.compile("[\\p{L}\\p{M}\\p{N}.-]+");

  private static final Pattern PHONE_EXTENSION =
      Pattern.compile("(?i)[\\s,;]*(?:x|ext\\.?|extension|#)\\s*\\d{1,7}$");
  // A second number in the field: a list separator or " or " between two groups of digits.
  private static final Pattern TWO_PHONES = Pattern.compile("(?i)\\d[\\s().-]*(?:[,;/|]|\\bor\\b)[\\s().-]*\\+?\\d");
  // The trunk prefix written inside an international number: "+44 (0) 7700 900461".
  private static final Pattern TRUNK_ZERO = Pattern.compile("^(\\+[\\s.-]*\\d{1,3})[\\s.-]*\\(0\\)");
  /** E.164: at most 15 digits, country code included; fewer than 7 is no full number anywhere. */
  private static final int PHONE_MIN_DIGITS = 7;
  private static final int PHONE_MAX_DIGITS = 15;

  private static final Pattern US_ZIP = Pattern.compile("([0-9]{5})-?[0-9]{4}");
  private static final Pattern YMD = Pattern.compile("([0-9]{4})[-/.]?([0-9]{2})[-/.]?([0-9]{2})");
  private static final Pattern US_MDY = Pattern.compile("([0-9]{1,2})/([0-9]{1,2})/([0-9]{4})");
  private static final Pattern EU_DMY = Pattern.compile("([0-9]{1,2})\\.([0-9]{1,2})\\.([0-9]{4})");
  private static final Map<String, String> GENDERS =
      Map.of("f", "f", "female", "f", "woman", "f", "w", "f", "m", "m", "male", "m", "man", "m");

  private Normalize() {}

  /**
   * NFC, then every Unicode space and invisible character trimmed from both ends. A value longer than
   * {@link #MAX_INPUT_CHARS} is taken as empty, before any pattern runs: no rule makes anything valid of it.
   */
  public static String text(String value) {
    if (value.length() > MAX_INPUT_CHARS) {
      return "";
    }
    return EDGE_SPACE.matcher(Normalizer.normalize(value, Normalizer.Form.NFC)).replaceAll("");
  }

  /**
   * A value the sender already hashed (64 hex digits, SHA-256) goes as is, in lower case: both networks' hashes are
   * lower-case hex, so an upper-case one would never match. Otherwise the rule's result, hashed.
   */
  public static String hashed(String raw, UnaryOperator<String> rule) {
    String trimmed = text(raw);
    if (Sha256.isHex(trimmed)) {
      return trimmed.toLowerCase(Locale.ROOT);
    }
    String normalized = rule.apply(raw);
    return normalized == null ? null : Sha256.hex(normalized);
  }

  /**
   * Meta em and TikTok email: trimmed and lower-cased. An address has a local part and a domain of at least two
   * labels, the last one at least two characters long, and at most {@link #MAX_EMAIL_CHARS} characters.
   */
  public static String email(String value) {
    String email = lower(text(value));
    int at = email.indexOf('@');
    if (email.length() > MAX_EMAIL_CHARS || at < 1) { // no '@', or nothing before it
      return null;
    }
    String domain = email.substring(at + 1);
    String[] split = domain.split("\\.", -1);
    boolean labels = split.length >= 2 && split[split.length - 1].length() >= 2
        && Arrays.stream(split).noneMatch(String::isEmpty);
    return labels && EMAIL_LOCAL.matcher(email.substring(0, at)).matches() && EMAIL_DOMAIN.matcher(domain).matches()
        ? email : null;
  }

  /**
   * Google's hashedEmail: the address as for Meta, and for gmail.com and googlemail.com without the dots of its local
   * part, as Google normalises it
   * (https://developers.google.com/google-ads/api/docs/conversions/enhanced-conversions/web#normalize_and_hash).
   */
  public static String googleEmail(String value) {
    String email = email(value);
    if (email == null) {
      return null;
    }
    int at = email.indexOf('@');
    String domain = email.substring(at + 1);
    return domain.equals("gmail.com") || domain.equals("googlemail.com")
        ? email.substring(0, at).replace(".", "") + email.substring(at) : email;
  }

  /**
   * Meta ph: digits only, with the country code, no '+' and no leading zeros. An extension is dropped, a trunk
   * "(0)" after the country code is dropped, and a field holding two numbers or more than 15 digits is no number.
   * A number written without its country code cannot be completed here: it is hashed as written.
   */
  public static String metaPhone(String value) {
    String text = text(value);
    if (text.length() > MAX_PHONE_CHARS) {
      return null;
    }
    text = PHONE_EXTENSION.matcher(text).replaceFirst("");
    if (TWO_PHONES.matcher(text).find() || text.indexOf('+') != text.lastIndexOf('+')) {
      return null;
    }
    text = TRUNK_ZERO.matcher(text).replaceFirst("$1");
    StringBuilder digits = new StringBuilder();
    text.codePoints().filter(Character::isDigit).forEach(c -> digits.append(Character.digit(c, 10)));
    String number = digits.toString().replaceFirst("^0+", "");
    return number.length() >= PHONE_MIN_DIGITS && number.length() <= PHONE_MAX_DIGITS ? number : null;
  }

  /** TikTok phone: the same number in E.164, with its '+'. */
  public static String tiktokPhone(String value) {
    String digits = metaPhone(value);
    return digits == null ? null : "+" + digits;
  }

  /** First and last names: lower case, punctuation and symbols removed, letters of every script kept. */
  public static String name(String value) {
    String name = NOT_NAME.matcher(lower(collapseSpaces(text(value)))).replaceAll("");
    return emptyToNull(collapseSpaces(name).trim());
  }

  /** City: lower case, letters only: no punctuation, digits or spaces ("New York" -> "newyork"). */
  public static String city(String value) {
    return emptyToNull(NOT_LETTER.matcher(lower(text(value))).replaceAll(""));
  }

  /** State: a US state's two-letter code ("California" or "CA" -> "ca"); elsewhere lower case, no punctuation or spaces. */
  public static String state(String value) {
    String state = NOT_LETTER_OR_DIGIT.matcher(lower(text(value))).replaceAll("");
    return emptyToNull(Regions.US_STATES.getOrDefault(state, state));
  }

  /** Zip: lower case, no spaces or dashes; a US ZIP+4, with or without its dash, keeps its first five digits. */
  public static String zip(String value) {
    String zip = INNER_SPACE.matcher(lower(text(value))).replaceAll("");
    Matcher us = US_ZIP.matcher(zip);
    if (us.matches()) {
      return us.group(1);
    }
    zip = NOT_LETTER_OR_DIGIT.matcher(zip).replaceAll("");
    return zip.length() >= 2 ? zip : null;
  }

  /** ISO 3166-1 alpha-2, lower case, from a code (alpha-2 or alpha-3) or a country's name. */
  public static String country(String value) {
    return Regions.COUNTRIES.get(NOT_LETTER.matcher(lower(text(value))).replaceAll(""));
  }

  /** A single lower-case initial, f or m. */
  public static String gender(String value) {
    return GENDERS.get(NOT_LETTER.matcher(lower(text(value))).replaceAll(""));
  }

  /** YYYYMMDD from YYYY-MM-DD, YYYYMMDD, M/D/YYYY (US, as Meta's example) or D.M.YYYY; a real date, 1900 to now. */
  public static String dateOfBirth(String value) {
    String text = text(value);
    Matcher m;
    int year;
    int month;
    int day;
    if ((m = YMD.matcher(text)).matches()) {
      year = Integer.parseInt(m.group(1));
      month = Integer.parseInt(m.group(2));
      day = Integer.parseInt(m.group(3));
    } else if ((m = US_MDY.matcher(text)).matches()) {
      month = Integer.parseInt(m.group(1));
      day = Integer.parseInt(m.group(2));
      year = Integer.parseInt(m.group(3));
    } else if ((m = EU_DMY.matcher(text)).matches()) {
      day = Integer.parseInt(m.group(1));
      month = Integer.parseInt(m.group(2));
      year = Integer.parseInt(m.group(3));
    } else {
      return null;
    }
    try {
      LocalDate date = LocalDate.of(year, month, day);
      return year >= 1900 && !date.isAfter(LocalDate.now()) ? String.format("%04d%02d%02d", year, month, day) : null;
    } catch (DateTimeException impossible) {
      return null;
    }
  }

  /**
   * external_id keeps its case and its exact code points (no NFC): Meta asks for the same format as on the
   * advertiser's other channels (the pixel), byte for byte. TikTok publishes no rule we could read first-hand; the
   * safe reading is the same: trim only, on both networks.
   */
  public static String externalId(String value) {
    return value.length() > MAX_INPUT_CHARS ? null : emptyToNull(EDGE_SPACE.matcher(value).replaceAll(""));
  }

  private static String lower(String value) {
    return value.toLowerCase(Locale.ROOT);
  }

  private static String collapseSpaces(String value) {
    return INNER_SPACE.matcher(value).replaceAll(" ");
  }

  private static String emptyToNull(String value) {
    return value.isEmpty() ? null : value;
  }
}
