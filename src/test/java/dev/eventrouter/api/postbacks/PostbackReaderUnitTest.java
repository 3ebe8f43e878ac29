package dev.eventrouter.api.postbacks;

import dev.eventrouter.config.ApiKeys;
import dev.eventrouter.config.ConfigLoader;
import dev.eventrouter.config.PostbackSource;
import dev.eventrouter.config.WorkspaceConfig;
import dev.eventrouter.event.Postback;
import dev.eventrouter.http.ApiException;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** How a partner's parameters are read: synonyms, words, macros, the documented errors, what the log keeps. */
class PostbackReaderUnitTest {

  private static final Instant NOW = Instant.parse("2026-11-24T10:00:00Z");

  private static WorkspaceConfig workspace(JsonObject source) {
    JsonObject config = new JsonObject().put("database", new JsonObject().put("url", (Object) null))
        .put("workspaces", new JsonArray().add(new JsonObject().put("id", "7c9e6679-7425-40de-944b-e07fc1f90ae7")
            .put("api_keys", new JsonArray().add(ApiKeys.configValue("k1")))
            .put("postback_sources", new JsonArray().add(source.put("id", "p")
                .put("token", ApiKeys.configValue("token-0123456789abcdefghij"))))));
    return new ConfigLoader(Map.of()).resolve(config).workspaces().get(0);
  }

  private static Postback read(WorkspaceConfig workspace, Map<String, String> params) {
    PostbackSource source = workspace.postbackSources().get(0);
    return PostbackReader.read(sent(params), workspace, source, "GET", NOW);
  }

  private static PostbackParams sent(Map<String, String> params) {
    return new PostbackParams(params.entrySet().stream()
        .map(e -> new PostbackParams.Param(e.getKey(), e.getValue())).toList(), List.of());
  }

  /** The parameter holding a macro, for a source with the default names. */
  private static String unexpanded(Map<String, String> params) {
    return PostbackReader.unexpanded(sent(params),
        PostbackReader.readNames(workspace(new JsonObject()).postbackSources().get(0)));
  }

  private static Map<String, String> params(String... pairs) {
    Map<String, String> params = new LinkedHashMap<>();
    for (int i = 0; i < pairs.length; i += 2) {
      params.put(pairs[i], pairs[i + 1]);
    }
    return params;
  }

  @Test
  @DisplayName("the synonyms partners use, any case: click id, event word, payout, status word, transaction id")
  void synonyms() {
    Postback postback = read(workspace(new JsonObject()), params("AFF_CLICK_ID", "ses_1", "goal", "First_Deposit",
        "revenue", "12.50", "currency", "eur", "status", "Hold", "txid", "X-9", "tg_id", "4242"));
    assertThat(postback.clickId()).isEqualTo("ses_1");
    assertThat(postback.eventName()).isEqualTo("FTD");
    assertThat(postback.value()).isEqualByComparingTo(new BigDecimal("12.5"));
    assertThat(postback.currency()).isEqualTo("EUR");
    assertThat(postback.status()).isEqualTo("pending");
    assertThat(postback.transactionId()).isEqualTo("X-9");
    assertThat(postback.telegramId()).isEqualTo(4242L);
  }

  @Test
  @DisplayName("without status a postback is approved; without currency the source's default; an unknown event word "
      + "that is a valid name passes through as a custom event")
  void defaults() {
    Postback postback = read(workspace(new JsonObject().put("default_currency", "GBP")),
        params("subid", "ses_2", "event", "kyc_passed"));
    assertThat(postback.status()).isEqualTo("approved");
    assertThat(postback.currency()).isEqualTo("GBP");
    assertThat(postback.eventName()).isEqualTo("kyc_passed");
  }

  @ParameterizedTest
  @ValueSource(strings = {"{subid}", "{{click_id}}", "[SUBID]", "%subid%", "$subid", "ses_{sub_id}",
      "{ clickid }"})
  @DisplayName("each macro form a partner may leave unexpanded is found, naming its parameter")
  void macros(String value) {
    assertThat(unexpanded(params("goal", "ftd", "subid", value))).isEqualTo("subid");
  }

  @ParameterizedTest
  @ValueSource(strings = {"#s2#", "#price#", "__SUBID__", "__sub_id__", "<TRACKER>", "<click_id>", " #tid# "})
  @DisplayName("CAKE's #s2#, Rewarded Media's __SUBID__ and MoarTraffic's <TRACKER>, left whole in a value the "
      + "source reads, are unexpanded macros")
  void wholeMacros(String value) {
    assertThat(unexpanded(params("goal", "ftd", "payout", value))).isEqualTo("payout");
    assertThat(unexpanded(params("comment", value, "subid", "s"))).as("a value the source does not read").isNull();
  }

  @ParameterizedTest
  @ValueSource(strings = {"#1#x", "a#s2#", "__SUBID", "SUB__ID__", "__x__y", "<a>b", "x<TRACKER>", "#", "##",
      "____", "<>", "<1a>", "#1a#", "__a_b__c"})
  @DisplayName("a value that only holds those signs among others is not taken for one")
  void notWholeMacros(String value) {
    assertThat(unexpanded(params("subid", value))).isNull();
  }

  @Test
  @DisplayName("an amount is never stored under the default currency when the postback names an empty one; without "
      + "an amount the default does")
  void emptyCurrency() {
    WorkspaceConfig workspace = workspace(new JsonObject().put("default_currency", "EUR"));
    assertThatThrownBy(() -> read(workspace, params("subid", "s", "goal", "ftd", "payout", "5", "Currency", " ")))
        .isInstanceOfSatisfying(ApiException.class, e -> assertThat(e.toJson().encode())
            .contains("\"field\":\"Currency\"").contains("is empty").contains("(EUR)"));
    assertThat(read(workspace, params("subid", "s", "goal", "reg", "currency", "")).currency()).isEqualTo("EUR");
    assertThat(read(workspace, params("subid", "s", "goal", "ftd", "payout", "5")).currency()).isEqualTo("EUR");
  }

  @Test
  @DisplayName("a field the source reads that arrives twice with different values, or with a NUL, is refused naming "
      + "it, and nothing else is judged")
  void ambiguous() {
    WorkspaceConfig workspace = workspace(new JsonObject());
    PostbackSource source = workspace.postbackSources().get(0);
    PostbackParams twice = new PostbackParams(List.of(new PostbackParams.Param("subid", "A"),
        new PostbackParams.Param("goal", "nope/word"), new PostbackParams.Param("subid", "B")), List.of());
    assertThatThrownBy(() -> PostbackReader.read(twice, workspace, source, "GET", NOW))
        .isInstanceOfSatisfying(ApiException.class, e -> assertThat(e.toJson().getJsonObject("error")
            .getJsonArray("details")).containsExactly(new JsonObject().put("field", "subid")
            .put("message", "sent 2 times with different values; the partner must send it once")));
    assertThatThrownBy(() -> read(workspace, params("subid", "s", "goal", "ftd", "payout", "1\u00000")))
        .isInstanceOfSatisfying(ApiException.class, e -> assertThat(e.toJson().encode())
            .contains("\"field\":\"payout\"").contains("NUL"));
    assertThat(read(workspace, params("subid", "s", "goal", "reg", "note", "a\u0000b")).params().getString("note"))
        .isEqualTo("ab");
  }

  @Test
  @DisplayName("the names a source reads: every name of every field, in lower case")
  void readNames() {
    assertThat(PostbackReader.readNames(workspace(new JsonObject().put("params", new JsonObject()
            .put("click_id", new JsonArray().add("Sub1").add("AFF_SUB")).put("value", "Sum")))
        .postbackSources().get(0)))
        .contains("sub1", "aff_sub", "sum", "goal", "currency", "tid", "tg_id").doesNotContain("subid", "payout");
  }

  @ParameterizedTest
  @ValueSource(strings = {"ses_1", "$10", "50%", "a-b_c", "[1]"})
  @DisplayName("values that are not macros are not taken for one")
  void notMacros(String value) {
    assertThat(unexpanded(params("subid", value))).isNull();
  }

  @Test
  @DisplayName("bad values get validation_failed naming the partner's parameter: number, currency, status word, "
      + "missing click id, a monetary event without payout")
  void errors() {
    WorkspaceConfig workspace = workspace(new JsonObject());
    assertThatThrownBy(() -> read(workspace, params("subid", "s", "goal", "ftd", "payout", "-1")))
        .isInstanceOfSatisfying(ApiException.class, e -> assertThat(e.toJson().encode())
            .contains("validation_failed").contains("\"field\":\"payout\""));
    assertThatThrownBy(() -> read(workspace, params("subid", "s", "goal", "reg", "currency", "XYZ")))
        .isInstanceOfSatisfying(ApiException.class, e -> assertThat(e.toJson().encode())
            .contains("\"field\":\"currency\""));
    assertThatThrownBy(() -> read(workspace, params("subid", "s", "goal", "reg", "status", "maybe")))
        .isInstanceOfSatisfying(ApiException.class, e -> assertThat(e.toJson().encode())
            .contains("\"field\":\"status\"").contains("unknown status word"));
    assertThatThrownBy(() -> read(workspace, params("goal", "reg")))
        .isInstanceOfSatisfying(ApiException.class, e -> assertThat(e.toJson().encode())
            .contains("\"field\":\"subid\""));
    assertThatThrownBy(() -> read(workspace, params("subid", "s", "goal", "ftd")))
        .isInstanceOfSatisfying(ApiException.class, e -> assertThat(e.toJson().encode())
            .contains("required for FTD events"));
  }

  @Test
  @DisplayName("a click id that is not one says what it must be: a session id, or a Telegram user's")
  void clickIdMessages() {
    assertThatThrownBy(() -> read(workspace(new JsonObject()), params("subid", "ses 1", "goal", "reg")))
        .isInstanceOfSatisfying(ApiException.class, e -> assertThat(e.toJson().encode())
            .contains("must be a session id (1 to 64 of A-Z a-z 0-9 _ -)"));
    assertThatThrownBy(() -> read(workspace(new JsonObject().put("click_id_holds", "telegram_id")),
        params("subid", "ses_1", "goal", "reg")))
        .isInstanceOfSatisfying(ApiException.class, e -> assertThat(e.toJson().encode())
            .contains("must be a Telegram user id (a positive whole number)"));
  }

  @Test
  @DisplayName("a click id that holds a Telegram user must be one")
  void telegramClickId() {
    WorkspaceConfig workspace = workspace(new JsonObject().put("click_id_holds", "telegram_id"));
    assertThat(read(workspace, params("subid", "777", "goal", "reg")).clickId()).isEqualTo("777");
    assertThatThrownBy(() -> read(workspace, params("subid", "ses_1", "goal", "reg")))
        .isInstanceOf(ApiException.class);
  }

  @Test
  @DisplayName("the log keeps what was sent, credentials and user data masked")
  void logged() {
    JsonObject logged = sent(params("subid", "s1", "api_key", "secret-1", "email", "a@b.co",
        "phone", "123", "sign", "abc", "payout", "5")).logged();
    assertThat(logged).isEqualTo(new JsonObject().put("subid", "s1").put("api_key", "***").put("email", "***")
        .put("phone", "***").put("sign", "***").put("payout", "5"));
  }

  @Test
  @DisplayName("the edges of each field: a blank value falls to the next name, the default event, zero and the "
      + "largest value, Telegram ids at their bounds, and every field's own error")
  void edges() {
    WorkspaceConfig workspace = workspace(new JsonObject().put("default_event", "FTD"));
    Postback postback = read(workspace, params("subid", " ", "click_id", "ses_9", "payout", "0"));
    assertThat(postback.clickId()).isEqualTo("ses_9");
    assertThat(postback.eventName()).as("the source's default event").isEqualTo("FTD");
    assertThat(postback.value()).isEqualByComparingTo(BigDecimal.ZERO);
    assertThat(read(workspace, params("subid", "s", "payout", "1000000000")).value())
        .isEqualByComparingTo(new BigDecimal("1000000000"));
    assertThat(read(workspace, params("subid", "s", "payout", "1", "tg_id", "9223372036854775807")).telegramId())
        .isEqualTo(Long.MAX_VALUE);
    assertThat(read(workspace, params("subid", "s", "payout", "1", "tg_id", "1")).telegramId()).isEqualTo(1L);
    assertThat(read(workspace, params("subid", "s", "payout", "1")).telegramId()).isNull();
    for (Map<String, String> bad : List.of(
        params("subid", "s", "payout", "1000000000.01"),
        params("subid", "s", "payout", "NaN"),
        params("subid", "s", "payout", "1", "tg_id", "0"),
        params("subid", "s", "payout", "1", "tg_id", "9999999999999999999"),
        params("subid", "s", "payout", "1", "tg_id", "-5"),
        params("subid", "s", "payout", "1", "tid", "has space"),
        params("subid", "s", "payout", "1", "tid", "x".repeat(201)),
        params("subid", "ses 1", "payout", "1"),
        params("subid", "s", "payout", "1", "goal", "bad/word"))) {
      assertThatThrownBy(() -> read(workspace, bad)).as(bad.toString()).isInstanceOf(ApiException.class);
    }
    assertThat(read(workspace, params("subid", "s", "payout", "1", "tid", "x".repeat(200))).transactionId())
        .hasSize(200);
    assertThatThrownBy(() -> read(workspace(new JsonObject()), params("subid", "s")))
        .isInstanceOfSatisfying(ApiException.class, e -> assertThat(e.toJson().encode())
            .contains("\"field\":\"event\"").contains("default_event"));
    WorkspaceConfig byUser = workspace(new JsonObject().put("click_id_holds", "telegram_id"));
    assertThatThrownBy(() -> read(byUser, params("subid", "0", "goal", "reg"))).isInstanceOf(ApiException.class);
    assertThatThrownBy(() -> read(byUser, params("subid", "12a", "goal", "reg"))).isInstanceOf(ApiException.class);
  }

  @Test
  @DisplayName("a logged value is cut after 500 characters")
  void cut() {
    JsonObject logged = sent(params("a", "x".repeat(500), "b", "y".repeat(501))).logged();
    assertThat(logged.getString("a")).hasSize(500);
    assertThat(logged.getString("b")).isEqualTo("y".repeat(500) + "...");
  }

  @Test
  @DisplayName("a non-ISO unit the workspace maps is read as its ISO code")
  void currencyAlias() {
    JsonObject config = new JsonObject().put("database", new JsonObject().put("url", (Object) null))
        .put("workspaces", new JsonArray().add(new JsonObject().put("id", "7c9e6679-7425-40de-944b-e07fc1f90ae7")
            .put("api_keys", new JsonArray().add(ApiKeys.configValue("k1")))
            .put("currency_aliases", new JsonObject().put("usdt", "usd"))
            .put("postback_sources", new JsonArray().add(new JsonObject().put("id", "p")
                .put("token", ApiKeys.configValue("token-0123456789abcdefghij"))))));
    WorkspaceConfig aliased = new ConfigLoader(Map.of()).resolve(config).workspaces().get(0);
    assertThat(read(aliased, params("AFF_CLICK_ID", "ses_1", "goal", "First_Deposit", "revenue",
        "5", "currency", "USDT")).currency()).isEqualTo("USD");
  }
}
