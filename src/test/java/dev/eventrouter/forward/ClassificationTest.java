package dev.eventrouter.forward;

import dev.eventrouter.forward.meta.MetaErrors;
import dev.eventrouter.forward.tiktok.TikTokCodes;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.DisplayName;

import static dev.eventrouter.support.FakeAdNetworks.metaError;
import static dev.eventrouter.support.FakeAdNetworks.tiktokCode;
import static org.assertj.core.api.Assertions.assertThat;

/** The error-code tables of both networks (see MetaErrors and TikTokCodes for their public sources). */
class ClassificationTest {

  @ParameterizedTest(name = "Meta HTTP {0} code {1} -> {2}")
  @CsvSource({
      "400, 1, Retry", "400, 2, Retry", "400, 4, Retry", "400, 17, Retry", "400, 341, Retry", "400, 368, Retry",
      "400, 613, Retry", "400, 80004, Retry", "500, 999, Retry", "429, 999, Retry",
      "400, 190, Unauthorized", "400, 10, Unauthorized", "400, 200, Unauthorized", "403, 299, Unauthorized",
      "400, 100, InvalidData", "400, 3, Failed", "400, 12345, Failed"})
  @DisplayName("Meta answers are classified by the documented codes")
  void meta(int status, int code, String expected) {
    Outcome outcome = MetaErrors.classify(status, metaError(code, null, "x").toBuffer(), 0);

    assertThat(outcome.getClass().getSimpleName()).isEqualTo(expected);
  }

  @ParameterizedTest(name = "Meta {0}")
  @CsvSource({"200, Delivered", "502, Retry"})
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
      "200, 51065, Retry",
      "200, 40001, Unauthorized", "200, 40105, Unauthorized",
      "200, 40002, InvalidData", "200, 41234, Failed"})
  @DisplayName("TikTok answers are classified on the body code, even under HTTP 200")
  void tiktok(int status, int code, String expected) {
    Outcome outcome = TikTokCodes.classify(status, tiktokCode(code, "x").toBuffer(), 0);

    assertThat(outcome.getClass().getSimpleName()).isEqualTo(expected);
  }

  @ParameterizedTest(name = "TikTok HTTP {0} without a code -> {1}")
  @CsvSource({"503, Retry", "200, Retry", "404, Failed"})
  @DisplayName("a TikTok answer without a code is retried when it looks like an outage")
  void tiktokWithoutCode(int status, String expected) {
    assertThat(TikTokCodes.classify(status, Buffer.buffer("gateway"), 0).getClass().getSimpleName())
        .isEqualTo(expected);
  }
}
