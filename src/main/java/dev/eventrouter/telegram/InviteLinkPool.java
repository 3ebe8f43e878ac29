package dev.eventrouter.telegram;

import dev.eventrouter.common.LogSafe;
import dev.eventrouter.config.LiveConfig;
import dev.eventrouter.config.TelegramConfig;
import dev.eventrouter.config.WorkspaceConfig;
import dev.eventrouter.store.TelegramStore;
import io.micrometer.core.instrument.MeterRegistry;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

/**
 * Keeps each workspace's pool of unused invite links full, so a capture takes a link from the table and never waits
 * on Telegram. Links are made one at a time; a refusal (429 with retry_after, 400 chat not found, 403 bot not an
 * admin) stops the workspace's filling for a while and is logged in Telegram's words, never with the token. One node
 * fills a workspace at a time (a cluster-wide lock), so the pool is not overfilled.
 */
final class InviteLinkPool {

  private static final Logger LOG = LoggerFactory.getLogger(InviteLinkPool.class);
  /** How long a workspace's filling rests after a refusal that gave no retry_after. */
  static final long REST_AFTER_REFUSAL_MS = 60_000;
  /** A link's name, shown to the channel's admins in its link list (at most 32 characters). */
  static final String LINK_NAME = "event-router";

  private final Vertx vertx;
  private final LiveConfig live;
  private final TelegramStore store;
  private final BotApi bot;
  private final MeterRegistry metrics;
  private final Map<UUID, Long> restingUntil = new HashMap<>();
  /** Workspaces this verticle is filling now: a burst of captures starts one fill, not one each... */
  private final Set<UUID> filling = new HashSet<>();
  /** ...and one more after it, for the links taken while it counted. */
  private final Set<UUID> again = new HashSet<>();

  InviteLinkPool(Vertx vertx, LiveConfig live, TelegramStore store, BotApi bot, MeterRegistry metrics) {
    this.vertx = vertx;
    this.live = live;
    this.store = store;
    this.bot = bot;
    this.metrics = metrics;
  }

  /** Tops up every workspace that makes invite links. */
  void fillAll() {
    for (WorkspaceConfig workspace : live.current().workspaces()) {
      if (workspace.telegram() != null && workspace.telegram().makesInviteLinks()) {
        fill(workspace.id());
      }
    }
  }

  /** Tops up one workspace's pool; completes with how many links it made. */
  Future<Integer> fill(UUID workspaceId) {
    TelegramConfig telegram = live.current().workspace(workspaceId).map(WorkspaceConfig::telegram).orElse(null);
    if (telegram == null || !telegram.makesInviteLinks()) {
      return Future.succeededFuture(0);
    }
    if (!filling.add(workspaceId)) {
      again.add(workspaceId);
      return Future.succeededFuture(0);
    }
    if (restingUntil.getOrDefault(workspaceId, 0L) > System.currentTimeMillis()) {
      filling.remove(workspaceId);
      return Future.succeededFuture(0);
    }
    // Held by whoever fills now; a second filler gives up at once instead of queueing behind it.
    return vertx.sharedData().getLockWithTimeout("event-router.telegram.links." + workspaceId, 1)
        .compose(lock -> store.freeLinks(workspaceId, telegram.channelId())
            .compose(free -> make(workspaceId, telegram, telegram.inviteLinkPool() - free, 0))
            .onComplete(done -> lock.release()), busy -> Future.succeededFuture(0))
        .recover(failure -> {
          LOG.warn("workspace {}: invite links not made: {}", workspaceId, describe(failure));
          return Future.succeededFuture(0);
        })
        .onComplete(done -> {
          filling.remove(workspaceId);
          if (again.remove(workspaceId)) {
            fill(workspaceId);
          }
        });
  }

  private Future<Integer> make(UUID workspaceId, TelegramConfig telegram, int missing, int made) {
    if (missing <= 0) {
      return Future.succeededFuture(made);
    }
    return bot.createInviteLink(telegram, LINK_NAME)
        .compose(link -> store.addLink(workspaceId, telegram.channelId(), link))
        .compose(added -> {
          count(workspaceId, "made");
          return make(workspaceId, telegram, missing - 1, made + 1);
        })
        .recover(failure -> {
          if (failure instanceof BotApi.Failure) {
            count(workspaceId, "refused");
          }
          long restMs = failure instanceof BotApi.Failure refused && refused.retryAfterSeconds() > 0
              ? refused.retryAfterSeconds() * 1000 : REST_AFTER_REFUSAL_MS;
          restingUntil.put(workspaceId, System.currentTimeMillis() + restMs);
          LOG.warn("workspace {}: Telegram made {} of the {} invite links wanted, next try in {} s: {}", workspaceId,
              made, made + missing, restMs / 1000, describe(failure));
          return Future.succeededFuture(made);
        });
  }

  private void count(UUID workspaceId, String outcome) {
    metrics.counter("event_router.telegram.invite_links", "workspace", workspaceId.toString(), "outcome", outcome)
        .increment();
  }

  private static String describe(Throwable failure) {
    return failure instanceof BotApi.Failure refused ? refused.getMessage() : LogSafe.describe(failure);
  }
}
