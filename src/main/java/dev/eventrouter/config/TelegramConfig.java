package dev.eventrouter.config;

/**
 * A workspace's Telegram bot, as its webhook receiver needs it.
 *
 * @param webhookSecret the secret Telegram sends in X-Telegram-Bot-Api-Secret-Token (set with setWebhook's
 *                      secret_token, https://core.telegram.org/bots/api#setwebhook); from {@code ${ENV}}
 * @param startEvent    the event a {@code /start <session_id>} records, or null for none (the session alone)
 */
public record TelegramConfig(String webhookSecret, String startEvent) {

  @Override
  public String toString() {
    return "TelegramConfig[start_event=" + startEvent + "]";
  }
}
