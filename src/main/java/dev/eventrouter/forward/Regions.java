package dev.eventrouter.forward;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The place tables the address rules need, as data: US states and territories to their two-letter USPS codes
 * (https://pe.usps.com/text/pub28/28apb.htm), and countries to ISO 3166-1 alpha-2 from their codes and names. Keys are
 * as the rules leave text: lower case, letters (and marks) only.
 */
final class Regions {

  /** The languages whose country names are understood besides English, on the markets this service serves. */
  private static final String[] NAME_LANGUAGES = {"de", "fr", "es", "it", "pt", "nl", "pl", "ru", "uk", "tr", "ar",
      "hi", "id", "vi", "th", "ja", "ko", "zh"};

  static final Map<String, String> US_STATES = usStates();
  static final Map<String, String> COUNTRIES = countries();

  private Regions() {}

  /** Builds the tables (class initialisation) where the caller chooses: off the event loop. */
  static int load() {
    return US_STATES.size() + COUNTRIES.size();
  }

  private static Map<String, String> usStates() {
    String[][] states = {
        {"al", "alabama"}, {"ak", "alaska"}, {"az", "arizona"}, {"ar", "arkansas"}, {"ca", "california"},
        {"co", "colorado"}, {"ct", "connecticut"}, {"de", "delaware"}, {"fl", "florida"}, {"ga", "georgia"},
        {"hi", "hawaii"}, {"id", "idaho"}, {"il", "illinois"}, {"in", "indiana"}, {"ia", "iowa"}, {"ks", "kansas"},
        {"ky", "kentucky"}, {"la", "louisiana"}, {"me", "maine"}, {"md", "maryland"}, {"ma", "massachusetts"},
        {"mi", "michigan"}, {"mn", "minnesota"}, {"ms", "mississippi"}, {"mo", "missouri"}, {"mt", "montana"},
        {"ne", "nebraska"}, {"nv", "nevada"}, {"nh", "newhampshire"}, {"nj", "newjersey"}, {"nm", "newmexico"},
        {"ny", "newyork"}, {"nc", "northcarolina"}, {"nd", "northdakota"}, {"oh", "ohio"}, {"ok", "oklahoma"},
        {"or", "oregon"}, {"pa", "pennsylvania"}, {"ri", "rhodeisland"}, {"sc", "southcarolina"},
        {"sd", "southdakota"}, {"tn", "tennessee"}, {"tx", "texas"}, {"ut", "utah"}, {"vt", "vermont"},
        {"va", "virginia"}, {"wa", "washington"}, {"wv", "westvirginia"}, {"wi", "wisconsin"}, {"wy", "wyoming"},
        {"dc", "districtofcolumbia"}, {"dc", "washingtondc"}, {"as", "americansamoa"}, {"gu", "guam"},
        {"mp", "northernmarianaislands"}, {"pr", "puertorico"}, {"vi", "virginislands"},
        {"vi", "usvirginislands"}, {"um", "unitedstatesminoroutlyingislands"}};
    Map<String, String> map = new HashMap<>();
    for (String[] state : states) {
      map.put(state[0], state[0]);
      map.put(state[1], state[0]);
    }
    return Map.copyOf(map);
  }

  /**
   * Alpha-2 and alpha-3 codes and English names first; then names in the other languages, except a name that two
   * countries share across languages, which is left out rather than guessed.
   */
  private static Map<String, String> countries() {
    Map<String, String> map = new HashMap<>();
    for (String code : Locale.getISOCountries()) {
      Locale country = new Locale("", code);
      String alpha2 = code.toLowerCase(Locale.ROOT);
      map.put(alpha2, alpha2);
      map.put(country.getISO3Country().toLowerCase(Locale.ROOT), alpha2);
      map.put(key(country.getDisplayCountry(Locale.ENGLISH)), alpha2);
    }
    map.put("usa", "us");
    map.put("unitedstatesofamerica", "us");
    map.put("uk", "gb");
    map.put("greatbritain", "gb");
    Map<String, String> translated = new HashMap<>();
    Set<String> ambiguous = new HashSet<>();
    for (String language : NAME_LANGUAGES) {
      Locale in = Locale.forLanguageTag(language);
      for (String code : Locale.getISOCountries()) {
        String name = key(new Locale("", code).getDisplayCountry(in));
        String alpha2 = code.toLowerCase(Locale.ROOT);
        if (name.isEmpty() || map.containsKey(name)) {
          continue;
        }
        String earlier = translated.putIfAbsent(name, alpha2);
        if (earlier != null && !earlier.equals(alpha2)) {
          ambiguous.add(name);
        }
      }
    }
    ambiguous.forEach(translated::remove);
    translated.forEach(map::putIfAbsent);
    return Map.copyOf(map);
  }

  private static String key(String name) {
    return java.text.Normalizer.normalize(name, java.text.Normalizer.Form.NFC).toLowerCase(Locale.ROOT)
        .replaceAll("[^\\p{L}\\p{M}]+", "");
  }
}
