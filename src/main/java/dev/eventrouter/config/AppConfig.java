package dev.eventrouter.config;

import java.util.List;

public record AppConfig(HttpConfig http, DatabaseConfig database, SessionConfig session,
                        List<WorkspaceConfig> workspaces) {}
