package dev.eventrouter.config;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * @param apiKeyHashes          SHA-256 digests (32 bytes each) of the workspace's API keys; the keys are never kept
 * @param publishableKeys       keys that may only create click sessions, from their allowed origins
 * @param botName               the Telegram bot users are sent to ({@code t.me/<bot_name>?start=<session_id>}), or null
 * @param attributionWindowDays how far back the analytics source looks for an event with a session
 * @param integrations          where its events are forwarded
 * @param eventMap              overrides and additions to the default mapping table, by our event name
 * @param bots                  its Telegram bots (the connector), the first the default; empty when it has none
 * @param postbackSources       the partners that report its conversions by URL
 * @param unsubscribeWindowDays a subscriber who joined the channel through a per-visitor link and leaves within this
 *                              many days turns the JoinRequest conversion to rejected; 0 turns this off
 * @param alerts                where its alerts go and which conditions raise them
 * @param costSources           the ad accounts whose spend it imports
 * @param keys                  its keys with a role (docs/configuration.md, "Keys and roles"), beside apiKeyHashes
 */
public record WorkspaceConfig(UUID id, String name, List<byte[]> apiKeyHashes, List<PublishableKey> publishableKeys,
                              RateLimitConfig rateLimit,
                              String botName, int attributionWindowDays, List<IntegrationConfig> integrations,
                              Map<String, EventMappingOverride> eventMap, List<TelegramConfig> bots,
                              List<PostbackSource> postbackSources, int unsubscribeWindowDays,
                              ReportConfig report, AlertsConfig alerts, List<CostSourceConfig> costSources,
                              List<AccessKey> keys) {

  public WorkspaceConfig {
    bots = bots == null ? List.of() : List.copyOf(bots);
    costSources = List.copyOf(costSources);
    keys = List.copyOf(keys);
  }

  /** A workspace whose keys are its {@code api_keys} alone. */
  public WorkspaceConfig(UUID id, String name, List<byte[]> apiKeyHashes, List<PublishableKey> publishableKeys,
                         RateLimitConfig rateLimit, String botName, int attributionWindowDays,
                         List<IntegrationConfig> integrations, Map<String, EventMappingOverride> eventMap,
                         List<TelegramConfig> bots, List<PostbackSource> postbackSources, int unsubscribeWindowDays,
                         ReportConfig report, AlertsConfig alerts, List<CostSourceConfig> costSources) {
    this(id, name, apiKeyHashes, publishableKeys, rateLimit, botName, attributionWindowDays, integrations, eventMap,
        bots, postbackSources, unsubscribeWindowDays, report, alerts, costSources, List.of());
  }

  /** Every key that opens the workspace: each of {@code api_keys} as an admin, then {@code keys}. */
  public List<AccessKey> accessKeys() {
    List<AccessKey> all = new ArrayList<>();
    for (int i = 0; i < apiKeyHashes.size(); i++) {
      all.add(AccessKey.legacy(i, apiKeyHashes.get(i)));
    }
    all.addAll(keys);
    return all;
  }

  /** A workspace without cost sources. */
  public WorkspaceConfig(UUID id, String name, List<byte[]> apiKeyHashes, List<PublishableKey> publishableKeys,
                         RateLimitConfig rateLimit, String botName, int attributionWindowDays,
                         List<IntegrationConfig> integrations, Map<String, EventMappingOverride> eventMap,
                         List<TelegramConfig> bots, List<PostbackSource> postbackSources, int unsubscribeWindowDays,
                         ReportConfig report, AlertsConfig alerts) {
    this(id, name, apiKeyHashes, publishableKeys, rateLimit, botName, attributionWindowDays, integrations, eventMap,
        bots, postbackSources, unsubscribeWindowDays, report, alerts, List.of());
  }

  /** A workspace without alerts. */
  public WorkspaceConfig(UUID id, String name, List<byte[]> apiKeyHashes, List<PublishableKey> publishableKeys,
                         RateLimitConfig rateLimit, String botName, int attributionWindowDays,
                         List<IntegrationConfig> integrations, Map<String, EventMappingOverride> eventMap,
                         List<TelegramConfig> bots, List<PostbackSource> postbackSources, int unsubscribeWindowDays,
                         ReportConfig report) {
    this(id, name, apiKeyHashes, publishableKeys, rateLimit, botName, attributionWindowDays, integrations, eventMap,
        bots, postbackSources, unsubscribeWindowDays, report, AlertsConfig.NONE);
  }

  public static final int DEFAULT_ATTRIBUTION_WINDOW_DAYS = 28;
  public static final int DEFAULT_UNSUBSCRIBE_WINDOW_DAYS = 7;

  /** A workspace without postback sources, with the default unsubscribe window. */
  public WorkspaceConfig(UUID id, String name, List<byte[]> apiKeyHashes, List<PublishableKey> publishableKeys,
                         RateLimitConfig rateLimit, String botName, int attributionWindowDays,
                         List<IntegrationConfig> integrations, Map<String, EventMappingOverride> eventMap,
                         TelegramConfig telegram) {
    this(id, name, apiKeyHashes, publishableKeys, rateLimit, botName, attributionWindowDays, integrations, eventMap,
        telegram, List.of(), DEFAULT_UNSUBSCRIBE_WINDOW_DAYS);
  }

  /** A workspace whose report reads as by default. */
  public WorkspaceConfig(UUID id, String name, List<byte[]> apiKeyHashes, List<PublishableKey> publishableKeys,
                         RateLimitConfig rateLimit, String botName, int attributionWindowDays,
                         List<IntegrationConfig> integrations, Map<String, EventMappingOverride> eventMap,
                         TelegramConfig telegram, List<PostbackSource> postbackSources, int unsubscribeWindowDays) {
    this(id, name, apiKeyHashes, publishableKeys, rateLimit, botName, attributionWindowDays, integrations, eventMap,
        telegram == null ? List.of() : List.of(telegram), postbackSources, unsubscribeWindowDays, ReportConfig.DEFAULT);
  }

  /** The default bot (the first), or null when the workspace has no Telegram connector. */
  public TelegramConfig telegram() {
    return bots.isEmpty() ? null : bots.get(0);
  }

  /**
   * A bot by its key: "" for the default bot, whose webhook path and update keys carry no name (as with a single
   * bot), else its name (case-insensitive, as Telegram's usernames are); null when none.
   */
  public TelegramConfig bot(String key) {
    if (key == null || key.isEmpty()) {
      return telegram();
    }
    return bots.stream().filter(bot -> key.equalsIgnoreCase(bot.name())).findFirst().orElse(null);
  }

  /** The key of one of its bots: "" for the default bot, else the bot's name. */
  public String botKey(TelegramConfig bot) {
    return bot.equals(telegram()) ? "" : bot.name();
  }

  /** The bot that administers a channel (at most one does: the config refuses a channel under two), or null. */
  public TelegramConfig botOfChannel(String channel) {
    return bots.stream().filter(bot -> bot.channels().contains(channel)).findFirst().orElse(null);
  }

  /** A cost source by its id, or null. */
  public CostSourceConfig costSource(String sourceId) {
    return costSources.stream().filter(source -> source.id().equals(sourceId)).findFirst().orElse(null);
  }

  /** How the workspace is named to people (alerts): its name, else its id. */
  public String label() {
    return name.isBlank() ? id.toString() : name;
  }

  @Override
  public String toString() {
    return "WorkspaceConfig[" + id + " " + name + "]";
  }
}
