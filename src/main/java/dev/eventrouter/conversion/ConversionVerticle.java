package dev.eventrouter.conversion;

import dev.eventrouter.bus.Addresses;
import dev.eventrouter.bus.BusFailure;
import dev.eventrouter.common.LogSafe;
import dev.eventrouter.config.LiveConfig;
import dev.eventrouter.config.WorkspaceConfig;
import dev.eventrouter.db.Database;
import dev.eventrouter.event.EventIds;
import dev.eventrouter.event.Postback;
import dev.eventrouter.store.ConfiguredPlan;
import dev.eventrouter.store.ConversionChanges;
import dev.eventrouter.store.ConversionStore;
import dev.eventrouter.store.PostbackMatcher;
import dev.eventrouter.store.PostbackStore;
import io.micrometer.core.instrument.MeterRegistry;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.eventbus.Message;
import io.vertx.core.json.JsonObject;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

/**
 * Conversions whose status moves: records partners' postbacks (a conversion each, or a change of one, or kept
 * unmatched until its session appears), matches the unmatched ones when a session is stored and on a periodic sweep,
 * and turns a JoinRequest conversion rejected when its subscriber leaves the channel within the workspace's
 * unsubscribe window. Wakes the forwarders of the deliveries each change makes.
 */
public final class ConversionVerticle extends VerticleBase {

  private static final Logger LOG = LoggerFactory.getLogger(ConversionVerticle.class);
  /** How often unmatched postbacks are looked at again, and old ones purged. */
  static final long SWEEP_EVERY_MS = TimeUnit.MINUTES.toMillis(10);
  /** The event a join through a per-visitor link records (the Telegram connector's). */
  public static final String JOIN_EVENT = "JoinRequest";

  private final Database database;
  private final EventIds ids;
  private final LiveConfig live;
  private final MeterRegistry metrics;
  private PostbackStore postbacks;
  private PostbackMatcher matcher;
  private ConversionStore conversions;
  private ConversionChanges changes;
  private ConfiguredPlan plan;

  public ConversionVerticle(Database database, EventIds ids, LiveConfig live, MeterRegistry metrics) {
    this.database = database;
    this.ids = ids;
    this.live = live;
    this.metrics = metrics;
  }

  @Override
  public Future<?> start() {
    matcher = new PostbackMatcher(database.pool(), ids::next);
    postbacks = new PostbackStore(database.pool(), database.readPool(), matcher);
    conversions = new ConversionStore(database.pool());
    changes = new ConversionChanges(database.pool());
    plan = new ConfiguredPlan(live);
    vertx.setPeriodic(SWEEP_EVERY_MS, id -> sweep());
    return Future.all(List.of(
        vertx.eventBus().<JsonObject>localConsumer(Addresses.POSTBACKS_RECORD, this::record).completion(),
        vertx.eventBus().<JsonObject>localConsumer(Addresses.POSTBACKS_LIST, this::list).completion(),
        vertx.eventBus().<JsonObject>localConsumer(Addresses.SESSIONS_SAVED, this::sessionSaved).completion(),
        vertx.eventBus().<JsonObject>localConsumer(Addresses.TELEGRAM_LEFT, this::left).completion()));
  }

  private void record(Message<JsonObject> message) {
    Postback postback = Postback.fromJson(message.body());
    postbacks.record(postback, plan).onComplete(done -> {
      if (done.failed()) {
        LOG.warn("a postback of source {} was not recorded: {}", postback.sourceId(), LogSafe.describe(done.cause()));
        message.fail(BusFailure.UNAVAILABLE, "postback not recorded");
        return;
      }
      count(postback.sourceId(), done.result().outcome());
      wake(done.result().networks());
      message.reply(done.result().answer());
    });
  }

  private void count(String sourceId, String outcome) {
    metrics.counter("event_router.postbacks", "source", sourceId, "outcome", outcome).increment();
  }

  private void list(Message<JsonObject> message) {
    JsonObject query = message.body();
    postbacks.list(UUID.fromString(query.getString("workspace_id")), query.getLong("before", Long.MAX_VALUE),
            query.getString("outcome"), query.getInteger("limit", 50))
        .onSuccess(page -> message.reply(new JsonObject().put("postbacks", page)))
        .onFailure(e -> {
          LOG.warn("listing postbacks failed: {}", LogSafe.describe(e));
          message.fail(BusFailure.UNAVAILABLE, "not done");
        });
  }

  /** A session was stored: the postbacks of the workspace that waited for it are matched now. */
  private void sessionSaved(Message<JsonObject> message) {
    UUID workspaceId = UUID.fromString(message.body().getString("workspace_id"));
    WorkspaceConfig workspace = live.current().workspace(workspaceId).orElse(null);
    if (workspace == null || workspace.postbackSources().isEmpty()) {
      return;
    }
    rematch(workspace, message.body().getString("session_id"));
  }

  /** Every workspace's unmatched postbacks, and the purge of those past retention. */
  private void sweep() {
    live.current().workspaces().stream().filter(w -> !w.postbackSources().isEmpty())
        .forEach(workspace -> rematch(workspace, null));
    int retention = live.current().database().retentionDays();
    postbacks.purge(retention).compose(n -> conversions.purge(retention))
        .onFailure(e -> LOG.warn("purging old postbacks and conversions failed: {}", LogSafe.describe(e)));
  }

  private void rematch(WorkspaceConfig workspace, String sessionId) {
    matcher.rematch(workspace.id(), sessionId, workspace.attributionWindowDays(), plan)
        .onSuccess(matched -> matched.forEach(recorded -> {
          count(recorded.sourceId(), "rematched");
          wake(recorded.networks());
        }))
        .onFailure(e -> LOG.warn("matching waiting postbacks of workspace {} failed: {}", workspace.id(),
            LogSafe.describe(e)));
  }

  /** A subscriber left the channel: their recent JoinRequest conversion becomes rejected. */
  private void left(Message<JsonObject> message) {
    UUID workspaceId = UUID.fromString(message.body().getString("workspace_id"));
    long telegramId = message.body().getLong("telegram_id");
    int window = live.current().workspace(workspaceId).map(WorkspaceConfig::unsubscribeWindowDays).orElse(0);
    if (window == 0) {
      message.reply(new JsonObject().put("event_id", (String) null));
      return;
    }
    changes.leftChannel(workspaceId, telegramId, window, JOIN_EVENT, plan).onComplete(done -> {
      if (done.failed()) {
        LOG.warn("an unsubscribe was not recorded: {}", LogSafe.describe(done.cause()));
        message.fail(BusFailure.UNAVAILABLE, "not recorded");
        return;
      }
      done.result().ifPresent(result -> wake(result.networks()));
      message.reply(new JsonObject().put("event_id",
          done.result().map(result -> EventIds.format(result.eventId())).orElse(null)));
    });
  }

  private void wake(List<String> networks) {
    networks.stream().distinct().forEach(network -> vertx.eventBus().publish(Addresses.deliveriesDue(network),
        network));
  }
}
