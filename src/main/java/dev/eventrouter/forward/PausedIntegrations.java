package dev.eventrouter.forward;

import dev.eventrouter.bus.Addresses;
import dev.eventrouter.common.LogSafe;
import dev.eventrouter.common.Sha256;
import dev.eventrouter.config.DeliveryConfig;
import dev.eventrouter.config.IntegrationConfig;
import dev.eventrouter.config.LiveConfig;
import dev.eventrouter.config.Network;
import dev.eventrouter.store.DeliveryQueue;
import dev.eventrouter.store.Pause;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A network's integrations paused on a refused token, as last read from the database (another node may pause or
 * resume one), and when each was last probed: a pause ends once its integration has another token, or once a probe
 * with one of its held deliveries is accepted.
 */
final class PausedIntegrations {

  /** The forwarder's logger: these lines are the forwarder's, as operators know them. */
  private static final Logger LOG = LoggerFactory.getLogger(ForwarderVerticle.class);

  private final Vertx vertx;
  private final Network network;
  private final DeliveryQueue store;
  private final LiveConfig live;
  private final PauseBoard board;
  private final IntegrationChannels channels;
  private final Map<IntegrationKey, Pause> paused = new HashMap<>();
  private final Map<IntegrationKey, Instant> probed = new HashMap<>();

  PausedIntegrations(Vertx vertx, Network network, DeliveryQueue store, LiveConfig live, PauseBoard board,
                     IntegrationChannels channels) {
    this.vertx = vertx;
    this.network = network;
    this.store = store;
    this.live = live;
    this.board = board;
    this.channels = channels;
  }

  /** The pause an integration is under, or null. */
  Pause of(IntegrationKey key) {
    return paused.get(key);
  }

  /** A pause a channel just began in the database: this is its copy until the next read of the pauses. */
  void began(IntegrationKey key, Pause pause) {
    paused.put(key, pause);
    board.paused(key, pause.reason());
  }

  /**
   * Reads this network's pauses, and ends each whose integration now has another token; probes the others when
   * due.
   */
  Future<Void> check() {
    return store.pauses(network).compose(pauses -> {
      Map<IntegrationKey, Pause> now = new HashMap<>();
      pauses.forEach(p -> now.put(new IntegrationKey(p.network(), p.workspaceId(), p.integrationId()), p));
      paused.keySet().stream().filter(key -> !now.containsKey(key)).toList().forEach(key -> {
        board.resumed(key);
        probed.remove(key);
      });
      paused.clear();
      paused.putAll(now);
      List<Future<Void>> checks = new ArrayList<>();
      now.forEach((key, pause) -> {
        board.paused(key, pause.reason());
        Optional<IntegrationConfig> integration = channels.integration(key);
        if (integration.isEmpty() || !integration.get().enabled() || pause.manual()) {
          return; // a pause made by hand is ended by hand, whatever its token
        }
        if (!Sha256.hex(integration.get().accessToken()).equals(pause.tokenSha256())) {
          checks.add(resume(key, pause, "its access_token was changed", false));
        } else if (probeDue(key, pause)) {
          checks.add(probe(key, pause, integration.get()));
        }
      });
      return Future.join(checks).<Void>mapEmpty();
    }).recover(e -> {
      LOG.warn("{} forwarder: checking paused integrations failed: {}", network.id, LogSafe.describe(e));
      return Future.succeededFuture();
    });
  }

  private boolean probeDue(IntegrationKey key, Pause pause) {
    Instant last = probed.getOrDefault(key, pause.pausedAt());
    return !Instant.now().isBefore(last.plusMillis(live.current().delivery().pauseProbeMs()));
  }

  /**
   * Sends the oldest held delivery. Accepted, the token works again and the integration resumes; refused, the
   * channel holds it again. With nothing held, the pause protects nothing: it ends, and the next event tries.
   */
  private Future<Void> probe(IntegrationKey key, Pause pause, IntegrationConfig integration) {
    probed.put(key, Instant.now());
    DeliveryConfig config = live.current().delivery();
    return store.claimHeld(pause, config.requestTimeoutMs() + 1_000).compose(jobs -> {
      if (jobs.isEmpty()) {
        return resume(key, pause, "no delivery is held", true);
      }
      // Accepted, even if not counted as received, the token works.
      return channels.channel(key, config).send(integration, jobs, config).compose(outcome ->
          outcome instanceof Outcome.Delivered || outcome instanceof Outcome.Unconfirmed
              ? resume(key, pause, "a probe was accepted", false) : Future.succeededFuture());
    });
  }

  private Future<Void> resume(IntegrationKey key, Pause pause, String why, boolean onlyIfNoneHeld) {
    return store.resume(pause, onlyIfNoneHeld).onSuccess(ended -> {
      if (!ended && onlyIfNoneHeld) {
        return; // still paused: another node's probe has its held delivery in flight
      }
      paused.remove(key);
      probed.remove(key);
      board.resumed(key);
      if (ended) {
        LOG.info("{} integration {} resumed ({}): its held deliveries go out now", network.id, key.integrationId(),
            why);
        vertx.eventBus().publish(Addresses.deliveriesDue(network.id), network.id);
      }
    }).mapEmpty();
  }
}
