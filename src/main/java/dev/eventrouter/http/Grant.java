package dev.eventrouter.http;

import dev.eventrouter.config.AccessKey;
import dev.eventrouter.config.WorkspaceConfig;

/** What the request's API key opens: its workspace, and the key itself (its name, role and scope). */
public record Grant(WorkspaceConfig workspace, AccessKey key) {}
