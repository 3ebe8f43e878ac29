package dev.eventrouter.forward;

import dev.eventrouter.forward.meta.MetaApi;
import dev.eventrouter.forward.meta.MetaErrors;
import dev.eventrouter.forward.tiktok.TikTokApi;
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
  @CsvSource({"200, Delivered", "299, Delivered", "502, Retry", "400, Retry", "199, Retry"})
  @DisplayName("Meta 2xx is delivered; an error without Meta's body (an HTML page) is retried")
  void metaWithoutErrorBody(int status, String expected) {
    assertThat(MetaErrors.classify(status, Buffer.buffer("<html>Bad Gateway</html>"), 0).getClass().getSimpleName())
        .isEqualTo(expected);
  }

  @ParameterizedTest(name = "Meta {0}")
  @CsvSource({"300", "301", "302", "303", "307", "308", "399"})
  @DisplayName("a redirect from Meta's api_base fails for good, never followed, whatever its body")
  void metaRedirect(int status) {
    Outcome.Failed expected = new Outcome.Failed("meta HTTP " + status + " (redirects are not followed)");
    assertThat(MetaErrors.classify(status, Buffer.buffer("<html>Moved</html>"), 0)).isEqualTo(expected);
    assertThat(MetaErrors.classify(status, metaError(2, null, "x").toBuffer(), 0)).isEqualTo(expected);
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
      "200, 0, Delivered", "200, 20001, Delivered", // 20001's receipt makes it unconfirmed: see receipts()
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

  @Test
  @DisplayName("receipts: Meta's events_received below the events sent, or TikTok's 20001, is unconfirmed, in the "
      + "network's words; a full count, no count, or an error answer is left to the error tables")
  void receipts() {
    MetaApi meta = new MetaApi();
    Buffer three = new JsonObject().put("events_received", 3).put("fbtrace_id", "x").toBuffer();
    assertThat(meta.verdict(200, three, 0, 5)).isEqualTo(new Outcome.Unconfirmed(
        "meta acknowledged 3 of the 5 events of this request (events_received) and does not say which"));
    assertThat(meta.verdict(200, three, 0, 3)).isInstanceOf(Outcome.Delivered.class);
    assertThat(meta.verdict(200, three, 0, 2)).as("more than sent: nothing missing").isInstanceOf(
        Outcome.Delivered.class);
    assertThat(meta.verdict(200, new JsonObject().put("events_received", "3").toBuffer(), 0, 5))
        .as("not a number: no count").isInstanceOf(Outcome.Delivered.class);
    assertThat(meta.verdict(200, new JsonObject().put("fbtrace_id", "x").toBuffer(), 0, 5))
        .isInstanceOf(Outcome.Delivered.class);
    assertThat(meta.verdict(200, Buffer.buffer("OK"), 0, 5)).isInstanceOf(Outcome.Delivered.class);
    assertThat(meta.verdict(200, null, 0, 5)).isInstanceOf(Outcome.Delivered.class);
    assertThat(meta.verdict(400, metaError(100, null, "x").put("events_received", 0).toBuffer(), 0, 5))
        .isInstanceOf(Outcome.InvalidData.class);
    assertThat(MetaErrors.classify(400, Buffer.buffer("{\"error\":\"text\"}"), 0))
        .as("an error that is not Meta's object: no verdict from Meta").isInstanceOf(Outcome.Retry.class);

    TikTokApi tiktok = new TikTokApi();
    assertThat(tiktok.verdict(200, tiktokCode(20001, "Partial success: 1 of 2 events failed").toBuffer(), 0, 2))
        .isEqualTo(new Outcome.Unconfirmed(
            "tiktok code 20001 (partial success): Partial success: 1 of 2 events failed"));
    assertThat(tiktok.verdict(200, new JsonObject().put("code", 20001).toBuffer(), 0, 2))
        .isEqualTo(new Outcome.Unconfirmed("tiktok code 20001 (partial success): "));
    assertThat(tiktok.verdict(200, tiktokCode(0, "OK").toBuffer(), 0, 2)).isInstanceOf(Outcome.Delivered.class);
    assertThat(TikTokCodes.shortfall(Buffer.buffer("{\"code\":\"20001\"}"))).isNull();
    assertThat(TikTokCodes.shortfall(Buffer.buffer("gateway"))).isNull();
    assertThat(tiktok.verdict(200, tiktokCode(40002, "x").toBuffer(), 0, 2)).isInstanceOf(
        Outcome.InvalidData.class);
  }
}
