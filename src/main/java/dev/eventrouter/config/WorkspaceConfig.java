package dev.eventrouter.config;

import java.util.List;
import java.util.UUID;

/**
 * @param apiKeyHashes SHA-256 digests (32 bytes each) of the workspace's API keys; the keys themselves are never kept
 */
public record WorkspaceConfig(UUID id, String name, List<byte[]> apiKeyHashes, RateLimitConfig rateLimit) {

  @Override
  public String toString() {
    return "WorkspaceConfig[" + id + " " + name + "]";
  }
}
