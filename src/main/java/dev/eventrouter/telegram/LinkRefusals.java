package dev.eventrouter.telegram;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.shareddata.AsyncMap;

import java.util.Map;
import java.util.UUID;

/**
 * Telegram's last refusal to make a channel's invite links, in its own words ("createChatInviteLink: 400 Bad Request:
 * not enough rights to manage chat invite links"), by "workspace:channel", cluster-wide when clustered
 * (https://vertx.io/docs/vertx-core/java/#_asynchronous_shared_maps): what an alert of an empty pool quotes. Gone once
 * the channel's links are made again, or a while after the refusal.
 */
public final class LinkRefusals {

  private static final String MAP = "event-router.telegram.link-refusals";
  /** How long a refusal is quoted without a new one. */
  static final long KEEP_MS = 24L * 60 * 60 * 1000;

  private LinkRefusals() {}

  /** Every refusal kept, by {@link #key}. */
  public static Future<Map<String, String>> all(Vertx vertx) {
    return map(vertx).compose(AsyncMap::entries);
  }

  /** A channel's key among the refusals. */
  public static String key(UUID workspaceId, String channel) {
    return workspaceId + ":" + channel;
  }

  static Future<Void> refused(Vertx vertx, UUID workspaceId, String channel, String words) {
    return map(vertx).compose(refusals -> refusals.put(key(workspaceId, channel), words, KEEP_MS));
  }

  static Future<Void> made(Vertx vertx, UUID workspaceId, String channel) {
    return map(vertx).compose(refusals -> refusals.remove(key(workspaceId, channel))).mapEmpty();
  }

  private static Future<AsyncMap<String, String>> map(Vertx vertx) {
    return vertx.sharedData().getAsyncMap(MAP);
  }
}
