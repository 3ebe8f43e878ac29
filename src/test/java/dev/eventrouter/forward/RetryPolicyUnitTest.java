package dev.eventrouter.forward;

import java.util.Map;
import dev.eventrouter.common.Backoff;
import dev.eventrouter.common.RetryAfter;
import dev.eventrouter.config.WebhookConfig;
import dev.eventrouter.config.DataProcessing;
import dev.eventrouter.config.Network;
import dev.eventrouter.config.IntegrationConfig;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Test;

import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** Backoff, Retry-After and token redaction: the small rules every retry goes through. */
class RetryPolicyUnitTest {

  @RepeatedTest(20)
  @DisplayName("backoff doubles per attempt, with equal jitter: between half and all of initial * 2^attempts")
  void backoffDoubles() {
    assertThat(Backoff.delayMs(0, 1000, 600_000)).isBetween(500L, 1000L);
    assertThat(Backoff.delayMs(1, 1000, 600_000)).isBetween(1000L, 2000L);
    assertThat(Backoff.delayMs(3, 1000, 600_000)).isBetween(4000L, 8000L);
  }

  @RepeatedTest(20)
  @DisplayName("backoff is capped at max, also when the doubling would overflow")
  void backoffCapped() {
    assertThat(Backoff.delayMs(10, 1000, 60_000)).isBetween(30_000L, 60_000L);
    assertThat(Backoff.delayMs(500, 1000, 60_000)).isBetween(30_000L, 60_000L);
    assertThat(Backoff.delayMs(62, Long.MAX_VALUE / 4, 60_000)).isBetween(30_000L, 60_000L);
  }

  @Test
  @DisplayName("the jitter reaches both ends of its range; a doubling that overflows to exactly 0 is capped too")
  void backoffEdges() {
    java.util.Set<Long> seen = new java.util.HashSet<>();
    for (int i = 0; i < 200; i++) {
      seen.add(Backoff.delayMs(0, 2, 600_000));
    }
    assertThat(seen).containsExactlyInAnyOrder(1L, 2L);
    assertThat(Backoff.delayMs(30, 1L << 34, 60_000)).as("2^34 << 30 wraps to 0").isBetween(30_000L, 60_000L);
  }

  @Test
  @DisplayName("the region tables load whole: the US states and every country by code and name")
  void regionTables() {
    assertThat(Regions.load()).isEqualTo(Regions.US_STATES.size() + Regions.COUNTRIES.size()).isGreaterThan(300);
  }

  @Test
  @DisplayName("backoff is never 'at once', and its jitter really varies")
  void backoffNeverZero() {
    List<Long> delays = java.util.stream.IntStream.range(0, 200).mapToObj(i -> Backoff.delayMs(0, 1000, 600_000))
        .toList();
    assertThat(delays).allSatisfy(d -> assertThat(d).isGreaterThanOrEqualTo(500));
    assertThat(delays.stream().distinct().count()).isGreaterThan(10);
  }

  @Test
  @DisplayName("Retry-After in seconds, as an HTTP date, absent or unreadable")
  void retryAfter() {
    assertThat(RetryAfter.millis(response("120"))).isEqualTo(120_000);
    assertThat(RetryAfter.millis(response(" 3 "))).isEqualTo(3_000);
    assertThat(RetryAfter.millis(response("-5"))).isZero();
    assertThat(RetryAfter.millis(response(null))).isZero();
    assertThat(RetryAfter.millis(response("soon"))).isZero();
    String inAMinute = DateTimeFormatter.RFC_1123_DATE_TIME.format(ZonedDateTime.now(ZoneOffset.UTC).plusSeconds(60));
    assertThat(RetryAfter.millis(response(inAMinute))).isBetween(55_000L, 60_000L);
    String past = DateTimeFormatter.RFC_1123_DATE_TIME.format(ZonedDateTime.now(ZoneOffset.UTC).minusSeconds(60));
    assertThat(RetryAfter.millis(response(past))).isZero();
  }

  @Test
  @DisplayName("a token is redacted as written and URL-encoded; text without it, or no token, is left as it is")
  void redact() {
    String token = "EAAB/x+y=z";
    assertThat(Redact.token("GET /events?access_token=EAAB%2Fx%2By%3Dz timed out", token))
        .isEqualTo("GET /events?access_token=*** timed out");
    assertThat(Redact.token("token EAAB/x+y=z refused", token)).isEqualTo("token *** refused");
    assertThat(Redact.token("nothing secret", token)).isEqualTo("nothing secret");
    assertThat(Redact.token("kept", "")).isEqualTo("kept");
    assertThat(Redact.token("kept", null)).isEqualTo("kept");
    assertThat(Redact.token(null, token)).isNull();
  }

  @Test
  @DisplayName("an integration's secrets: its token, and each webhook header value, whole and by its long words")
  void redactSecrets() {
    IntegrationConfig hook = new IntegrationConfig("w", Network.WEBHOOK, null, "whsec-0123456789ab", null, null, null,
        null, null, true, false, null, DataProcessing.NONE, new WebhookConfig("http://x", "POST",
        Map.of("Authorization", "Bearer tok-12345678", "X-Keys", "key-a-123456,short",
            "X-Edge", "exactly8 seven-7"), Map.of()));
    assertThat(Redact.secrets("sig whsec-0123456789ab, header Bearer tok-12345678, echo tok-12345678", hook))
        .isEqualTo("sig ***, header ***, echo ***");
    assertThat(Redact.secrets("keys key-a-123456 and short and Bearer", hook))
        .as("words under 8 characters are not secrets on their own").isEqualTo("keys *** and short and Bearer");
    assertThat(Redact.secrets("whole key-a-123456,short", hook)).isEqualTo("whole ***");
    assertThat(Redact.secrets("exactly8 and seven-7", hook)).isEqualTo("*** and seven-7");
    IntegrationConfig meta = new IntegrationConfig("m", Network.META, "1", "EAAB-token", "http://x", "v25.0", "chat",
        null, null, true, false, null, DataProcessing.NONE, null);
    assertThat(Redact.secrets("refused EAAB-token", meta)).isEqualTo("refused ***");
  }

  private static String response(String retryAfter) {
    return retryAfter;
  }
}
