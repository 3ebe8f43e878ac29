package dev.eventrouter.telegram;

import dev.eventrouter.common.LogSafe;
import dev.eventrouter.common.Sha256;
import dev.eventrouter.config.LiveConfig;
import dev.eventrouter.config.TelegramConfig;
import dev.eventrouter.config.WorkspaceConfig;
import dev.eventrouter.store.TelegramStore;
import io.micrometer.core.instrument.MeterRegistry;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.shareddata.AsyncMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.Set;
import java.util.UUID;

/**
 * Keeps each workspace's pool of unused invite links full, so a capture takes a link from the table and never waits
 * on Telegram. Links are made one at a time; a refusal (429 with retry_after, 400 chat not found, 403 bot not an
 * admin) stops the workspace's filling for a while and is logged in Telegram's words, never with the token. One node
 * fills a workspace at a time (a cluster-wide lock), and the rest after a refusal is cluster-wide too, so no other
 * node calls Telegram during a flood wait. Each link expires with the workspace's attribution window: a join after it
 * would be attributed to nothing anyway, and the channel's link list does not grow without end.
 */
final class InviteLinkPool {

  private static final Logger LOG = LoggerFactory.getLogger(InviteLinkPool.class);
  /** How long a workspace's filling rests after a refusal that gave no retry_after. */
  static final long REST_AFTER_REFUSAL_MS = 60_000;
  /** A link's name, shown to the channel's admins in its link list (at most 32 characters). */
  static final String LINK_NAME = "event-router";
  private static final String LOCKS = "event-router.telegram.links.";
  private static final String RESTS = "event-router.telegram.link-rests";

  private final Vertx vertx;
  private final LiveConfig live;
  private final TelegramStore store;
  private final BotApi bot;
  private final MeterRegistry metrics;
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
    live.current().workspaces().forEach(workspace -> fill(workspace.id()));
  }

  /** Tops up one workspace's pool; completes with how many links it made. */
  Future<Integer> fill(UUID workspaceId) {
    WorkspaceConfig workspace = live.current().workspace(workspaceId).orElse(null);
    if (workspace == null || workspace.telegram() == null || !workspace.telegram().makesInviteLinks()) {
      return Future.succeededFuture(0);
    }
    if (!filling.add(workspaceId)) {
      again.add(workspaceId);
      return Future.succeededFuture(0);
    }
    // Held by whoever fills now; a second filler gives up at once instead of queueing behind it.
    return vertx.sharedData().getLockWithTimeout(LOCKS + workspaceId, 1)
        .compose(lock -> topUp(workspace).onComplete(done -> lock.release()), busy -> Future.succeededFuture(0))
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

  /** Under the lock: unless resting, makes the links the pool lacks. */
  private Future<Integer> topUp(WorkspaceConfig workspace) {
    TelegramConfig telegram = workspace.telegram();
    Duration lifetime = Duration.ofDays(workspace.attributionWindowDays());
    return resting(restKey(workspace.id(), telegram)).compose(resting -> resting ? Future.succeededFuture(0)
        : store.freeLinks(workspace.id(), telegram.channelId())
            .compose(free -> make(workspace.id(), telegram, lifetime, telegram.inviteLinkPool() - free, 0)));
  }

  private Future<Integer> make(UUID workspaceId, TelegramConfig telegram, Duration lifetime, int missing, int made) {
    if (missing <= 0) {
      return Future.succeededFuture(made);
    }
    Instant expires = Instant.now().plus(lifetime);
    return bot.createInviteLink(telegram, LINK_NAME, expires)
        .compose(link -> store.addLink(workspaceId, telegram.channelId(), link, expires))
        .compose(added -> {
          count(workspaceId, "made");
          return make(workspaceId, telegram, lifetime, missing - 1, made + 1);
        })
        .recover(failure -> {
          boolean refused = failure instanceof BotApi.Failure;
          long asked = refused ? ((BotApi.Failure) failure).retryAfterSeconds() * 1000 : 0;
          long restMs = asked > 0 ? asked : REST_AFTER_REFUSAL_MS;
          if (refused) {
            count(workspaceId, "refused");
          }
          LOG.warn("workspace {}: Telegram made {} of the {} invite links wanted, next try in {} s: {}", workspaceId,
              made, made + missing, restMs / 1000, describe(failure));
          long until = System.currentTimeMillis() + restMs;
          // The next try when the rest ends, as logged: the periodic check alone would come up to 30 s later.
          vertx.setTimer(restMs, id -> fill(workspaceId));
          return rests().compose(rests -> rests.put(restKey(workspaceId, telegram), until, restMs)).map(made);
        });
  }

  /** Whether a node was told to wait (a 429's retry_after, or a rest after a refusal) and the wait is not over. */
  private Future<Boolean> resting(String key) {
    return rests().compose(rests -> rests.get(key))
        .map(until -> until != null && until > System.currentTimeMillis());
  }

  /**
   * A rest belongs to the bot and channel that were refused: a config with another token or channel (the usual fix
   * for a 403) tries at once.
   */
  private static String restKey(UUID workspaceId, TelegramConfig telegram) {
    return workspaceId + ":" + telegram.channelId() + ":" + Sha256.hex(telegram.botToken());
  }

  /** Cluster-wide when clustered (https://vertx.io/docs/vertx-core/java/#_asynchronous_shared_maps). */
  private Future<AsyncMap<String, Long>> rests() {
    return vertx.sharedData().getAsyncMap(RESTS);
  }

  private void count(UUID workspaceId, String outcome) {
    metrics.counter("event_router.telegram.invite_links", "workspace", workspaceId.toString(), "outcome", outcome)
        .increment();
  }

  private static String describe(Throwable failure) {
    return failure instanceof BotApi.Failure refused ? refused.getMessage() : LogSafe.describe(failure);
  }
}
