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
import java.util.List;
import java.util.Set;
import java.util.UUID;

/**
 * Keeps a pool of unused invite links full for each channel of each workspace's bots, so a capture takes a link from
 * the table and never waits on Telegram. Links are made one at a time; a refusal (429 with retry_after, 400 chat not
 * found, 403 bot not an admin) stops the channel's filling for a while and is logged in Telegram's words, never with
 * the token. One node fills a channel at a time (a cluster-wide lock), and the rest after a refusal is cluster-wide
 * too, so no other node calls Telegram during a flood wait. Each link expires with the workspace's attribution window:
 * a join after it would be attributed to nothing anyway, and the channel's link list does not grow without end.
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
  /** Channels ("workspace:channel") this verticle is filling now: a burst of captures starts one fill, not one... */
  private final Set<String> filling = new HashSet<>();
  /** ...and one more after it, for the links taken while it counted. */
  private final Set<String> again = new HashSet<>();

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

  /** Tops up the pools of every channel of a workspace's bots; completes with how many links it made. */
  Future<Integer> fill(UUID workspaceId) {
    List<Future<Integer>> fills = live.current().workspace(workspaceId).stream()
        .flatMap(workspace -> workspace.bots().stream()).flatMap(bot -> bot.channels().stream())
        .map(channel -> fill(workspaceId, channel)).toList();
    return Future.all(fills).map(all -> fills.stream().mapToInt(Future::result).sum());
  }

  /** Tops up one channel's pool, with its bot as configured now (none when the channel is no longer configured). */
  private Future<Integer> fill(UUID workspaceId, String channel) {
    WorkspaceConfig workspace = live.current().workspace(workspaceId).orElse(null);
    TelegramConfig telegram = workspace == null ? null : workspace.botOfChannel(channel);
    if (telegram == null) {
      return Future.succeededFuture(0);
    }
    String key = workspaceId + ":" + channel;
    if (!filling.add(key)) {
      again.add(key);
      return Future.succeededFuture(0);
    }
    // Held by whoever fills now; a second filler gives up at once instead of queueing behind it.
    return vertx.sharedData().getLockWithTimeout(LOCKS + key, 1)
        .compose(lock -> topUp(workspace, telegram, channel).onComplete(done -> lock.release()),
            busy -> Future.succeededFuture(0))
        .recover(failure -> {
          LOG.warn("workspace {} channel {}: invite links not made: {}", workspaceId, channel, describe(failure));
          return Future.succeededFuture(0);
        })
        .onComplete(done -> {
          filling.remove(key);
          if (again.remove(key)) {
            fill(workspaceId, channel);
          }
        });
  }

  /** Under the lock: unless resting, makes the links the channel's pool lacks. */
  private Future<Integer> topUp(WorkspaceConfig workspace, TelegramConfig telegram, String channel) {
    Duration lifetime = Duration.ofDays(workspace.attributionWindowDays());
    Link link = new Link(workspace.id(), telegram, channel, lifetime);
    return resting(link.restKey()).compose(resting -> resting ? Future.succeededFuture(0)
        : store.freeLinks(workspace.id(), channel)
            .compose(free -> make(link, telegram.inviteLinkPool() - free, 0)));
  }

  /** What the links of one channel are made with. */
  private record Link(UUID workspaceId, TelegramConfig bot, String channel, Duration lifetime) {
    /**
     * A rest belongs to the bot and channel that were refused: a config with another token or channel (the usual fix
     * for a 403) tries at once.
     */
    String restKey() {
      return workspaceId + ":" + channel + ":" + Sha256.hex(bot.botToken());
    }
  }

  private Future<Integer> make(Link link, int missing, int made) {
    if (missing <= 0) {
      return Future.succeededFuture(made);
    }
    UUID workspaceId = link.workspaceId();
    Instant expires = Instant.now().plus(link.lifetime());
    return bot.createInviteLink(link.bot(), link.channel(), LINK_NAME, expires)
        .compose(url -> store.addLink(workspaceId, link.channel(), url, expires))
        .compose(added -> {
          count(workspaceId, "made");
          if (made == 0) {
            LinkRefusals.made(vertx, workspaceId, link.channel()); // a refusal is no longer the news
          }
          return make(link, missing - 1, made + 1);
        })
        .recover(failure -> {
          boolean refused = failure instanceof BotApi.Failure;
          long asked = refused ? ((BotApi.Failure) failure).retryAfterSeconds() * 1000 : 0;
          long restMs = asked > 0 ? asked : REST_AFTER_REFUSAL_MS;
          if (refused) {
            count(workspaceId, "refused");
            LinkRefusals.refused(vertx, workspaceId, link.channel(), failure.getMessage());
          }
          LOG.warn("workspace {} channel {}: Telegram made {} of the {} invite links wanted, next try in {} s: {}",
              workspaceId, link.channel(), made, made + missing, restMs / 1000, describe(failure));
          long until = System.currentTimeMillis() + restMs;
          // The next try when the rest ends, as logged: the periodic check alone would come up to 30 s later.
          vertx.setTimer(restMs, id -> fill(workspaceId, link.channel()));
          return rests().compose(rests -> rests.put(link.restKey(), until, restMs)).map(made);
        });
  }

  /** Whether a node was told to wait (a 429's retry_after, or a rest after a refusal) and the wait is not over. */
  private Future<Boolean> resting(String key) {
    return rests().compose(rests -> rests.get(key))
        .map(until -> until != null && until > System.currentTimeMillis());
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
