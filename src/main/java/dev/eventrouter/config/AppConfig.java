package dev.eventrouter.config;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Function;
import java.util.stream.Collectors;

/** @param byId the workspaces by id, derived from {@code workspaces} */
public record AppConfig(HttpConfig http, DatabaseConfig database, SessionConfig session, DeliveryConfig delivery,
                        List<WorkspaceConfig> workspaces, Map<UUID, WorkspaceConfig> byId) {

  public AppConfig(HttpConfig http, DatabaseConfig database, SessionConfig session, DeliveryConfig delivery,
                   List<WorkspaceConfig> workspaces) {
    this(http, database, session, delivery, workspaces, workspaces.stream()
        .collect(Collectors.toUnmodifiableMap(WorkspaceConfig::id, Function.identity())));
  }

  public Optional<WorkspaceConfig> workspace(UUID id) {
    return Optional.ofNullable(byId.get(id));
  }

  /** This config with another's hot-reloadable parts: workspaces, sessions and delivery. */
  public AppConfig reloadedFrom(AppConfig next) {
    return new AppConfig(http, database, next.session, next.delivery, next.workspaces);
  }
}
