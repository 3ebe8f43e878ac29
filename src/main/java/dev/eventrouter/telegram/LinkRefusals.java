package dev.eventrouter.telegram;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.shareddata.AsyncMap;

import java.util.Map;

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

  /** Every refusal kept, by "workspace:channel". */
  public static Future<Map<String, String>> all(Vertx vertx) {
    return map(vertx).compose(AsyncMap::entries);
  }

  static Future<Void> refused(Vertx vertx, String channelKey, String words) {
    return map(vertx).compose(refusals -> refusals.put(channelKey, words, KEEP_MS));
  }

  static Future<Void> made(Vertx vertx, String channelKey) {
    return map(vertx).compose(refusals -> refusals.remove(channelKey)).mapEmpty();
  }

  private static Future<AsyncMap<String, String>> map(Vertx vertx) {
    return vertx.sharedData().getAsyncMap(MAP);
  }
}
