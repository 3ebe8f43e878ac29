package dev.eventrouter.forward;

import dev.eventrouter.forward.meta.MetaErrors;
import dev.eventrouter.forward.tiktok.TikTokCodes;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import static dev.eventrouter.support.FakeAdNetworks.metaError;
import static dev.eventrouter.support.FakeAdNetworks.tiktokCode;
import static org.assertj.core.api.Assertions.assertThat;

/** The error-code tables of both networks (see MetaErrors and TikTokCodes for their public sources). */
class ClassificationTest {

  @ParameterizedTest(name = "Meta HTTP {0} code {1} -> {2}")
  @CsvSource({
      "400, 1, Retry", "400, 2, Retry", "400, 4, Retry", "400, 17, Retry", "400, 341, Retry", "400, 368, Retry",
      "400, 613, Retry", "400, 80004, Retry", "400, 80000, Retry", "400, 80999, Retry", "400, 81000, Failed",
      "400, 79999, Failed", "400, 21009, Retry", "500, 999, Retry", "429, 999, Retry", "400, 199, Failed",
      "400, 300, Failed",
      "400, 190, Unauthorized", "400, 10, Unauthorized", "400, 200, Unauthorized", "403, 299, Unauthorized",
      "400, 100, InvalidData", "400, 3, Failed", "400, 12345, Failed"})
  @DisplayName("Meta answers are classified by the documented codes")
  void meta(int status, int code, String expected) {
    Outcome outcome = MetaErrors.classify(status, metaError(code, null, "x").toBuffer(), 0);

    assertThat(outcome.getClass().getSimpleName()).isEqualTo(expected);
  }

  @ParameterizedTest(name = "Meta {0}")
  @CsvSource({"200, Delivered", "299, Delivered", "502, Retry", "300, Retry", "199, Retry"})
  @DisplayName("Meta 2xx is delivered; an error without Meta's body (an HTML page) is retried")
  void metaWithoutErrorBody(int status, String expected) {
    assertThat(MetaErrors.classify(status, Buffer.buffer("<html>Bad Gateway</html>"), 0).getClass().getSimpleName())
        .isEqualTo(expected);
  }

  @ParameterizedTest(name = "Meta is_transient")
  @CsvSource({"true, Retry", "false, Failed"})
  @DisplayName("Meta's is_transient flag makes any code retryable")
  void metaTransientFlag(boolean flag, String expected) {
    JsonObject body = metaError(12345, null, "x");
    body.getJsonObject("error").put("is_transient", flag);

    assertThat(MetaErrors.classify(400, body.toBuffer(), 0).getClass().getSimpleName()).isEqualTo(expected);
  }

  @ParameterizedTest(name = "TikTok HTTP {0} code {1} -> {2}")
  @CsvSource({
      "200, 0, Delivered", "200, 20001, Delivered",
      "200, 40100, Retry", "200, 40016, Retry", "200, 40132, Retry", "200, 40133, Retry", "200, 50000, Retry",
      "200, 51065, Retry", "200, 59999, Retry", "200, 60000, Failed", "200, 49999, Failed",
      "500, 41234, Retry", "200, 40102, Unauthorized", "200, 40104, Unauthorized",
      "200, 40001, Unauthorized", "200, 40105, Unauthorized",
      "200, 40002, InvalidData", "200, 41234, Failed"})
  @DisplayName("TikTok answers are classified on the body code, even under HTTP 200")
  void tiktok(int status, int code, String expected) {
    Outcome outcome = TikTokCodes.classify(status, tiktokCode(code, "x").toBuffer(), 0);

    assertThat(outcome.getClass().getSimpleName()).isEqualTo(expected);
  }

  @ParameterizedTest(name = "TikTok HTTP {0} without a code -> {1}")
  @CsvSource({"503, Retry", "500, Retry", "429, Retry", "200, Retry", "299, Retry", "404, Failed", "400, Failed",
      "499, Failed", "300, Failed", "199, Failed"})
  @DisplayName("a TikTok answer without a code is retried when it looks like an outage")
  void tiktokWithoutCode(int status, String expected) {
    assertThat(TikTokCodes.classify(status, Buffer.buffer("gateway"), 0).getClass().getSimpleName())
        .isEqualTo(expected);
  }

  @ParameterizedTest(name = "TikTok body {0} under HTTP {1} -> {2}")
  @CsvSource(delimiter = '|', value = {
      "{\"message\":\"no code\"} | 500 | Retry",
      "{\"message\":\"no code\"} | 400 | Failed",
      "{\"code\":\"40002\"}      | 200 | Retry",
      "''                            | 502 | Retry"})
  @DisplayName("a TikTok JSON body without a numeric code is judged by the HTTP status, never thrown on")
  void tiktokJsonWithoutCode(String body, int status, String expected) {
    assertThat(TikTokCodes.classify(status, Buffer.buffer(body), 0).getClass().getSimpleName()).isEqualTo(expected);
  }

  @Test
  @DisplayName("a retry carries Retry-After and the network's words; Meta's subcode is kept in the error")
  void retryCarriesDetail() {
    Outcome meta = MetaErrors.classify(400, metaError(17, 2446079, "User request limit reached").toBuffer(), 7000);
    assertThat(meta).isEqualTo(new Outcome.Retry("meta HTTP 400 code 17/2446079: User request limit reached", 7000));
    Outcome tiktok = TikTokCodes.classify(200, tiktokCode(40100, "Too many requests").toBuffer(), 3000);
    assertThat(tiktok).isEqualTo(new Outcome.Retry("tiktok code 40100: Too many requests", 3000));
    assertThat(MetaErrors.classify(502, null, 1000)).isInstanceOf(Outcome.Retry.class);
    assertThat(TikTokCodes.classify(502, null, 1000)).isInstanceOf(Outcome.Retry.class);
  }
}
