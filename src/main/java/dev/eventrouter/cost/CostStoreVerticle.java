package dev.eventrouter.cost;

import dev.eventrouter.bus.Addresses;
import dev.eventrouter.bus.LocalCodec;
import dev.eventrouter.bus.SpendPush;
import dev.eventrouter.store.CostSourceStates;
import dev.eventrouter.store.SpendStore;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.eventbus.Message;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.List;
import java.util.Optional;
import java.util.UUID;

import static dev.eventrouter.bus.BusReplies.answer;

/**
 * Answers the API's requests about spend on the node that took them: a push stored (replacing its period, in one
 * transaction), the cost sources' states for the debugger, and "poll now".
 */
public final class CostStoreVerticle extends VerticleBase {

  private static final Logger LOG = LoggerFactory.getLogger(CostStoreVerticle.class);

  private final SpendStore spend;
  private final CostSourceStates states;

  public CostStoreVerticle(SpendStore spend, CostSourceStates states) {
    this.spend = spend;
    this.states = states;
  }

  @Override
  public Future<?> start() {
    LocalCodec.register(vertx);
    return Future.all(List.of(
        vertx.eventBus().<SpendPush>localConsumer(Addresses.COSTS_PUSH, this::push).completion(),
        vertx.eventBus().<JsonObject>localConsumer(Addresses.COST_SOURCES_LIST,
            message -> answer(LOG, message, states.list(workspace(message.body()))
                .map(list -> Optional.of(new JsonObject().put("sources", new JsonArray(list)))))).completion(),
        vertx.eventBus().<JsonObject>localConsumer(Addresses.COST_SOURCES_POLL,
            message -> answer(LOG, message, states.pollNow(workspace(message.body()),
                    message.body().getString("source_id"))
                .map(found -> found ? Optional.of(new JsonObject()) : Optional.empty()))).completion()));
  }

  private void push(Message<SpendPush> message) {
    SpendPush push = message.body();
    answer(LOG, message, spend.replace(push.workspaceId(), push.source(), push.from(), push.to(), push.level(),
            push.objectId(), push.rows())
        .map(v -> Optional.of(new JsonObject().put("rows", push.rows().size()))));
  }

  private static UUID workspace(JsonObject body) {
    return UUID.fromString(body.getString("workspace_id"));
  }
}
