package dev.eventrouter.api.sessions;

import dev.eventrouter.config.RateLimitConfig;
import dev.eventrouter.config.TelegramConfig;
import dev.eventrouter.config.WorkspaceConfig;
import dev.eventrouter.event.ClickSession;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/** Where a capture sends its visitor: the bot and channel it records, as the start and invite links go. */
class SessionsApiUnitTest {

  private static final UUID WS = UUID.fromString("7c9e6679-7425-40de-944b-e07fc1f90ae7");
  private static final TelegramConfig ALPHA = bot("alpha_bot", "-1001", "@alpha_ch");
  private static final TelegramConfig BETA = bot("beta_bot", "-1002");
  private static final TelegramConfig UNNAMED = bot(null, "-1003");

  private static TelegramConfig bot(String name, String... channels) {
    return new TelegramConfig(name, "s".repeat(16), null, "1:abcdefghijklmnopqrstuvwxyz", List.of(channels), 5,
        false, TelegramConfig.DEFAULT_API_BASE, null, null);
  }

  private static WorkspaceConfig workspace(String botName, List<TelegramConfig> bots) {
    return new WorkspaceConfig(WS, "w", List.of(), List.of(), RateLimitConfig.DEFAULT, botName, 28, List.of(),
        Map.of(), bots, List.of(), 7, dev.eventrouter.config.ReportConfig.DEFAULT);
  }

  private static String sentTo(WorkspaceConfig workspace, String bot, String channel) {
    ClickSession click = new ClickSession(WS, "s1", null, null, null, null, null, null, null, null, Instant.EPOCH,
        new JsonObject()).withOrigin(new ClickSession.Origin(new JsonObject().put("ad_id", "7"), bot, channel, "DE"));
    ClickSession.Origin origin = SessionsApi.sentTo(workspace, click).origin();
    assertThat(origin.ad()).isEqualTo(new JsonObject().put("ad_id", "7"));
    assertThat(origin.country()).isEqualTo("DE");
    return origin.bot() + " " + origin.channel();
  }

  @Test
  @DisplayName("naming nothing: the first bot and its first channel; a bot: its first channel; a channel: its bot")
  void bots() {
    WorkspaceConfig two = workspace("alpha_bot", List.of(ALPHA, BETA));
    assertThat(sentTo(two, null, null)).isEqualTo("alpha_bot -1001");
    assertThat(sentTo(two, "beta_bot", null)).isEqualTo("beta_bot -1002");
    assertThat(sentTo(two, "BETA_BOT", null)).as("a bot's name in any case").isEqualTo("BETA_BOT -1002");
    assertThat(sentTo(two, null, "-1002")).isEqualTo("beta_bot -1002");
    assertThat(sentTo(two, null, "@alpha_ch")).isEqualTo("alpha_bot @alpha_ch");
    assertThat(sentTo(two, "beta_bot", "@alpha_ch")).as("both named: as named").isEqualTo("beta_bot @alpha_ch");
    assertThat(sentTo(two, "gamma_bot", null)).as("a bot not configured: no channel").isEqualTo("gamma_bot null");
    assertThat(sentTo(two, null, "@other")).as("a channel no bot has: the workspace's bot")
        .isEqualTo("alpha_bot @other");
  }

  @Test
  @DisplayName("a workspace without a connector sends to its bot_name; an unnamed bot's channel to the bot_name")
  void noConnector() {
    assertThat(sentTo(workspace("promo_bot", List.of()), null, null)).isEqualTo("promo_bot null");
    assertThat(sentTo(workspace(null, List.of()), null, null)).isEqualTo("null null");
    assertThat(sentTo(workspace("promo_bot", List.of(UNNAMED)), null, null)).isEqualTo("promo_bot -1003");
  }
}
