package dev.eventrouter.store;

import dev.eventrouter.config.IntegrationConfig;
import dev.eventrouter.config.LiveConfig;
import dev.eventrouter.config.WorkspaceConfig;
import dev.eventrouter.event.EventMap;

import java.util.List;
import java.util.UUID;

/**
 * The deliveries of an event or of a conversion's change, as the config in force says: one per enabled integration
 * of the workspace that takes the event's name and forwards at its status ({@code send_on}), with the mapped name;
 * and an integration that corrects what it took (Google Ads) at every status, for its corrections.
 */
public final class ConfiguredPlan implements ConversionStore.Plan {

  private final LiveConfig live;

  public ConfiguredPlan(LiveConfig live) {
    this.live = live;
  }

  @Override
  public List<ConversionStore.Candidate> candidates(UUID workspaceId, String eventName, String status) {
    return live.current().workspace(workspaceId)
        .map(workspace -> workspace.integrations().stream()
            .filter(i -> i.enabled() && i.takes(eventName) && (i.sendsOn(status) || i.corrects()))
            .map(i -> candidate(workspace, i, eventName, status))
            .toList())
        .orElse(List.of());
  }

  private static ConversionStore.Candidate candidate(WorkspaceConfig workspace, IntegrationConfig integration,
                                                     String eventName, String status) {
    return new ConversionStore.Candidate(integration.id(), integration.network().id,
        EventMap.nameFor(workspace, integration, eventName), integration.sendsOnce(), integration.sendsOn(status),
        integration.corrects());
  }
}
