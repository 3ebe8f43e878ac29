package dev.eventrouter.alert;

import dev.eventrouter.alert.AlertRules.Reading;
import dev.eventrouter.alert.AlertRules.Step;
import dev.eventrouter.config.AlertTarget;
import dev.eventrouter.config.AlertsConfig;
import dev.eventrouter.config.Network;
import dev.eventrouter.config.TelegramConfig;
import dev.eventrouter.config.WorkspaceConfig;
import dev.eventrouter.event.Postback;
import dev.eventrouter.event.ReconcileQuery;
import dev.eventrouter.store.AlertState;
import dev.eventrouter.store.AlertStore;
import dev.eventrouter.store.AlertStore.NewAlert;
import dev.eventrouter.store.AlertStore.Plan;
import dev.eventrouter.store.AlertStore.Tally;
import dev.eventrouter.telegram.LinkRefusals;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;

import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.function.Function;

/**
 * One round of the alerts: reads what each workspace's conditions look at (the paused integrations, the breakers
 * heard open, failed deliveries, recent events, postbacks, free invite links), applies {@link AlertRules} to each
 * condition and subject, and plans the states to keep and a message per target for what is to be told.
 */
final class AlertRound {

  /** A condition of a workspace about one subject. */
  private record Key(AlertCondition condition, String subject) {}

  /** How long a condition must hold before it fires, and the window (or hold) its messages name. */
  private record Timing(Duration hold, Duration window) {}

  private static final Timing AT_ONCE = new Timing(Duration.ZERO, Duration.ZERO);
  /** Conditions in their order, then subjects: a round's messages come in the same order every time. */
  private static final Comparator<Key> ORDER = Comparator.comparing(Key::condition).thenComparing(Key::subject);

  private final AlertStore.Round round;
  private final Map<BreakerTrack.Key, BreakerTrack.Open> breakers;
  private final Function<String, String> channelRefusal;

  /**
   * @param breakers       the breakers heard open
   * @param channelRefusal Telegram's last refusal to make a channel's invite links (by {@link LinkRefusals#key}), or
   *                       null
   */
  AlertRound(AlertStore.Round round, Map<BreakerTrack.Key, BreakerTrack.Open> breakers,
             Function<String, String> channelRefusal) {
    this.round = round;
    this.breakers = breakers;
    this.channelRefusal = channelRefusal;
  }

  /** The plan for the workspaces with alerts; the states of the others (or of their conditions now off) are dropped. */
  Future<Plan> plan(List<WorkspaceConfig> workspaces) {
    return round.states().compose(states -> round.pauses().compose(pauses -> {
      Future<List<Planned>> all = Future.succeededFuture(new ArrayList<>());
      for (WorkspaceConfig workspace : workspaces) {
        if (!workspace.alerts().enabled()) {
          continue;
        }
        List<AlertState> own = states.stream().filter(s -> s.workspaceId().equals(workspace.id())).toList();
        Map<Key, Reading> readings = new TreeMap<>(ORDER);
        AlertsConfig alerts = workspace.alerts();
        if (alerts.integrationPaused()) {
          // A pause by hand is an admin's action, in the audit log; this condition is the network refusing a token.
          pauses.stream().filter(p -> p.workspaceId().equals(workspace.id()) && !p.manual())
              .forEach(p -> readings.put(new Key(AlertCondition.INTEGRATION_PAUSED,
                  p.network() + "/" + p.integrationId()), Reading.state(p.pausedAt(), p.reason())));
        }
        if (alerts.breakerOpen() != null) {
          breakers.forEach((key, open) -> {
            if (key.workspaceId().equals(workspace.id())) {
              readings.put(new Key(AlertCondition.BREAKER_OPEN, key.subject()), Reading.state(open.since(),
                  open.reason()));
            }
          });
        }
        all = all.compose(done -> read(workspace, readings)
            .map(v -> {
              done.add(planned(workspace, own, readings));
              return done;
            }));
      }
      return all.map(planned -> new Plan(planned.stream().flatMap(p -> p.states.stream()).toList(),
          planned.stream().flatMap(p -> p.alerts.stream()).toList()));
    }));
  }

  private record Planned(List<AlertState> states, List<NewAlert> alerts) {}

  /** The conditions read from the database, one after another on the round's connection. */
  private Future<Void> read(WorkspaceConfig workspace, Map<Key, Reading> readings) {
    AlertsConfig alerts = workspace.alerts();
    UUID id = workspace.id();
    Instant now = round.now();
    Future<Void> read = Future.succeededFuture();
    if (alerts.deliveriesFailed() != null) {
      AlertsConfig.Window w = alerts.deliveriesFailed();
      read = read.compose(v -> round.endedBadly(id, now.minus(w.window())))
          .map(tallies -> counted(readings, AlertCondition.DELIVERIES_FAILED, tallies, w));
    }
    if (alerts.costSourceFailed() != null) {
      // A paused source needs someone at once (a new token): it fires without the hold a failing one waits.
      Duration hold = alerts.costSourceFailed();
      read = read.compose(v -> round.costTroubles(id)).map(troubles -> {
        troubles.forEach(t -> readings.put(new Key(AlertCondition.COST_SOURCE_FAILED, t.sourceId()),
            Reading.state(t.paused() || t.since() == null ? now.minus(hold) : t.since(), t.detail())));
        return null;
      });
    }
    if (alerts.postbacksUnmatched() != null) {
      AlertsConfig.Window w = alerts.postbacksUnmatched();
      read = read.compose(v -> round.postbacks(id, Postback.UNMATCHED, now.minus(w.window())))
          .map(tallies -> counted(readings, AlertCondition.POSTBACKS_UNMATCHED, tallies, w));
    }
    if (alerts.postbackMacros() != null) {
      AlertsConfig.Window w = alerts.postbackMacros();
      read = read.compose(v -> round.postbacks(id, Postback.MACRO_NOT_EXPANDED, now.minus(w.window())))
          .map(tallies -> counted(readings, AlertCondition.POSTBACK_MACROS, tallies, w));
    }
    if (alerts.conversionsStopped() != null) {
      AlertsConfig.Quiet quiet = alerts.conversionsStopped();
      read = read.compose(v -> round.eventsInHours(id, quiet.hours(), 7)).map(seen -> {
        int daysWithSome = 0;
        for (int d = 1; d < seen.length; d++) {
          daysWithSome += seen[d] ? 1 : 0;
        }
        if (!seen[0] && daysWithSome >= quiet.days()) {
          readings.put(new Key(AlertCondition.CONVERSIONS_STOPPED, ""), Reading.state(null, null));
        }
        return null;
      });
    }
    if (alerts.networkUndercounts() != null) {
      LocalDate yesterday = LocalDate.ofInstant(now, workspace.report().zone()).minusDays(1);
      for (String network : List.of(Network.META.id, Network.TIKTOK.id)) {
        ReconcileQuery query = new ReconcileQuery(id, network, yesterday, yesterday, workspace.report().zone(),
            ReconcileQuery.DAY, workspace.report().reconcile().actions(network),
            workspace.report().reconcile().threshold());
        read = read.compose(v -> round.reconcile(query)).map(sides -> {
          Reading reading = Undercount.reading(query, sides, alerts.networkUndercounts().minDelivered());
          if (reading != null) {
            readings.put(new Key(AlertCondition.NETWORK_UNDERCOUNTS, network), reading);
          }
          return null;
        });
      }
    }
    if (alerts.invitePoolEmpty() != null) {
      read = read.compose(v -> round.freeLinks(id)).map(free -> {
        for (TelegramConfig bot : workspace.bots()) {
          for (String channel : bot.channels()) {
            if (free.getOrDefault(channel, 0L) == 0) {
              readings.put(new Key(AlertCondition.INVITE_POOL_EMPTY, channel),
                  Reading.state(null, channelRefusal.apply(LinkRefusals.key(id, channel))));
            }
          }
        }
        return null;
      });
    }
    return read;
  }

  private static Void counted(Map<Key, Reading> readings, AlertCondition condition, List<Tally> tallies,
                              AlertsConfig.Window window) {
    for (Tally tally : tallies) {
      readings.put(new Key(condition, tally.subject()), new Reading(tally.inWindow() >= window.minCount(), null,
          tally.inWindow(), tally.fresh(), tally.detail()));
    }
    return null;
  }

  /** Each condition and subject kept or read, stepped; a message per target for what is to be told. */
  private Planned planned(WorkspaceConfig workspace, List<AlertState> own, Map<Key, Reading> readings) {
    Map<Key, AlertState> kept = new TreeMap<>(ORDER);
    for (AlertState state : own) {
      AlertCondition condition = AlertCondition.of(state.condition());
      if (condition != null && timing(workspace.alerts(), condition) != null) {
        kept.put(new Key(condition, state.subject()), state);
      }
    }
    readings.keySet().forEach(key -> kept.putIfAbsent(key, null));
    List<AlertState> states = new ArrayList<>();
    List<NewAlert> alerts = new ArrayList<>();
    Duration period = workspace.alerts().summaryPeriod();
    kept.forEach((key, previous) -> {
      Timing timing = timing(workspace.alerts(), key.condition());
      AlertState prev = previous != null ? previous
          : new AlertState(workspace.id(), key.condition().id, key.subject(), null, false, null, null, 0, null);
      Step step = AlertRules.step(prev, readings.get(key), timing.hold(), period, round.now());
      if (step.next() != null) {
        states.add(step.next());
      }
      if (step.message() != null) {
        JsonObject message = AlertText.message(workspace.id(), workspace.label(), key.condition(), key.subject(),
            step.message(), timing.window(), step.next().detail(), round.now());
        for (AlertTarget target : workspace.alerts().targets()) {
          alerts.add(new NewAlert(workspace.id(), target.key(), message));
        }
      }
    });
    return new Planned(states, alerts);
  }

  /** A condition's timing in this workspace's settings; null when it is off. */
  private static Timing timing(AlertsConfig alerts, AlertCondition condition) {
    return switch (condition) {
      case INTEGRATION_PAUSED -> alerts.integrationPaused() ? AT_ONCE : null;
      case BREAKER_OPEN -> alerts.breakerOpen() == null ? null
          : new Timing(alerts.breakerOpen(), alerts.breakerOpen());
      case DELIVERIES_FAILED -> window(alerts.deliveriesFailed());
      case CONVERSIONS_STOPPED -> alerts.conversionsStopped() == null ? null
          : new Timing(Duration.ZERO, Duration.ofHours(alerts.conversionsStopped().hours()));
      case POSTBACKS_UNMATCHED -> window(alerts.postbacksUnmatched());
      case POSTBACK_MACROS -> window(alerts.postbackMacros());
      case INVITE_POOL_EMPTY -> alerts.invitePoolEmpty() == null ? null
          : new Timing(alerts.invitePoolEmpty(), alerts.invitePoolEmpty());
      case COST_SOURCE_FAILED -> alerts.costSourceFailed() == null ? null
          : new Timing(alerts.costSourceFailed(), alerts.costSourceFailed());
      case NETWORK_UNDERCOUNTS -> alerts.networkUndercounts() == null ? null : AT_ONCE;
    };
  }

  private static Timing window(AlertsConfig.Window window) {
    return window == null ? null : new Timing(Duration.ZERO, window.window());
  }
}
