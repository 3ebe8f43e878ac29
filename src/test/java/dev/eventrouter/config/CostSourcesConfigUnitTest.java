package dev.eventrouter.config;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.time.ZoneId;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** A workspace's {@code cost_sources}: Meta ad accounts and TikTok advertisers, their defaults and refusals. */
class CostSourcesConfigUnitTest {

  private static final String TOKEN = "EAAB-system-user-token-0123456789";

  private static JsonObject config(JsonObject... sources) {
    JsonObject workspace = new JsonObject().put("id", "7c9e6679-7425-40de-944b-e07fc1f90ae7")
        .put("api_keys", new JsonArray().add(ApiKeys.configValue("k1")));
    if (sources.length > 0) {
      workspace.put("cost_sources", new JsonArray(List.of((Object[]) sources)));
    }
    return new JsonObject().put("database", new JsonObject().put("url", (Object) null))
        .put("workspaces", new JsonArray().add(workspace));
  }

  private static List<CostSourceConfig> sources(JsonObject... sources) {
    return new ConfigLoader(Map.of("META_TOKEN", TOKEN)).resolve(config(sources)).workspaces().get(0).costSources();
  }

  private static String refusal(JsonObject... sources) {
    return assertThatThrownBy(() -> sources(sources)).isInstanceOf(ConfigException.class).actual().getMessage();
  }

  private static JsonObject meta() {
    return new JsonObject().put("id", "fb-main").put("type", "meta").put("ad_account_id", "1029384756")
        .put("access_token", "${META_TOKEN}");
  }

  private static JsonObject tiktok() {
    return new JsonObject().put("id", "tt").put("type", "tiktok").put("advertiser_id", "7123456789012345678")
        .put("access_token", "tt-token").put("timezone", "Asia/Singapore");
  }

  @Test
  @DisplayName("a workspace without cost sources has none")
  void none() {
    assertThat(sources()).isEmpty();
  }

  @Test
  @DisplayName("Meta: act_ added, the token from the environment, Graph's base and v25.0, polled every 30 min, "
      + "3 days re-read, 30 on the first poll, enabled")
  void metaDefaults() {
    CostSourceConfig source = sources(meta()).get(0);
    assertThat(source).isEqualTo(new CostSourceConfig("fb-main", "meta", "act_1029384756", TOKEN,
        "https://graph.facebook.com", "v25.0", null, null, false, 30, 3, 30, true));
    assertThat(source.toString()).doesNotContain(TOKEN).contains("act_1029384756");
    WorkspaceConfig workspace = new ConfigLoader(Map.of("META_TOKEN", TOKEN)).resolve(config(meta())).workspaces()
        .get(0);
    assertThat(workspace.costSource("fb-main")).isEqualTo(source);
    assertThat(workspace.costSource("fb")).isNull();
  }

  @Test
  @DisplayName("every setting is read: an act_ id kept as is, api_base's slash dropped, a proxy, the intervals")
  void metaSettings() {
    CostSourceConfig source = sources(meta().put("ad_account_id", "act_55").put("api_version", "v24.0")
        .put("api_base", "http://127.0.0.1:9/graph/").put("allow_private_network", true)
        .put("proxy", "http://proxy.example:3128").put("poll_interval_minutes", 15).put("lookback_days", 5)
        .put("initial_days", 90).put("enabled", false)).get(0);
    assertThat(source.account()).isEqualTo("act_55");
    assertThat(source.apiVersion()).isEqualTo("v24.0");
    assertThat(source.apiBase()).isEqualTo("http://127.0.0.1:9/graph");
    assertThat(source.allowPrivateNetwork()).isTrue();
    assertThat(source.proxy()).isNotNull();
    assertThat(List.of(source.pollIntervalMinutes(), source.lookbackDays(), source.initialDays()))
        .containsExactly(15, 5, 90);
    assertThat(source.enabled()).isFalse();
  }

  @Test
  @DisplayName("TikTok: the advertiser, the token, TikTok's base, and the zone its report's days are in")
  void tiktokSettings() {
    CostSourceConfig source = sources(tiktok()).get(0);
    assertThat(source).isEqualTo(new CostSourceConfig("tt", "tiktok", "7123456789012345678", "tt-token",
        "https://business-api.tiktok.com", null, ZoneId.of("Asia/Singapore"), null, false, 30, 3, 30, true));
  }

  @Test
  @DisplayName("TikTok's zone is required: the sources disagree whether its days are the advertiser's or UTC")
  void tiktokZoneRequired() {
    JsonObject noZone = tiktok();
    noZone.remove("timezone");
    assertThat(refusal(noZone)).contains("cost_sources[0].timezone: required");
    assertThat(refusal(tiktok().put("timezone", "Mars/Olympus"))).contains("cost_sources[0].timezone: required");
  }

  @ParameterizedTest(name = "{0} = {1}")
  @CsvSource(delimiter = '|', textBlock = """
      id                    | 'bad id!'                 | cost_sources[0].id: required
      type                  | google                    | cost_sources[0].type: required, "meta" or "tiktok"
      ad_account_id         | 12ab                      | cost_sources[0].ad_account_id: required
      api_version           | 25                        | cost_sources[0].api_version: must look like v25.0
      api_base              | ftp://x                   | cost_sources[0].api_base: must be an http(s) URL
      api_base              | http://127.0.0.1:9        | cost_sources[0].api_base: the host is a loopback
      poll_interval_minutes | 4                         | cost_sources[0].poll_interval_minutes
      lookback_days         | 31                        | cost_sources[0].lookback_days
      initial_days          | 366                       | cost_sources[0].initial_days
      timezone              | UTC                       | cost_sources[0].timezone: unknown key
      """)
  void metaRefusals(String key, String value, String message) {
    Object typed = value.matches("[0-9]+") && !key.equals("ad_account_id") && !key.equals("api_version")
        ? (Object) Integer.parseInt(value) : value;
    assertThat(refusal(meta().put(key, typed))).contains(message).doesNotContain(TOKEN);
  }

  @Test
  @DisplayName("a missing token or account is named, never quoted; two sources with one id are refused")
  void missing() {
    JsonObject noToken = meta();
    noToken.remove("access_token");
    assertThat(refusal(noToken)).contains("cost_sources[0].access_token: required");
    JsonObject noAdvertiser = tiktok();
    noAdvertiser.remove("advertiser_id");
    assertThat(refusal(noAdvertiser)).contains("cost_sources[0].advertiser_id: required, the advertiser's number");
    assertThat(refusal(tiktok().put("advertiser_id", "act_1"))).contains("cost_sources[0].advertiser_id");
    assertThat(refusal(meta(), meta())).contains("cost source").contains("fb-main");
  }
}
