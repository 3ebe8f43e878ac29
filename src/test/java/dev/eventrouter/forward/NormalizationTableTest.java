package dev.eventrouter.forward;

import dev.eventrouter.forward.meta.MetaApi;
import dev.eventrouter.forward.tiktok.TikTokApi;
import dev.eventrouter.store.ClaimedDelivery;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every user_data field, on both networks, through the payload builders: each input with the normalised string the
 * network's written rule gives, and the value actually sent (its SHA-256, or the plain text for TikTok's address).
 *
 * <p>The expected strings come from Meta's customer-information parameters
 * (https://developers.facebook.com/docs/marketing-api/conversions-api/parameters/customer-information-parameters):
 * email trimmed and lower-cased; phone digits only with the country code, no '+', no leading zeros; names lower case
 * without punctuation, other scripts as UTF-8; city lower case without punctuation, special characters or spaces;
 * state a US two-letter code, else lower case without punctuation or spaces; zip lower case without spaces or dash,
 * US five digits; country ISO 3166-1 alpha-2; gender f or m; date of birth YYYYMMDD. TikTok's integrations apply
 * the same rules to the same fields, with E.164 '+' phones (for instance Segment's TikTok Conversions destination,
 * https://github.com/segmentio/action-destinations/tree/main/packages/destination-actions/src/destinations/tiktok-conversions).
 *
 * <p>Where Meta's official Python SDK normaliser (facebook-python-business-sdk,
 * facebook_business/adobjects/serverside/normalize.py) gives another string, the row's note says so and which one
 * is followed: always the written rule, because the hash must equal the one Meta computes from its own pixel and
 * customer files, which follow the written rules, not one SDK's shortcuts.
 *
 * <p>Table columns: field | input | expected normalised string, or {@code !} when the value cannot be made valid
 * (not sent), or {@code sent:<value>} for a value sent exactly as given | networks (both, meta) | note. In inputs,
 * {@code {sp}} is a space, {@code {nbsp}} U+00A0, {@code {ideo}} U+3000, {@code {zwsp}} U+200B, {@code {tab}} a tab.
 * The field {@code name} stands for both first_name and last_name; a phone row gives Meta's digits, and TikTok is
 * expected to get the same digits after a '+'.
 */
class NormalizationTableTest {

  private static final String UPPER_HASH = "62A14E44F765419D10FEA99367361A727C12365E2520F32218D505ED9AA0F62F";

  private static final String TABLE = """
      email | John_Smith@gmail.com | john_smith@gmail.com | both | Meta's own example
      email | {sp}{sp}foo@foo.com{sp}{sp} | foo@foo.com | both | Java SDK vector
      email | {nbsp}user@example.com{nbsp} | user@example.com | both | Unicode spaces trimmed
      email | {ideo}user@example.com{ideo} | user@example.com | both |
      email | {zwsp}user@example.com | user@example.com | both | zero-width space pasted in front
      email | {tab}User@Example.COM{tab} | user@example.com | both |
      email | TEST | ! | both | Java SDK vector: invalid
      email | user@ | ! | both | no domain
      email | @example.com | ! | both | no local part
      email | user@example | ! | both | no dot in the domain
      email | user@@example.com | ! | both |
      email | us er@example.com | ! | both | a space inside is no address
      email | user@example.c | ! | both | one-letter top-level domain
      email | user@.example.com | ! | both | an empty first label
      email | user@example..com | ! | both | an empty label inside
      email | user@example.com. | ! | both | an empty last label
      email | user@ex_ample.com | ! | both | no underscore in a domain
      email | user@a-b.c-d | user@a-b.c-d | both | hyphens in labels
      email | user@example.com@x.com | ! | both | two @
      email | JOSÉ@example.com | josé@example.com | both | composed é
      email | JOSE\u0301@example.com | josé@example.com | both | decomposed é: NFC makes it the composed one
      email | иван@пример.рф | иван@пример.рф | both | SDK refuses non-ASCII addresses; written rule: trim, lower case
      email | Иван.Петров@Mail.RU | иван.петров@mail.ru | both | Cyrillic lower-cased
      email | user+tag@example.co.uk | user+tag@example.co.uk | both |
      email | first.last@sub.example.org | first.last@sub.example.org | both |
      email | a@b.co | a@b.co | both |
      email | %s | sent:%s | both | pre-hashed in upper case: sent lower-case, not hashed again
      email | {sp}%s{sp} | sent:%s | both | pre-hashed, with spaces around
      phone | +1 (650) 555-1212 | 16505551212 | both | Meta's own example
      phone | (650)555-1212 | 6505551212 | both | Meta's example adds the US 1; a missing country code cannot be guessed
      phone | +1 650 555 1212 x123 | 16505551212 | both | extension dropped (SDK: glued on)
      phone | +1 650 555 1212 ext. 123 | 16505551212 | both | extension dropped
      phone | +1 650 555 1212 ext 123 | 16505551212 | both |
      phone | +1-650-555-1212 #12 | 16505551212 | both |
      phone | +1 650 555 1212 extension 4 | 16505551212 | both |
      phone | +44 (0) 7700 900461 | 447700900461 | both | trunk (0) after the country code dropped (SDK keeps it)
      phone | +44 (0)20 7946 0958 | 442079460958 | both |
      phone | +49 (0) 30 901820 | 4930901820 | both |
      phone | 0044 7700 900461 | 447700900461 | both | international 00 prefix: leading zeros removed
      phone | +1 650 555 1212, +1 650 555 1313 | ! | both | two numbers (SDK: one 22-digit number)
      phone | +1 650 555 1212 / +1 650 555 1313 | ! | both | two numbers
      phone | +1 650 555 1212 or +1 650 555 1313 | ! | both | two numbers
      phone | 16505551212; 16505551313 | ! | both | two numbers
      phone | +7 (912) 345-67-89 | 79123456789 | both |
      phone | +91 99123 45678 | 919912345678 | both |
      phone | +86 138 0013 8000 | 8613800138000 | both |
      phone | +971 50 123 4567 | 971501234567 | both |
      phone | +66 81 234 5678 | 66812345678 | both |
      phone | 12345 | ! | both | Java SDK vector: too short
      phone | 1234567890123456 | ! | both | 16 digits: more than E.164 allows
      phone | +1 650 555 1212 +1 | ! | both | two '+': two numbers
      phone | {nbsp}+1 650 555 1212{nbsp} | 16505551212 | both |
      phone | +٩٧١ ٥٠ ١٢٣ ٤٥٦٧ | 971501234567 | both | Arabic-Indic digits read as digits
      phone | tel: +1-650-555-1212 | 16505551212 | both | letters removed
      phone | +1.650.555.1212 | 16505551212 | both |
      phone | 1-800-FLOWERS | ! | both | letters removed, four digits left
      phone | +12345432 | 12345432 | both | TikTok vector (Segment)
      phone | 12345678901234 | 12345678901234 | both | TikTok vector (Segment)
      phone | (123)-456-7890 | 1234567890 | both | Java SDK vector
      phone | 123-4567 | 1234567 | both | seven digits: the shortest number taken
      phone | 123456 | ! | both | six digits
      phone | +123 456 789 012 345 | 123456789012345 | both | fifteen digits: the longest E.164 allows
      phone | +49 30+901820 | ! | both | a second '+' inside
      phone | 555-1212 / 555-1313 | ! | both | two local numbers, fourteen digits together
      name | Mary | mary | both | Meta's own example
      name | Valéry | valéry | both | Meta's own example: other letters kept as UTF-8
      name | Vale\u0301ry | valéry | both | decomposed: NFC first
      name | 정 | 정 | both | Meta's own example
      name | Mary-Ann | maryann | both | no punctuation (SDK keeps it)
      name | O'Neil | oneil | both | (SDK keeps the apostrophe)
      name | O’Neil | oneil | both | typographic apostrophe
      name | {nbsp}John{nbsp} | john | both | (SDK keeps U+00A0)
      name | Jean Luc | jean luc | both | inner space kept: a space is not punctuation
      name | Jean{sp}{sp}{sp}Luc | jean luc | both | runs of spaces collapsed
      name | Jean{nbsp}Luc | jean luc | both | any Unicode space inside becomes one space
      name | ИВАН | иван | both | Cyrillic
      name | Jürgen | jürgen | both |
      name | José | josé | both |
      name | Jose\u0301 | josé | both |
      name | محمد | محمد | both | Arabic
      name | 张伟 | 张伟 | both | CJK
      name | สมชาย | สมชาย | both | Thai, vowel marks kept
      name | प्रिया | प्रिया | both | Devanagari, vowel sign and virama kept
      name | Zoë | zoë | both |
      name | Dr. Smith | dr smith | both |
      name | !!! | ! | both | nothing left
      name | {ideo}さくら{ideo} | さくら | both | ideographic spaces trimmed
      name | Ñoño | ñoño | both |
      name | ŁUKASZ | łukasz | both |
      name | Ørsted | ørsted | both |
      city | Menlo Park | menlopark | both | Java SDK vector
      city | Stanley Park 1234 | stanleypark | both | Java SDK vector: digits removed
      city | New York | newyork | both | Meta's own example
      city | München | münchen | both |
      city | Mu\u0308nchen | münchen | both | decomposed ü (was "munchen")
      city | मुंबई | मुंबई | both | Devanagari marks kept (was "मबई")
      city | กรุงเทพมหานคร | กรุงเทพมหานคร | both | Thai marks kept
      city | São Paulo | sãopaulo | both |
      city | Saint-Étienne | saintétienne | both |
      city | Москва | москва | both |
      city | القاهرة | القاهرة | both |
      city | 東京 | 東京 | both |
      city | {nbsp}Berlin{nbsp} | berlin | both |
      city | 123 | ! | both | nothing left
      city | Ho Chi Minh City | hochiminhcity | both |
      city | Kraków | kraków | both |
      state | California | ca | both | US state name to its code (SDK: "california")
      state | CA | ca | both |
      state | ca | ca | both |
      state | New York | ny | both |
      state | Washington, D.C. | dc | both | Java SDK vector says "washingtondc"; the written rule asks the US code
      state | North Carolina | nc | both | Java SDK vector says "northcarolina"; the written rule asks the US code
      state | District of Columbia | dc | both |
      state | Puerto Rico | pr | both |
      state | Bayern | bayern | both | outside the US: lower case, no punctuation or spaces
      state | Île-de-France | îledefrance | both |
      state | Nordrhein-Westfalen | nordrheinwestfalen | both |
      state | Московская область | московскаяобласть | both |
      state | {nbsp}Texas{nbsp} | tx | both |
      state | महाराष्ट्र | महाराष्ट्र | both |
      zip | 94025 | 94025 | both |
      zip | 98 121-9431 | 98121 | both | Java SDK vector
      zip | 98121-9431 | 98121 | both | US ZIP+4: first five digits
      zip | 981219431 | 98121 | both | ZIP+4 without its dash (SDK keeps nine digits)
      zip | NR9 5AL | nr95al | both | Java SDK vector
      zip | M1 1AE | m11ae | both | Meta's UK example
      zip | 10115 | 10115 | both |
      zip | 01310-100 | 01310100 | both | Brazil: eight digits, dash removed
      zip | 75008 | 75008 | both |
      zip | A | ! | both | Java SDK vector: too short
      zip | {nbsp}94025{nbsp} | 94025 | both |
      zip | 123-4567 | 1234567 | both | Japan
      zip | K1A 0B1 | k1a0b1 | both | Canada
      zip | L-9 | l9 | both | two characters: the shortest code taken
      country | US | us | both |
      country | us | us | both |
      country | USA | us | both | alpha-3
      country | United States | us | both | Meta's own example
      country | United States of America | us | both |
      country | Germany | de | both | (the Java SDK refuses names)
      country | DEU | de | both |
      country | Deutschland | de | both | name in the country's language
      country | Россия | ru | both |
      country | UK | gb | both |
      country | United Kingdom | gb | both |
      country | US! | us | both | Java SDK vector
      country | {nbsp}FR{nbsp} | fr | both |
      country | Narnia | ! | both |
      country | España | es | both |
      country | 日本 | jp | both |
      country | Brasil | br | both |
      gender | f | f | meta | TikTok has no gender field
      gender | F | f | meta |
      gender | female | f | meta |
      gender | Female | f | meta |
      gender | woman | f | meta |
      gender | m | m | meta |
      gender | Male | m | meta |
      gender | MAN | m | meta |
      gender | {nbsp}m{nbsp} | m | meta |
      gender | x | ! | meta | neither f nor m: not sent (never guessed)
      gender | unknown | ! | meta |
      date_of_birth | 1997-02-16 | 19970216 | meta | TikTok has no birth date field
      date_of_birth | 19970216 | 19970216 | meta |
      date_of_birth | 2/16/1997 | 19970216 | meta | Meta's own example
      date_of_birth | 16.02.1997 | 19970216 | meta |
      date_of_birth | 1997/02/16 | 19970216 | meta |
      date_of_birth | 1997-02-30 | ! | meta | no such day
      date_of_birth | 02/30/1997 | ! | meta |
      date_of_birth | 1850-01-01 | ! | meta | before 1900
      date_of_birth | 2999-01-01 | ! | meta | in the future
      date_of_birth | {nbsp}1997-02-16{nbsp} | 19970216 | meta |
      date_of_birth | 13/13/1997 | ! | meta |
      date_of_birth | 1900-01-01 | 19000101 | meta | the first day taken
      date_of_birth | 1899-12-31 | ! | meta |
      date_of_birth | 31.12.1990 | 19901231 | meta | day first, with dots
      date_of_birth | 31.13.1990 | ! | meta |
      date_of_birth | born in 1990 | ! | meta | no date at all
      external_id | abc-123 | abc-123 | both |
      external_id | {sp}ABC-123{sp} | ABC-123 | both | trimmed, case kept: it must match the pixel's
      external_id | {nbsp}ABC{nbsp} | ABC | both |
      external_id | f0e388f53921a51f0bb0fc8a2944109ec188b5 | f0e388f53921a51f0bb0fc8a2944109ec188b5 | both | TikTok vector
      external_id | Jose\u0301 | Jose\u0301 | both | no NFC: the exact code points the pixel sends
      """.formatted(UPPER_HASH, UPPER_HASH.toLowerCase(), UPPER_HASH, UPPER_HASH.toLowerCase());

  /** Where each user_data key goes on each network, and whether it is hashed there. */
  private record Wire(String name, boolean hashed, boolean list) {}

  private static final Map<String, Wire> META = Map.of(
      "email", new Wire("em", true, true), "phone", new Wire("ph", true, true),
      "first_name", new Wire("fn", true, true), "last_name", new Wire("ln", true, true),
      "city", new Wire("ct", true, true), "state", new Wire("st", true, true), "zip", new Wire("zp", true, true),
      "country", new Wire("country", true, true), "gender", new Wire("ge", true, true),
      "date_of_birth", new Wire("db", true, true));
  private static final Map<String, Wire> TIKTOK = Map.of(
      "email", new Wire("email", true, false), "phone", new Wire("phone", true, false),
      "first_name", new Wire("first_name", true, false), "last_name", new Wire("last_name", true, false),
      "city", new Wire("city", false, false), "state", new Wire("state", false, false),
      "zip", new Wire("zip_code", true, false), "country", new Wire("country", false, false));

  static Stream<Arguments> rows() {
    List<Arguments> rows = new ArrayList<>();
    for (String line : TABLE.strip().split("\n")) {
      String[] cells = line.split("\\|", -1);
      String field = cells[0].trim();
      String input = unescape(cells[1].trim());
      String expected = cells[2].trim();
      String networks = cells[3].trim();
      String note = cells[4].trim();
      List<String> keys = field.equals("name") ? List.of("first_name", "last_name") : List.of(field);
      for (String key : keys) {
        rows.add(Arguments.of("meta", key, input, expected, note));
        if (networks.equals("both")) {
          String tiktokExpected = key.equals("phone") && !expected.equals("!") ? "+" + expected : expected;
          rows.add(Arguments.of("tiktok", key, input, tiktokExpected, note));
        }
      }
    }
    return rows.stream();
  }

  @Test
  @DisplayName("inputs are bounded before any pattern: an e-mail of 254 characters is one, of 255 none; the 4 KB "
      + "e-mail of many labels that overflowed the stack is none; a phone field past 64 characters and any value past "
      + "1,024 are no value")
  void boundedInputs() {
    String local = "a".repeat(64);
    String at254 = local + "@" + "b".repeat(185) + ".com";
    assertThat(at254).hasSize(Normalize.MAX_EMAIL_CHARS);
    assertThat(Normalize.email(at254)).isEqualTo(at254);
    assertThat(Normalize.email(" " + at254 + " ")).as("the bound is on the trimmed address").isEqualTo(at254);
    assertThat(Normalize.email(local + "@" + "b".repeat(186) + ".com")).isNull();
    assertThat(Normalize.email("a@" + "a.".repeat(2_000) + "aa")).isNull();
    assertThat(Normalize.email("a@" + "a.".repeat(60) + "aa")).as("many labels, within the bound")
        .isEqualTo("a@" + "a.".repeat(60) + "aa");

    String phone64 = "+1 650 555 1212" + " ".repeat(49);
    assertThat(("+1 650 555 1212" + " ".repeat(49) + "x").length()).isEqualTo(Normalize.MAX_PHONE_CHARS + 1);
    assertThat(Normalize.metaPhone("+1 650 555 1212" + "-".repeat(49))).as("64 characters").isEqualTo("16505551212");
    assertThat(Normalize.metaPhone("+1 650 555 1212" + "-".repeat(50))).as("65 characters").isNull();
    assertThat(Normalize.metaPhone(phone64 + "1")).isNull();

    String name1024 = "m".repeat(Normalize.MAX_INPUT_CHARS);
    assertThat(Normalize.name(name1024)).isEqualTo(name1024);
    assertThat(Normalize.text(name1024 + "m")).isEmpty();
    assertThat(Normalize.name(name1024 + "m")).isNull();
    assertThat(Normalize.city(" ".repeat(2_000) + "Paris")).isNull();
    assertThat(Normalize.externalId(name1024)).isEqualTo(name1024);
    assertThat(Normalize.externalId(name1024 + "m")).isNull();
    assertThat(rejected("meta", "first_name", name1024 + "m")).containsExactly("first_name");
    assertThat(build("meta", "email", "a@" + "a.".repeat(2_000) + "aa").containsKey("em")).isFalse();
  }

  @Test
  @DisplayName("the table covers at least 200 inputs")
  void tableSize() {
    assertThat(rows().count()).isGreaterThanOrEqualTo(200);
  }

  @ParameterizedTest(name = "{0} {1} \"{2}\" -> {3}  {4}")
  @MethodSource("rows")
  @DisplayName("each user_data value is normalised by the written rule and sent hashed (or plain) as that string")
  void normalisedAndSent(String network, String key, String input, String expected, String note) {
    JsonObject user = build(network, key, input);
    if (key.equals("external_id")) {
      JsonArray ids = user.getJsonArray("external_id");
      assertThat(ids.getString(1)).isEqualTo(sha256(expected));
      return;
    }
    Wire wire = (network.equals("meta") ? META : TIKTOK).get(key);
    Object sent = user.getValue(wire.name());
    if (expected.equals("!")) {
      assertThat(sent).as("a value that cannot be made valid is not sent").isNull();
      assertThat(rejected(network, key, input)).containsExactly(key);
      return;
    }
    String value = wire.list() ? ((JsonArray) sent).getString(0) : (String) sent;
    String expectedValue = expected.startsWith("sent:") ? expected.substring(5)
        : wire.hashed() ? sha256(expected) : expected;
    assertThat(value).isEqualTo(expectedValue);
    assertThat(rejected(network, key, input)).isEmpty();
  }

  @Test
  @DisplayName("one person hashes alike on both networks for every field both define alike (all but the phone)")
  void samePersonSameHashes() {
    JsonObject data = new JsonObject().put("email", " Mary.Ann@Example.com ").put("first_name", "Mary-Ann")
        .put("last_name", "O'Neil").put("zip", "98121-9431").put("external_id", "crm-42");
    JsonObject meta = MetaApi.USER_DATA.user(job(data));
    JsonObject tiktok = TikTokApi.USER_DATA.user(job(data));
    assertThat(tiktok.getString("email")).isEqualTo(meta.getJsonArray("em").getString(0));
    assertThat(tiktok.getString("first_name")).isEqualTo(meta.getJsonArray("fn").getString(0));
    assertThat(tiktok.getString("last_name")).isEqualTo(meta.getJsonArray("ln").getString(0));
    assertThat(tiktok.getString("zip_code")).isEqualTo(meta.getJsonArray("zp").getString(0));
    assertThat(tiktok.getJsonArray("external_id")).isEqualTo(meta.getJsonArray("external_id"));
  }

  private static JsonObject build(String network, String key, String input) {
    ClaimedDelivery job = job(new JsonObject().put(key, input));
    return network.equals("meta") ? MetaApi.USER_DATA.user(job) : TikTokApi.USER_DATA.user(job);
  }

  private static List<String> rejected(String network, String key, String input) {
    ClaimedDelivery job = job(new JsonObject().put(key, input));
    return (network.equals("meta") ? MetaApi.USER_DATA : TikTokApi.USER_DATA).rejected(job);
  }

  private static ClaimedDelivery job(JsonObject userData) {
    return new ClaimedDelivery(1, 1, UUID.randomUUID(), "i", "REG", "Lead", 0, 42, null, null, "USD", userData, Instant.now(), null, null);
  }

  private static String unescape(String cell) {
    return cell.replace("{sp}", " ").replace("{nbsp}", "\u00A0").replace("{ideo}", "\u3000")
        .replace("{zwsp}", "\u200B").replace("{tab}", "\t");
  }

  /** Computed here with the JDK directly, not with the service's own helper. */
  private static String sha256(String text) {
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}
