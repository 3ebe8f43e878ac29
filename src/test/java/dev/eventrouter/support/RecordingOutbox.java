package dev.eventrouter.support;

import dev.eventrouter.config.Network;
import dev.eventrouter.store.Claim;
import dev.eventrouter.store.ClaimedDelivery;
import dev.eventrouter.store.DeliveryQueue;
import dev.eventrouter.store.Pause;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;

/**
 * An outbox double for the forwarding logic's tests: deliveries waiting to be claimed, and every outcome recorded
 * instead of stored. (The outbox's SQL is tested on PostgreSQL, in ForwardingTest.)
 */
public final class RecordingOutbox implements DeliveryQueue {

  /** The match-key masks of each delivered call, in call order. */
  public final List<int[]> matchKeysLog = new CopyOnWriteArrayList<>();

  /** One recorded outcome: what, for which deliveries, the error, and when they are due again. */
  public record Recorded(String what, List<Long> deliveryIds, String error, Instant due) {}

  /** One claim as asked: how many, for how long, and when. */
  public record Asked(int limit, long leaseMs, Instant at) {}

  public final List<ClaimedDelivery> due = new CopyOnWriteArrayList<>();
  public final List<Recorded> recorded = new CopyOnWriteArrayList<>();
  public final List<JsonObject> dryRunPayloads = new CopyOnWriteArrayList<>();
  /** The payload of each delivery a request's outcome recorded, in call order. */
  public final List<JsonObject> sentPayloads = new CopyOnWriteArrayList<>();
  public final List<Asked> claimLog = new CopyOnWriteArrayList<>();
  public final List<Pause> pauses = new CopyOnWriteArrayList<>();
  /** Deliveries held by a pause, which a probe may claim. */
  public final List<ClaimedDelivery> held = new CopyOnWriteArrayList<>();
  /** The lease of each probe's claim. */
  public final List<Long> heldLeases = new CopyOnWriteArrayList<>();
  /** How often the forwarder read the pauses. */
  public final AtomicInteger pauseReads = new AtomicInteger();
  /** When set, the next claim fails with it, as on a database outage. */
  public volatile RuntimeException failNextClaim;
  /** When set, the next outcome write fails with it (and is not recorded). */
  public volatile RuntimeException failNextRecord;
  /** When set, the next read of the pauses fails with it. */
  public volatile RuntimeException failNextPauses;
  /** Deliveries still held but claimed by another node's probe: not claimable here, yet they keep their pause. */
  public final List<ClaimedDelivery> heldInFlight = new CopyOnWriteArrayList<>();

  public int claims() {
    return claimLog.size();
  }

  /** Each delivery's outcome as "what id", in the order recorded. */
  public List<String> outcomesById() {
    List<String> flat = new ArrayList<>();
    recorded.forEach(r -> r.deliveryIds().forEach(id -> flat.add(r.what() + " " + id)));
    return flat;
  }

  @Override
  public synchronized Future<Claim> claim(Network network, int limit, long leaseMs) {
    claimLog.add(new Asked(limit, leaseMs, Instant.now()));
    RuntimeException failure = failNextClaim;
    if (failure != null) {
      failNextClaim = null;
      return Future.failedFuture(failure);
    }
    List<ClaimedDelivery> claimed = new ArrayList<>(due.subList(0, Math.min(limit, due.size())));
    due.removeAll(claimed);
    // Rows alone, no cursor held; a full claim may have more behind it.
    return Future.succeededFuture(new Claim(claimed, List.of(), claimed.size() >= limit));
  }

  /** Each settle: the claim, and how many outcomes were recorded when it came. */
  public record Settled(Claim claim, int outcomesBefore) {}

  public final List<Settled> settled = new CopyOnWriteArrayList<>();

  @Override
  public Future<Void> settle(Network network, Claim claim) {
    settled.add(new Settled(claim, outcomesById().size()));
    return Future.succeededFuture();
  }

  /** The integrations each follow asked cursors for, as "network workspace integration". */
  public final List<String> followed = new CopyOnWriteArrayList<>();

  @Override
  public Future<Void> follow(Network network, List<UUID> workspaces, List<String> integrations) {
    for (int i = 0; i < workspaces.size(); i++) {
      followed.add(network.id + " " + workspaces.get(i) + " " + integrations.get(i));
    }
    return Future.succeededFuture();
  }

  @Override
  public Future<Void> end(List<ClaimedDelivery> jobs, String status, String reason) {
    return add(status, jobs, reason, null);
  }

  @Override
  public Future<Void> dryRun(Map<ClaimedDelivery, JsonObject> payloads) {
    dryRunPayloads.addAll(payloads.values());
    return add("dry_run", List.copyOf(payloads.keySet()), null, null);
  }

  @Override
  public Future<Void> delivered(List<ClaimedDelivery> jobs, List<JsonObject> payloads, int[] matchKeys) {
    matchKeysLog.add(matchKeys.clone());
    sentPayloads.addAll(payloads);
    return add("delivered", jobs, null, null);
  }

  @Override
  public Future<Void> retry(List<ClaimedDelivery> jobs, List<JsonObject> payloads, String error,
                            Instant nextAttempt) {
    sentPayloads.addAll(payloads);
    return add("retry", jobs, error, nextAttempt);
  }

  @Override
  public Future<Void> failed(List<ClaimedDelivery> jobs, List<JsonObject> payloads, String error) {
    sentPayloads.addAll(payloads);
    return add("failed", jobs, error, null);
  }

  @Override
  public Future<Void> unconfirmed(List<ClaimedDelivery> jobs, List<JsonObject> payloads, String reason) {
    sentPayloads.addAll(payloads);
    return add("unconfirmed", jobs, reason, null);
  }

  @Override
  public Future<Void> defer(List<ClaimedDelivery> jobs, Instant until) {
    return add("defer", jobs, null, until);
  }

  @Override
  public synchronized Future<Boolean> pause(Pause pause, List<ClaimedDelivery> jobs) {
    boolean first = pauses.stream().noneMatch(p -> p.integrationId().equals(pause.integrationId())
        && p.workspaceId().equals(pause.workspaceId()));
    if (first) {
      pauses.add(pause);
    }
    return add("paused", jobs, pause.reason(), null).map(first);
  }

  @Override
  public Future<Void> hold(List<ClaimedDelivery> jobs, String reason) {
    return add("held", jobs, reason, null);
  }

  @Override
  public Future<List<Pause>> pauses(Network network) {
    pauseReads.incrementAndGet();
    RuntimeException failure = failNextPauses;
    if (failure != null) {
      failNextPauses = null;
      return Future.failedFuture(failure);
    }
    return Future.succeededFuture(pauses.stream().filter(p -> p.network().equals(network.id)).toList());
  }

  @Override
  public synchronized Future<Boolean> resume(Pause pause, boolean onlyIfNoneHeld) {
    resumes.add(onlyIfNoneHeld);
    if (onlyIfNoneHeld && Stream.concat(held.stream(), heldInFlight.stream())
        .anyMatch(job -> job.integrationId().equals(pause.integrationId())
            && job.workspaceId().equals(pause.workspaceId()))) {
      return Future.succeededFuture(false); // as the store's resume: still held, so still paused
    }
    boolean removed = pauses.removeIf(p -> p.integrationId().equals(pause.integrationId())
        && p.workspaceId().equals(pause.workspaceId()));
    return Future.succeededFuture(removed && !resumedElsewhere);
  }

  /** Each resume asked for: whether only if none is held. */
  public final List<Boolean> resumes = new ArrayList<>();

  /** Set: every resume finds the pause already ended by another node (the row is gone all the same). */
  public volatile boolean resumedElsewhere;

  /** The first of {@link #held} of that integration, taken out, or nothing. */
  @Override
  public synchronized Future<List<ClaimedDelivery>> claimHeld(Pause pause, long leaseMs) {
    heldLeases.add(leaseMs);
    for (ClaimedDelivery job : held) {
      if (job.integrationId().equals(pause.integrationId()) && job.workspaceId().equals(pause.workspaceId())) {
        held.remove(job);
        return Future.succeededFuture(List.of(job));
      }
    }
    return Future.succeededFuture(List.of());
  }

  private Future<Void> add(String what, List<ClaimedDelivery> jobs, String error, Instant when) {
    RuntimeException failure = failNextRecord;
    if (failure != null) {
      failNextRecord = null;
      return Future.failedFuture(failure);
    }
    recorded.add(new Recorded(what, jobs.stream().map(ClaimedDelivery::deliveryId).toList(), error, when));
    return Future.succeededFuture();
  }
}
