package dev.eventrouter.config;

import dev.eventrouter.common.Sha256;

/** Where a workspace's alerts go. */
public sealed interface AlertTarget {

  /**
   * The target's name in the alert outbox: a message queued for a target that a reload then removed is dropped, not
   * sent elsewhere. Never a secret.
   */
  String key();

  /**
   * A Telegram chat, sent to with the Bot API's sendMessage (https://core.telegram.org/bots/api#sendmessage).
   *
   * @param bot    the bot that sends: one of the workspace's connector bots, or one of the alerts' own (its token,
   *               api_base and proxy only)
   * @param chatId a chat's numeric id (a group's or channel's is negative) or a public channel's @username
   */
  record Telegram(TelegramConfig bot, String chatId) implements AlertTarget {
    @Override
    public String key() {
      return "telegram:" + chatId;
    }

    @Override
    public String toString() {
      return key();
    }
  }

  /**
   * A webhook, signed as webhook integrations are (the integration's secret is its HMAC key), through the same checks
   * of the address and the same proxy rules.
   */
  record Webhook(IntegrationConfig webhook) implements AlertTarget {
    @Override
    public String key() {
      // The URL may hold a credential in its query: only its digest is stored.
      return "webhook:" + Sha256.hex(webhook.webhook().url()).substring(0, 16);
    }

    @Override
    public String toString() {
      return key();
    }
  }
}
