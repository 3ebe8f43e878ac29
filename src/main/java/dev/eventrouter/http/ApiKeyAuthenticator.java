package dev.eventrouter.http;

import dev.eventrouter.config.ApiKeys;
import dev.eventrouter.config.PublishableKey;
import dev.eventrouter.config.WorkspaceConfig;

import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;

/**
 * Finds the workspace of an API key. Only SHA-256 digests of keys are held. The lookup is keyed by the digest of the
 * presented key, so its timing can tell an attacker at most something about a digest, which does not help guess a
 * key (the reason a constant-time comparison is not needed here).
 */
public final class ApiKeyAuthenticator {

  /** A publishable key and the workspace it belongs to. */
  record Publishable(WorkspaceConfig workspace, PublishableKey key) {}

  private final Map<String, WorkspaceConfig> byDigest = new HashMap<>();
  private final Map<String, Publishable> publishableByDigest = new HashMap<>();

  public ApiKeyAuthenticator(List<WorkspaceConfig> workspaces) {
    for (WorkspaceConfig workspace : workspaces) {
      for (byte[] digest : workspace.apiKeyHashes()) {
        byDigest.put(HexFormat.of().formatHex(digest), workspace);
      }
      for (PublishableKey key : workspace.publishableKeys()) {
        publishableByDigest.put(HexFormat.of().formatHex(key.hash()), new Publishable(workspace, key));
      }
    }
  }

  /** The publishable key presented and its workspace, or null when it is not one. */
  Publishable publishable(String key) {
    return key == null ? null : publishableByDigest.get(HexFormat.of().formatHex(ApiKeys.digest(key)));
  }

  /** The key's workspace, or null when the key is missing or unknown. */
  public WorkspaceConfig authenticate(String key) {
    return key == null ? null : byDigest.get(HexFormat.of().formatHex(ApiKeys.digest(key)));
  }
}
