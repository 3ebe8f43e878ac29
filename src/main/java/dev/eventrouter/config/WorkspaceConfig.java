package dev.eventrouter.config;

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
 * @param telegram              its bot's webhook settings, or null when it has no Telegram connector
 * @param postbackSources       the partners that report its conversions by URL
 * @param unsubscribeWindowDays a subscriber who joined the channel through a per-visitor link and leaves within this
 *                              many days turns the JoinRequest conversion to rejected; 0 turns this off
 */
public record WorkspaceConfig(UUID id, String name, List<byte[]> apiKeyHashes, List<PublishableKey> publishableKeys,
                              RateLimitConfig rateLimit,
                              String botName, int attributionWindowDays, List<IntegrationConfig> integrations,
                              Map<String, EventMappingOverride> eventMap, TelegramConfig telegram,
                              List<PostbackSource> postbackSources, int unsubscribeWindowDays,
                              ReportConfig report) {

  public static final int DEFAULT_ATTRIBUTION_WINDOW_DAYS = 28;
  public static final int DEFAULT_UNSUBSCRIBE_WINDOW_DAYS = 7;

  /** A workspace without postback sources, with the default unsubscribe window. */
  public WorkspaceConfig(UUID id, String name, List<byte[]> apiKeyHashes, List<PublishableKey> publishableKeys,
                         RateLimitConfig rateLimit, String botName, int attributionWindowDays,
                         List<IntegrationConfig> integrations, Map<String, EventMappingOverride> eventMap,
                         TelegramConfig telegram) {
    this(id, name, apiKeyHashes, publishableKeys, rateLimit, botName, attributionWindowDays, integrations, eventMap,
        telegram, List.of(), DEFAULT_UNSUBSCRIBE_WINDOW_DAYS, ReportConfig.DEFAULT);
  }

  /** A workspace whose report reads as by default. */
  public WorkspaceConfig(UUID id, String name, List<byte[]> apiKeyHashes, List<PublishableKey> publishableKeys,
                         RateLimitConfig rateLimit, String botName, int attributionWindowDays,
                         List<IntegrationConfig> integrations, Map<String, EventMappingOverride> eventMap,
                         TelegramConfig telegram, List<PostbackSource> postbackSources, int unsubscribeWindowDays) {
    this(id, name, apiKeyHashes, publishableKeys, rateLimit, botName, attributionWindowDays, integrations, eventMap,
        telegram, postbackSources, unsubscribeWindowDays, ReportConfig.DEFAULT);
  }

  @Override
  public String toString() {
    return "WorkspaceConfig[" + id + " " + name + "]";
  }
}
