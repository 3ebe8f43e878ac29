package dev.eventrouter.common;

import java.util.Currency;
import java.util.Locale;

/** Currency codes as the events, postbacks and config take them: ISO 4217, any case in, upper case out. */
public final class CurrencyCode {

  private CurrencyCode() {}

  /**
   * The ISO 4217 code the text names, upper case, or null when it names none: the JDK's table decides, so three
   * letters that name no currency are refused too.
   */
  public static String iso(String text) {
    try {
      return Currency.getInstance(text.toUpperCase(Locale.ROOT)).getCurrencyCode();
    } catch (IllegalArgumentException unknown) {
      return null;
    }
  }
}
