package dev.eventrouter.api.postbacks;

import dev.eventrouter.api.postbacks.PostbackParams.Param;
import dev.eventrouter.http.ApiException.FieldError;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A postback's parameters as partners' systems send them: decoded leniently, grouped without regard to case, what
 * the source reads refused when it is ambiguous, and what the log keeps.
 */
class PostbackParamsUnitTest {

  private static final Set<String> READ = Set.of("subid", "payout", "currency");

  private static PostbackParams params(String... pairs) {
    return new PostbackParams(IntStream.range(0, pairs.length / 2)
        .mapToObj(i -> new Param(pairs[2 * i], pairs[2 * i + 1])).toList(), List.of());
  }

  @Test
  @DisplayName("a query string is decoded as browsers do: escapes, '+' as a space, UTF-8, pairs without a value "
      + "or a name, in the order sent")
  void decode() {
    assertThat(PostbackParams.decode("subid=ses_1&goal=ftd&note=a+b%20c&city=M%C3%BCnchen&flag&=orphan&&x="))
        .containsExactly(new Param("subid", "ses_1"), new Param("goal", "ftd"), new Param("note", "a b c"),
            new Param("city", "München"), new Param("flag", ""), new Param("x", ""));
    assertThat(PostbackParams.decode("")).isEmpty();
    assertThat(PostbackParams.decode("a=%41%4a%4F%6b")).containsExactly(new Param("a", "AJOk"));
    assertThat(PostbackParams.decode("a%3Db=c%26d")).as("escaped '=' and '&' are data")
        .containsExactly(new Param("a=b", "c&d"));
  }

  @ParameterizedTest
  @ValueSource(strings = {"%", "%z", "%zz", "%4", "%4g", "%g4", "100%", "%subid%", "%%41"})
  @DisplayName("a '%' that does not start an escape of two hex digits stays as written, never refusing the postback")
  void lenient(String value) {
    String expected = value.equals("%%41") ? "%A" : value;
    assertThat(PostbackParams.decode("v=" + value + "&n=1"))
        .containsExactly(new Param("v", expected), new Param("n", "1"));
  }

  @Test
  @DisplayName("an escape is two hex digits of either case; any other character after the '%' leaves it as written")
  void hexDigits() {
    assertThat(PostbackParams.decode("a=%30%39%41%46%61%66").get(0).value()).isEqualTo("09AFaf");
    for (String notHex : List.of("%/0", "%:0", "%@0", "%G0", "%`0", "%g0", "%0/", "%0:", "%0G", "%0g")) {
      assertThat(PostbackParams.decode("a=" + notHex).get(0).value()).as(notHex).isEqualTo(notHex);
    }
  }

  @Test
  @DisplayName("bytes as they arrive on the request line (ISO-8859-1 characters) are read as UTF-8; bytes that are "
      + "not UTF-8 become U+FFFD; a NUL stays for the reader to judge")
  void bytes() {
    String raw = new String("name=Jos\u00e9&c=\u00a4cy".getBytes(StandardCharsets.UTF_8), StandardCharsets.ISO_8859_1);
    assertThat(PostbackParams.decode(raw)).containsExactly(new Param("name", "José"), new Param("c", "¤cy"));
    assertThat(PostbackParams.decode("a=%FF%FE")).containsExactly(new Param("a", "\uFFFD\uFFFD"));
    assertThat(PostbackParams.decode("a=x%00y")).containsExactly(new Param("a", "x\u0000y"));
  }

  @Test
  @DisplayName("at most 1,000 pairs are read")
  void boundedPairs() {
    String query = IntStream.range(0, 1_500).mapToObj(i -> "p" + i + "=v").collect(Collectors.joining("&"));
    List<Param> pairs = PostbackParams.decode(query);
    assertThat(pairs).hasSize(PostbackParams.MAX_PAIRS);
    assertThat(pairs.get(999).name()).isEqualTo("p999");
  }

  @Test
  @DisplayName("a field is read from the first of its names carrying a value that is not blank, trimmed, any case")
  void first() {
    PostbackParams params = params("SubID", " ", "click_id", " ses_2 ", "Payout", "5", "payout", "5");
    assertThat(params.first(List.of("subid", "click_id"))).isEqualTo("ses_2");
    assertThat(params.first(List.of("payout"))).isEqualTo("5");
    assertThat(params.first(List.of("currency"))).isNull();
    assertThat(params.sent(List.of("currency", "subid"))).as("as the partner spelt it, blank or not")
        .isEqualTo("SubID");
    assertThat(params.sent(List.of("currency"))).isNull();
  }

  @Test
  @DisplayName("equal repeats are one value; different values of a name the source reads are refused naming it; a "
      + "blank repeat is no other value; names it does not read are not judged")
  void repeats() {
    assertThat(params("payout", "10", "PAYOUT", " 10", "subid", "s", "subid", "").ambiguities(READ)).isEmpty();
    assertThat(params("payout", "10", "payout", "1000", "comment", "a", "comment", "b").ambiguities(READ))
        .containsExactly(new FieldError("payout",
            "sent 2 times with different values; the partner must send it once"));
    assertThat(params("subid", "A", "SubId", "B", "subid", "A").ambiguities(READ))
        .extracting(FieldError::field, FieldError::message)
        .containsExactly(org.assertj.core.groups.Tuple.tuple("subid",
            "sent 3 times with different values; the partner must send it once"));
  }

  @Test
  @DisplayName("a NUL, an unpaired surrogate or a value over 500 characters in a name the source reads is refused "
      + "naming it; in one it does not read, it is only cleaned and cut in the log")
  void unreadable() {
    assertThat(params("payout", "1\u00000", "comment", "a\u0000b").ambiguities(READ))
        .containsExactly(new FieldError("payout", "must not contain a NUL byte (%00) or an unpaired surrogate"));
    assertThat(params("currency", "US\uD800").ambiguities(READ)).hasSize(1);
    assertThat(params("subid", "s".repeat(500)).ambiguities(READ)).isEmpty();
    assertThat(params("subid", "s".repeat(501)).ambiguities(READ))
        .containsExactly(new FieldError("subid", "must be at most 500 characters"));
    JsonObject logged = params("comment", "a\u0000b", "c\u0000d", "x", "note", "\uDC00z").logged();
    assertThat(logged).isEqualTo(new JsonObject().put("comment", "ab").put("cd", "x").put("note", "\uFFFDz"));
  }

  @Test
  @DisplayName("the log keeps the first 50 names, each with its first value, names cut at 64 characters and values "
      + "at 500")
  void logged() {
    PostbackParams many = new PostbackParams(IntStream.range(0, 60).mapToObj(i -> new Param("p" + i, "v" + i))
        .toList(), List.of());
    assertThat(many.logged().fieldNames()).hasSize(50).contains("p0", "p49").doesNotContain("p50");
    JsonObject repeated = params("a", "1", "a", "2", "n".repeat(70), "v", "b", "y".repeat(501)).logged();
    assertThat(repeated.getString("a")).isEqualTo("1");
    assertThat(repeated.getString("n".repeat(64) + "...")).isEqualTo("v");
    assertThat(repeated.getString("b")).isEqualTo("y".repeat(500) + "...");
    PostbackParams fifty = new PostbackParams(IntStream.range(0, 51).mapToObj(i -> new Param("p" + i % 50, "v"))
        .toList(), List.of());
    assertThat(fifty.logged().size()).as("a repeat of a logged name past the 50th").isEqualTo(50);
  }

  @ParameterizedTest
  @ValueSource(strings = {"sig", "SIG", "postback_sig", "sig2", "x-sig", "signature", "hmac", "x_hmac", "token",
      "api_key", "secret", "sign", "hash", "postback_key", "password", "passwd", "pwd", "auth", "email", "phone",
      "ip", "user_ip", "name", "fn", "em"})
  @DisplayName("every signature-, secret- or user-data-like name is masked")
  void masked(String name) {
    assertThat(params(name, "v").logged().getString(name)).isEqualTo("***");
  }

  @ParameterizedTest
  @ValueSource(strings = {"subid", "destination", "sigma", "bisigx", "payout", "campaign",
      "ipx", "status"})
  @DisplayName("names that only look alike are logged as sent")
  void notMasked(String name) {
    assertThat(params(name, "v").logged().getString(name)).isEqualTo("v");
  }

  @Test
  @DisplayName("a name is quoted back as letters, digits and _ . - [ ], others as '?', cut at 64")
  void shown() {
    assertThat(PostbackParams.shown("sub_id[1].x-y")).isEqualTo("sub_id[1].x-y");
    assertThat(PostbackParams.shown("a\nRESOLVED: log in at http://x")).isEqualTo("a?RESOLVED??log?in?at?http???x");
    assertThat(PostbackParams.shown("x".repeat(65))).isEqualTo("x".repeat(64) + "...");
    assertThat(PostbackParams.shown("x".repeat(64))).isEqualTo("x".repeat(64));
  }

  @Test
  @DisplayName("text PostgreSQL cannot store is cleaned: NULs dropped, unpaired surrogates as U+FFFD, pairs kept")
  void storable() {
    assertThat(PostbackParams.storable("ok \uD83D\uDE00")).isEqualTo("ok \uD83D\uDE00");
    assertThat(PostbackParams.storable("\u0000a\uD800b\uDC00\u0000")).isEqualTo("a\uFFFDb\uFFFD");
  }
}
