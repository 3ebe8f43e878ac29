package dev.eventrouter.telegram;

import dev.eventrouter.bus.Addresses;
import dev.eventrouter.common.CheckedRequests;
import dev.eventrouter.common.ProxyRoutes;
import dev.eventrouter.config.LiveConfig;
import dev.eventrouter.store.TelegramStore;
import io.micrometer.core.instrument.MeterRegistry;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.ext.web.client.WebClient;

import java.util.List;
import java.util.UUID;

/**
 * The Telegram connector's calls out: keeps the invite-link pools full and works the Telegram outbox (pass-through
 * and approvals). Woken by the store's notices, and by timers for what a notice missed (work left by a node that
 * stopped, retries coming due, a pool that rested after a refusal).
 */
public final class TelegramVerticle extends VerticleBase {

  /** How often every pool is checked, beside the captures' notices. */
  static final long POOL_CHECK_MS = 30_000;

  private final TelegramStore store;
  private final LiveConfig live;
  private final MeterRegistry metrics;

  public TelegramVerticle(TelegramStore store, LiveConfig live, MeterRegistry metrics) {
    this.store = store;
    this.live = live;
    this.metrics = metrics;
  }

  @Override
  public Future<?> start() {
    long timeoutMs = live.current().delivery().requestTimeoutMs();
    // No redirects: a backend redirecting elsewhere must not take its secret header, or the token's URL, with it;
    // and no request to a private address unless the config allows it.
    CheckedRequests requests = new CheckedRequests(vertx, WebClient.create(vertx, CheckedRequests.options(timeoutMs)),
        new ProxyRoutes(vertx, timeoutMs));
    BotApi bot = new BotApi(requests, timeoutMs);
    InviteLinkPool pool = new InviteLinkPool(vertx, live, store, bot, metrics);
    TelegramOutbox outbox = new TelegramOutbox(live, store, requests, bot, metrics);
    vertx.setPeriodic(live.current().delivery().scanIntervalMs(), id -> outbox.run());
    vertx.setPeriodic(1, POOL_CHECK_MS, id -> pool.fillAll());
    return Future.all(List.of(
        vertx.eventBus().consumer(Addresses.TELEGRAM_DUE, due -> outbox.run()).completion(),
        vertx.eventBus().<String>consumer(Addresses.TELEGRAM_LINK_TAKEN,
            taken -> pool.fill(UUID.fromString(taken.body()))).completion()));
  }
}
