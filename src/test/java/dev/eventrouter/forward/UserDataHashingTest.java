package dev.eventrouter.forward;

import dev.eventrouter.common.Sha256;
import dev.eventrouter.forward.meta.MetaApi;
import dev.eventrouter.forward.tiktok.TikTokApi;
import dev.eventrouter.store.ClaimedDelivery;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.time.Instant;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/** The networks' published test vectors, through the payload builders. */
class UserDataHashingTest {

  private static final long TELEGRAM_ID = 123456789L;
  private static final String TELEGRAM_HASH = Sha256.hex("123456789");

  private static ClaimedDelivery job(JsonObject userData) {
    return new ClaimedDelivery(1, 1, UUID.randomUUID(), "i", "REG", "Lead", 0, TELEGRAM_ID, null, null, "USD", userData,
        Instant.now(), null, null);
  }

  private static JsonObject meta(String key, Object value) {
    return MetaApi.USER_DATA.user(job(new JsonObject().put(key, value)));
  }

  private static JsonObject tiktok(String key, Object value) {
    return TikTokApi.USER_DATA.user(job(new JsonObject().put(key, value)));
  }

  @ParameterizedTest(name = "Meta {0} {1}")
  @CsvSource(delimiter = '|', value = {
      "email         | John_Smith@gmail.com    | em      | 62a14e44f765419d10fea99367361a727c12365e2520f32218d505ed9aa0f62f",
      "phone         | +1 (650) 555-1212       | ph      | e323ec626319ca94ee8bff2e4c87cf613be6ea19919ed1364124e16807ab3176",
      "first_name    | Valéry                  | fn      | 08e1996b5dd49e62a4b4c010d44e4345592a863bb9f8e3976219bac29417149c",
      "first_name    | Mary                    | fn      | 6915771be1c5aa0c886870b6951b03d7eafc121fea0e80a5ea83beb7c449f4ec",
      "last_name     | 정                      | ln      | 8fa8cd9c440be61d0151429310034083132b35975c4bea67fdd74158eb51db14",
      "date_of_birth | 2/16/1997               | db      | 01acdbf6ec7b4f478a225f1a246e5d6767eeab1a7ffa17f025265b5b94f40f0c",
      "country       | United States           | country | 79adb2a2fce5c6ba215fe5f27f532d4e7edbac4b6a5e09e1ef3a08084a904621",
      "email         | '    aBc@gmail.com   '  | em      | 48ddb93f0b30c475423fe177832912c5bcdce3cc72872f8051627967ef278e08",
      "gender        | female                  | ge      | 252f10c83610ebca1a059c0bae8255eba2f95be4d1d7bcfa89d7248a82d9f111",
      "gender        | m                       | ge      | 62c66a7a5dd70c3146618063c344e531e6d4b59e379808443ce962b3abd63c5a",
      "phone         | 510 555 0011            | ph      | cf9b0227ee02d8f8f9dbb6060fa2941bb667efc71f6ee2e6ee17b40121a5f4a6"})
  @DisplayName("Meta contact data is normalised and hashed to the documented vectors")
  void metaVectors(String key, String input, String metaKey, String expected) {
    assertThat(meta(key, input).getJsonArray(metaKey)).as("a list, as Meta's SDK writes it").containsExactly(expected);
  }

  @Test
  @DisplayName("Meta zip given as a number (vector 7) and an advertiser external_id (vector 9)")
  void metaNumberAndExternalId() {
    assertThat(meta("zip", 1234).getJsonArray("zp").getString(0))
        .isEqualTo("03ac674216f3e15c761ee1a5e255f067953623c8b388b4459e13f978d7c846f4");
    assertThat(meta("external_id", "123456").getJsonArray("external_id")).containsExactly(TELEGRAM_HASH,
        "8d969eef6ecad3c29a3a629280e686cf0c3f5d5a86aff3ca12020c923adc6c92");
  }

  @ParameterizedTest(name = "TikTok {0} {1}")
  @CsvSource(delimiter = '|', value = {
      "email | abc@xyz.com              | email | ee278943de84e5d6243578ee1a1057bcce0e50daad9755f45dfa64b60b13bc5d",
      "phone | +12345432                | phone | 49a15e38bdc2572d362a924c2ddd100baed0fe29db44270d3700fcef03b18c39",
      "phone | +134234325               | phone | 5a6a7a09b18278e220312ce26d711ff7c8263d0965ee3b1d26b1b6f0ac7e71b3",
      "email | bugsbunny@warnerbros.com | email | 67e28cdcc3e845d3a4da05ca9fe5ddb7320a83b4cc2167f0555a3b04f63511e3",
      "phone | 12345678901234           | phone | 00a63bd0437d6ca0fa7b95c00ab2e7c020faa71440e5246750d6b517689e6777",
      "phone | +919912345678            | phone | 241102c24fa8a642e3d1346a31fbce3dd312563c015ae577a2253cb8652581eb"})
  @DisplayName("TikTok contact data is normalised and hashed to the documented vectors")
  void tiktokVectors(String key, String input, String tiktokKey, String expected) {
    assertThat(tiktok(key, input).getString(tiktokKey)).isEqualTo(expected);
  }

  @Test
  @DisplayName("TikTok external_id: the telegram id's hash, plus an advertiser id hashed as given (vector 13)")
  void tiktokExternalId() {
    assertThat(tiktok("country", "US").getString("external_id")).isEqualTo(TELEGRAM_HASH);
    assertThat(tiktok("external_id", "f0e388f53921a51f0bb0fc8a2944109ec188b5").getJsonArray("external_id"))
        .containsExactly(TELEGRAM_HASH, "3e0c7a51acd326b87f29596e38c22cbeb732df37bc5c8f5f524c14b55d3472db");
  }

  @Test
  @DisplayName("the same phone hashes differently for Meta (no '+') and TikTok (E.164 with '+'), on purpose")
  void phonePitfall() {
    assertThat(meta("phone", "+1 650 555 1212").getJsonArray("ph").getString(0))
        .isEqualTo("e323ec626319ca94ee8bff2e4c87cf613be6ea19919ed1364124e16807ab3176");
    assertThat(tiktok("phone", "+1 650 555 1212").getString("phone"))
        .isEqualTo("1e231c66011e7a2d867a9cfae267a6aff103cf4913640b6e71a99850fc0ffbc8");
  }

  @Test
  @DisplayName("first and last names hash the same for Meta and TikTok: lower case, punctuation removed")
  void namesAlikeOnBothNetworks() {
    String maryAnn = Sha256.hex("maryann");
    assertThat(meta("first_name", "Mary-Ann").getJsonArray("fn")).containsExactly(maryAnn);
    assertThat(tiktok("first_name", "Mary-Ann").getString("first_name")).isEqualTo(maryAnn);
    String oneil = Sha256.hex("oneil");
    assertThat(meta("last_name", " O'Neil ").getJsonArray("ln")).containsExactly(oneil);
    assertThat(tiktok("last_name", " O'Neil ").getString("last_name")).isEqualTo(oneil);
  }

  @Test
  @DisplayName("a value already hashed is sent as is, never hashed twice")
  void alreadyHashedPassesThrough() {
    String hashed = "62a14e44f765419d10fea99367361a727c12365e2520f32218d505ed9aa0f62f";

    assertThat(meta("email", hashed).getJsonArray("em").getString(0)).isEqualTo(hashed);
    assertThat(tiktok("email", hashed).getString("email")).isEqualTo(hashed);
  }

  @Test
  @DisplayName("IP and user agent are never hashed; TikTok city, state and country go plain; unknown keys stay home")
  void neverHashed() {
    JsonObject data = new JsonObject().put("client_ip", "203.0.113.7").put("user_agent", "UA/1.0")
        .put("city", "Menlo Park").put("state", "CA").put("country", "United States").put("favourite_colour", "red");

    JsonObject meta = MetaApi.USER_DATA.user(job(data));
    JsonObject tiktok = TikTokApi.USER_DATA.user(job(data));

    assertThat(meta.getString("client_ip_address")).isEqualTo("203.0.113.7");
    assertThat(meta.getString("client_user_agent")).isEqualTo("UA/1.0");
    assertThat(meta.getJsonArray("ct")).containsExactly(Sha256.hex("menlopark"));
    assertThat(tiktok.getString("ip")).isEqualTo("203.0.113.7");
    assertThat(tiktok.getString("user_agent")).isEqualTo("UA/1.0");
    assertThat(tiktok.getString("city")).isEqualTo("menlopark");
    assertThat(tiktok.getString("state")).isEqualTo("ca");
    assertThat(tiktok.getString("country")).isEqualTo("us");
    assertThat(meta.encode() + tiktok.encode()).doesNotContain("red");
  }

  @ParameterizedTest(name = "{0}: {1} -> {2}")
  @CsvSource(delimiter = '|', value = {
      "email   | '  foo@foo.com  '   | foo@foo.com",
      "phone   | (123)-456-7890      | 1234567890",
      "city    | Menlo Park          | menlopark",
      "city    | Stanley Park 1234   | stanleypark",
      "zip     | 98 121-9431         | 98121",
      "zip     | NR9 5AL             | nr95al",
      "country | US!                 | us"})
  @DisplayName("Meta normalisation matches the official Java SDK's vectors (its state vectors, which keep full US state "
      + "names, differ from Meta's written rule: see NormalizationTableTest)")
  void normalisationVectors(String field, String input, String expected) {
    String normalized = switch (field) {
      case "email" -> Normalize.email(input);
      case "phone" -> Normalize.metaPhone(input);
      case "city" -> Normalize.city(input);
      case "state" -> Normalize.state(input);
      case "zip" -> Normalize.zip(input);
      default -> Normalize.country(input);
    };
    assertThat(normalized).isEqualTo(expected);
  }

  @Test
  @DisplayName("values that cannot be valid are dropped, not sent")
  void invalidDropped() {
    assertThat(Normalize.email("TEST")).isNull();
    assertThat(Normalize.metaPhone("12345")).isNull();
    assertThat(Normalize.zip("A")).isNull();
  }
}
