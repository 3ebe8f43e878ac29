package dev.eventrouter.forward;

import dev.eventrouter.config.DataProcessing;
import dev.eventrouter.config.EventMappingOverride;
import dev.eventrouter.config.IntegrationConfig;
import dev.eventrouter.config.Network;
import dev.eventrouter.config.RateLimitConfig;
import dev.eventrouter.config.WorkspaceConfig;
import dev.eventrouter.event.ClickData;
import dev.eventrouter.event.EventIds;
import dev.eventrouter.forward.meta.MetaApi;
import dev.eventrouter.forward.tiktok.TikTokApi;
import dev.eventrouter.forward.webhook.WebhookApi;
import dev.eventrouter.store.ClaimedDelivery;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/** The credential test's event and how the network's answer is told back. */
class CredentialCheckUnitTest {

  private static final String TOKEN = "tok-3f9a";
  private static final WorkspaceConfig WORKSPACE = new WorkspaceConfig(UUID.randomUUID(), "w", List.of(), List.of(),
      new RateLimitConfig(1, 1), null, 28, List.of(), Map.of("Won", new EventMappingOverride("Purchase", "Bought",
      null, true)), null);
  private static final IntegrationConfig META = integration(Network.META);
  private static final IntegrationConfig TIKTOK = integration(Network.TIKTOK);

  private static IntegrationConfig integration(Network network) {
    return new IntegrationConfig("i1", network, "123", TOKEN, "http://x", "v25.0", "chat", null, "TEST1", true, false,
        null, new DataProcessing(false, 0, 0), null);
  }

  private static ClaimedDelivery job() {
    return CredentialCheck.job(WORKSPACE, META, "REG", Instant.now(), ClickData.NONE);
  }

  @Test
  @DisplayName("the test event: mapped as the workspace maps it, a fixed test user, a value only for purchases, an "
      + "id of this instant, no click")
  void event() {
    Instant now = Instant.parse("2026-11-22T10:00:00Z");
    ClaimedDelivery reg = CredentialCheck.job(WORKSPACE, META, "REG", now, ClickData.NONE);
    assertThat(reg.mappedEvent()).isEqualTo("CompleteRegistration");
    assertThat(reg.value()).isNull();
    assertThat(reg.telegramId()).isEqualTo(CredentialCheck.TEST_TELEGRAM_ID);
    assertThat(reg.userValue("external_id")).isEqualTo(CredentialCheck.TEST_EXTERNAL_ID);
    assertThat(reg.workspaceId()).isEqualTo(WORKSPACE.id());
    assertThat(reg.integrationId()).isEqualTo("i1");
    assertThat(reg.receivedAt()).isEqualTo(now);
    assertThat(reg.attempts()).isZero();
    assertThat(reg.click()).isEqualTo(ClickData.NONE);
    assertThat(reg.limitedDataUse()).isNull();
    assertThat(reg.eventId()).isBetween(EventIds.firstIdAt(now), EventIds.firstIdAt(now.plusMillis(1)) - 1);

    ClaimedDelivery ftd = CredentialCheck.job(WORKSPACE, TIKTOK, "FTD", now, ClickData.NONE);
    assertThat(ftd.mappedEvent()).isEqualTo("CompletePayment");
    assertThat(ftd.value()).isEqualByComparingTo(BigDecimal.ONE);
    assertThat(ftd.currency()).isEqualTo("USD");
    assertThat(CredentialCheck.job(WORKSPACE, TIKTOK, "Won", now, ClickData.NONE).mappedEvent()).as("the workspace's own map")
        .isEqualTo("Bought");
  }

  @Test
  @DisplayName("each outcome's verdict, with the network's message (token redacted) and its HTTP status")
  void verdicts() {
    ClaimedDelivery job = job();
    JsonObject accepted = CredentialCheck.answered(job, META, new Outcome.Delivered(), 200,
        new JsonObject().put("events_received", 1));
    assertThat(accepted.getString("verdict")).isEqualTo("accepted");
    assertThat(accepted.getString("message")).isNull();
    assertThat(accepted.containsKey("message")).isTrue();
    assertThat(accepted.getInteger("http_status")).isEqualTo(200);
    assertThat(accepted.getJsonObject("response")).isEqualTo(new JsonObject().put("events_received", 1));
    assertThat(accepted.getString("integration_id")).isEqualTo("i1");
    assertThat(accepted.getString("network")).isEqualTo("meta");
    assertThat(accepted.getString("test_event_code")).isEqualTo("TEST1");
    assertThat(accepted.getString("event_id")).isEqualTo(EventIds.format(job.eventId()));
    assertThat(accepted.getString("event_name")).isEqualTo("CompleteRegistration");

    assertThat(verdict(new Outcome.Unauthorized("bad " + TOKEN))).containsEntry("verdict", "unauthorized")
        .containsEntry("message", "bad ***");
    assertThat(verdict(new Outcome.Retry("slow " + TOKEN, 0))).containsEntry("verdict", "unavailable")
        .containsEntry("message", "slow ***");
    assertThat(verdict(new Outcome.Unconfirmed("0 of 1 " + TOKEN))).containsEntry("verdict", "unconfirmed")
        .containsEntry("message", "0 of 1 ***");
    assertThat(verdict(new Outcome.InvalidData("field " + TOKEN))).containsEntry("verdict", "refused")
        .containsEntry("message", "field ***");
    assertThat(verdict(new Outcome.Failed("no " + TOKEN))).containsEntry("verdict", "refused")
        .containsEntry("message", "no ***");
  }

  private static Map<String, Object> verdict(Outcome outcome) {
    return CredentialCheck.answered(job(), META, outcome, 400, null).getMap();
  }

  @Test
  @DisplayName("the network's own answer: the token redacted, each text cut to its first 2,000 characters, inner "
      + "objects too; no answer of the network's own as null")
  void bodies() {
    ClaimedDelivery job = job();
    JsonObject json = CredentialCheck.answered(job, META, new Outcome.Failed("x"), 400,
        new JsonObject().put("error", new JsonObject().put("message", "token " + TOKEN).put("code", 190)));
    assertThat(json.getJsonObject("response")).isEqualTo(new JsonObject().put("error", new JsonObject()
        .put("message", "token ***").put("code", 190)));
    String page = TOKEN + "x".repeat(3_000);
    JsonObject cut = CredentialCheck.answered(job, META, new Outcome.Retry("x", 0), 502,
        new JsonObject().put("message", page).put("error", new JsonObject().put("message", page)));
    assertThat(cut.getJsonObject("response").getString("message")).hasSize(CredentialCheck.MAX_TEXT_CHARS)
        .startsWith("***x");
    assertThat(cut.getJsonObject("response").getJsonObject("error").getString("message"))
        .hasSize(CredentialCheck.MAX_TEXT_CHARS);
    String exact = "y".repeat(CredentialCheck.MAX_TEXT_CHARS);
    assertThat(CredentialCheck.answered(job, META, new Outcome.Retry("x", 0), 502,
        new JsonObject().put("message", exact)).getJsonObject("response").getString("message"))
        .as("at the limit: whole").isEqualTo(exact);
    JsonObject none = CredentialCheck.answered(job, META, new Outcome.Retry("x", 0), 502, null);
    assertThat(none.containsKey("response")).isTrue();
    assertThat(none.getValue("response")).isNull();
    assertThat(none.getInteger("http_status")).isEqualTo(502);
  }

  @Test
  @DisplayName("Meta's answer: its receipt or its error object, their documented fields only; any other body none")
  void metaAnswer() {
    NetworkApi meta = new MetaApi();
    assertThat(meta.answer(Buffer.buffer("{\"events_received\":1,\"messages\":[\"m\"],\"fbtrace_id\":\"T\","
        + "\"secret\":\"s\"}"))).isEqualTo(new JsonObject().put("events_received", 1)
        .put("messages", new JsonArray().add("m")).put("fbtrace_id", "T"));
    assertThat(meta.answer(Buffer.buffer("{\"error\":{\"message\":\"Invalid\",\"type\":\"OAuthException\","
        + "\"code\":190,\"error_subcode\":463,\"is_transient\":false,\"error_user_title\":\"t\","
        + "\"error_user_msg\":\"u\",\"fbtrace_id\":\"T\",\"echo\":\"s\",\"nested\":{\"a\":1}},\"other\":2}")))
        .isEqualTo(new JsonObject().put("error", new JsonObject().put("message", "Invalid")
            .put("type", "OAuthException").put("code", 190).put("error_subcode", 463).put("is_transient", false)
            .put("error_user_title", "t").put("error_user_msg", "u").put("fbtrace_id", "T")));
    assertThat(meta.answer(Buffer.buffer("{\"error\":{\"message\":{\"deep\":1},\"code\":[{\"x\":1}]}}")))
        .as("values that are no text, number, boolean or list of them are dropped")
        .isEqualTo(new JsonObject().put("error", new JsonObject()));
    assertThat(meta.answer(Buffer.buffer("{\"secret\":\"from another service\"}"))).isNull();
    assertThat(meta.answer(Buffer.buffer("{\"error\":\"text\"}"))).isNull();
    assertThat(meta.answer(Buffer.buffer("{\"events_received\":\"1\"}"))).isNull();
    assertThat(meta.answer(Buffer.buffer("<html>secret</html>"))).isNull();
    assertThat(meta.answer(Buffer.buffer())).isNull();
    assertThat(meta.answer(null)).isNull();
  }

  @Test
  @DisplayName("TikTok's answer: code, message and request id; a body without a numeric code none")
  void tiktokAnswer() {
    NetworkApi tiktok = new TikTokApi();
    assertThat(tiktok.answer(Buffer.buffer("{\"code\":40105,\"message\":\"bad\",\"request_id\":\"r\","
        + "\"data\":{\"secret\":1}}")))
        .isEqualTo(new JsonObject().put("code", 40105).put("message", "bad").put("request_id", "r"));
    assertThat(tiktok.answer(Buffer.buffer("{\"code\":\"0\",\"message\":\"s\"}"))).isNull();
    assertThat(tiktok.answer(Buffer.buffer("{\"message\":\"s\"}"))).isNull();
    assertThat(tiktok.answer(Buffer.buffer("plain"))).isNull();
  }

  @Test
  @DisplayName("a webhook receiver's body is never its own answer: whatever it says, none")
  void webhookAnswer() {
    NetworkApi webhook = new WebhookApi();
    assertThat(webhook.answer(Buffer.buffer("{\"error\":{\"message\":\"s\"},\"code\":1,\"message\":\"m\"}")))
        .isNull();
  }

  @Test
  @DisplayName("not sent (a URL the integration may not reach): 'refused' with why, no HTTP status, no response")
  void notSent() {
    JsonObject verdict = CredentialCheck.notSent(job(), META, "resolves to a private address");
    assertThat(verdict.getString("verdict")).isEqualTo("refused");
    assertThat(verdict.getString("message")).isEqualTo("resolves to a private address");
    assertThat(verdict.containsKey("http_status")).isFalse();
    assertThat(verdict.containsKey("response")).isFalse();
  }

  @Test
  @DisplayName("no answer: 'unavailable' with why, the token redacted, and no HTTP status")
  void unanswered() {
    JsonObject verdict = CredentialCheck.unanswered(job(), META, "timeout calling http://x?access_token=" + TOKEN);
    assertThat(verdict.getString("verdict")).isEqualTo("unavailable");
    assertThat(verdict.getString("message")).isEqualTo("timeout calling http://x?access_token=***");
    assertThat(verdict.containsKey("http_status")).isFalse();
    assertThat(verdict.containsKey("response")).isFalse();
  }
}
