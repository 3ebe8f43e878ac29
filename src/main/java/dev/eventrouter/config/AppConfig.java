package dev.eventrouter.config;

import java.util.List;

public record AppConfig(HttpConfig http, DatabaseConfig database, List<WorkspaceConfig> workspaces) {

  public AppConfig withDatabase(DatabaseConfig database) {
    return new AppConfig(http, database, workspaces);
  }

  public AppConfig withHttp(HttpConfig http) {
    return new AppConfig(http, database, workspaces);
  }
}
