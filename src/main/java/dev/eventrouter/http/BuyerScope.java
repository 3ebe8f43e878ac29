package dev.eventrouter.http;

import dev.eventrouter.bus.Addresses;
import dev.eventrouter.config.AccessKey;
import dev.eventrouter.config.CostSourceConfig;
import dev.eventrouter.config.KeyRole;
import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;

/**
 * A buyer key's campaigns for the read it makes: those its scope names, and those of the spend imported from the
 * cost sources of its ad accounts (read at most once a minute per key). Every other key reads unscoped.
 */
public final class BuyerScope {

  private static final String CAMPAIGNS = "scope.campaigns";
  /** How long the campaigns read for a key's ad accounts are reused: new spend reaches a buyer within it. */
  static final long REUSE_MS = 60_000;
  private static final int MAX_KEYS = 1_000;

  private record Read(List<String> campaigns, long at) {}

  private final StoreClient store;
  private final LongSupplier clock;
  private final int maxKeys;
  /** By key: as many entries as the config has buyer keys with accounts. */
  private final Map<AccessKey, Read> reads = new ConcurrentHashMap<>();

  public BuyerScope(StoreClient store) {
    this(store, System::currentTimeMillis, MAX_KEYS);
  }

  /** @param maxKeys the keys whose campaigns are kept at most (keys of configs since replaced age out) */
  BuyerScope(StoreClient store, LongSupplier clock, int maxKeys) {
    this.store = store;
    this.clock = clock;
    this.maxKeys = maxKeys;
  }

  /** The campaigns of the request's scope (null: unscoped), or null. */
  public static List<String> campaigns(RoutingContext rc) {
    return rc.get(CAMPAIGNS);
  }

  /** A route's handler: finds the buyer's campaigns before the read. */
  public Handler<RoutingContext> resolve() {
    return rc -> {
      Grant grant = Edge.grant(rc);
      if (grant == null || grant.key().role() != KeyRole.BUYER) {
        rc.next();
        return;
      }
      campaigns(grant, rc).onSuccess(campaigns -> {
        rc.put(CAMPAIGNS, campaigns);
        rc.next();
      }).onFailure(rc::fail);
    };
  }

  private Future<List<String>> campaigns(Grant grant, RoutingContext rc) {
    AccessKey.Scope scope = grant.key().scope();
    List<String> sources = grant.workspace().costSources().stream()
        .filter(source -> scope.adAccountIds().contains(source.account())).map(CostSourceConfig::id).toList();
    if (sources.isEmpty()) {
      return Future.succeededFuture(scope.campaignIds());
    }
    Read last = reads.get(grant.key());
    long now = clock.getAsLong();
    if (last != null && now - last.at() < REUSE_MS) {
      return Future.succeededFuture(last.campaigns());
    }
    JsonObject ask = new JsonObject().put("workspace_id", grant.workspace().id().toString())
        .put("source_ids", new JsonArray(sources));
    return store.ask(Addresses.SCOPE_CAMPAIGNS, ask, rc).map(answer -> {
      Set<String> all = new LinkedHashSet<>(scope.campaignIds());
      answer.getJsonArray("campaign_ids").forEach(id -> all.add((String) id));
      List<String> campaigns = List.copyOf(all);
      if (reads.size() > maxKeys) {
        reads.clear(); // keys of configs replaced since
      }
      reads.put(grant.key(), new Read(campaigns, now));
      return campaigns;
    });
  }
}
