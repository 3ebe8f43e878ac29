package dev.eventrouter.forward;

import java.time.DateTimeException;
import java.time.LocalDate;
import java.time.Year;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Normalisation of customer information before hashing, per Meta's customer-information rules (ad-networks.md 1.3)
 * and TikTok's (2.3). Each returns null when nothing usable is left; such a value is not sent.
 */
final class Normalize {

  private static final Pattern PUNCTUATION = Pattern.compile("\\p{P}+");
  private static final Pattern NOT_LETTER = Pattern.compile("[^\\p{L}]+");
  private static final Pattern NOT_LETTER_OR_DIGIT = Pattern.compile("[^\\p{L}\\p{N}]+");
  private static final Pattern NOT_DIGIT = Pattern.compile("[^0-9]+");
  private static final Pattern US_ZIP_PLUS_4 = Pattern.compile("([0-9]{5})-[0-9]{4}");
  private static final Pattern YMD = Pattern.compile("([0-9]{4})[-/.]?([0-9]{2})[-/.]?([0-9]{2})");
  private static final Pattern US_MDY = Pattern.compile("([0-9]{1,2})/([0-9]{1,2})/([0-9]{4})");
  private static final Pattern EU_DMY = Pattern.compile("([0-9]{1,2})\\.([0-9]{1,2})\\.([0-9]{4})");
  private static final Map<String, String> COUNTRIES = countries();

  private Normalize() {}

  static String trimLower(String value) {
    return emptyToNull(value.trim().toLowerCase(Locale.ROOT));
  }

  static String email(String value) {
    String email = trimLower(value);
    return email != null && email.indexOf('@') > 0 ? email : null;
  }

  /** Meta: digits only, leading zeros removed, country code included, no '+'. */
  static String metaPhone(String value) {
    String digits = NOT_DIGIT.matcher(value).replaceAll("").replaceFirst("^0+", "");
    return digits.length() >= 6 ? digits : null;
  }

  /** TikTok: E.164 with the '+', so the same number hashes differently for the two networks, on purpose. */
  static String tiktokPhone(String value) {
    String digits = metaPhone(value);
    return digits == null ? null : "+" + digits;
  }

  /** First and last names: lowercase, no punctuation; other letters kept as UTF-8 ("Valéry" -> "valéry"). */
  static String name(String value) {
    return emptyToNull(PUNCTUATION.matcher(value.toLowerCase(Locale.ROOT)).replaceAll("").trim());
  }

  /** Meta city: lowercase letters only, no punctuation, digits or spaces ("Menlo Park" -> "menlopark"). */
  static String city(String value) {
    return emptyToNull(NOT_LETTER.matcher(value.toLowerCase(Locale.ROOT)).replaceAll(""));
  }

  /** Meta state: lowercase, no punctuation or spaces ("Washington, D.C." -> "washingtondc"). */
  static String state(String value) {
    return emptyToNull(NOT_LETTER_OR_DIGIT.matcher(value.toLowerCase(Locale.ROOT)).replaceAll(""));
  }

  /** Zip: lowercase, no spaces; a US ZIP+4 keeps its first 5 digits ("98 121-9431" -> "98121"), no dashes. */
  static String zip(String value) {
    String zip = value.toLowerCase(Locale.ROOT).replaceAll("\\s+", "");
    Matcher us = US_ZIP_PLUS_4.matcher(zip);
    if (us.matches()) {
      zip = us.group(1);
    }
    zip = zip.replace("-", "");
    return zip.length() >= 2 ? zip : null;
  }

  /** ISO 3166-1 alpha-2, lowercase, from a code or an English name ("United States" -> "us"). */
  static String country(String value) {
    String key = NOT_LETTER.matcher(value.toLowerCase(Locale.ROOT)).replaceAll("");
    return COUNTRIES.get(key);
  }

  /** A single lowercase initial, f or m. */
  static String gender(String value) {
    String g = value.trim().toLowerCase(Locale.ROOT);
    if (Set.of("f", "female", "woman", "w").contains(g)) {
      return "f";
    }
    if (Set.of("m", "male", "man").contains(g)) {
      return "m";
    }
    return null;
  }

  /** YYYYMMDD from YYYY-MM-DD, YYYYMMDD, M/D/YYYY (US, as Meta's example) or D.M.YYYY; year 1900 to now. */
  static String dateOfBirth(String value) {
    String text = value.trim();
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
      return year >= 1900 && year <= Year.now().getValue() ? String.format("%04d%02d%02d", year, month, day) : null;
    } catch (DateTimeException invalid) {
      return null;
    }
  }

  /**
   * external_id keeps its case: it must match the format the pixel sends (open question 4 of ad-networks.md, for
   * TikTok: we take the safe reading, trim only, the same on both networks).
   */
  static String externalId(String value) {
    return emptyToNull(value.trim());
  }

  private static String emptyToNull(String value) {
    return value == null || value.isEmpty() ? null : value;
  }

  private static Map<String, String> countries() {
    Map<String, String> map = new HashMap<>();
    for (String code : Locale.getISOCountries()) {
      Locale locale = new Locale("", code);
      String lower = code.toLowerCase(Locale.ROOT);
      map.put(lower, lower);
      map.put(locale.getISO3Country().toLowerCase(Locale.ROOT), lower);
      map.put(NOT_LETTER.matcher(locale.getDisplayCountry(Locale.ENGLISH).toLowerCase(Locale.ROOT)).replaceAll(""),
          lower);
    }
    map.put("usa", "us");
    map.put("unitedstatesofamerica", "us");
    map.put("uk", "gb");
    return Map.copyOf(map);
  }
}
