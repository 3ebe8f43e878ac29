package dev.eventrouter.config;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * @param roles what this node runs
 * @param byId  the workspaces by id, derived from {@code workspaces}
 */
public record AppConfig(HttpConfig http, ManagementConfig management, DatabaseConfig database, SessionConfig session,
                        DeliveryConfig delivery, ClusterConfig cluster, ReportsConfig reports, AlertChecks alerts,
                        Set<Role> roles, List<WorkspaceConfig> workspaces,
                        Map<UUID, WorkspaceConfig> byId) {

  public AppConfig(HttpConfig http, ManagementConfig management, DatabaseConfig database, SessionConfig session,
                   DeliveryConfig delivery, ClusterConfig cluster, ReportsConfig reports, AlertChecks alerts,
                   Set<Role> roles, List<WorkspaceConfig> workspaces) {
    this(http, management, database, session, delivery, cluster, reports, alerts, roles, workspaces, workspaces.stream()
        .collect(Collectors.toUnmodifiableMap(WorkspaceConfig::id, Function.identity())));
  }

  public boolean runs(Role role) {
    return roles.contains(role);
  }

  public Optional<WorkspaceConfig> workspace(UUID id) {
    return Optional.ofNullable(byId.get(id));
  }

  /** This config with another's hot-reloadable parts: workspaces, sessions, delivery, reports and alerts. */
  public AppConfig reloadedFrom(AppConfig next) {
    return new AppConfig(http, management, database, next.session, next.delivery, cluster, next.reports, next.alerts,
        roles, next.workspaces);
  }
}
