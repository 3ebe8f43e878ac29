package dev.eventrouter.http;

import dev.eventrouter.config.ApiKeys;
import dev.eventrouter.config.WorkspaceConfig;

import java.security.MessageDigest;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;

/**
 * Finds the workspace of an API key. Only SHA-256 digests of keys are held. The lookup is keyed by the digest of the
 * presented key, so its timing can tell an attacker at most something about a digest, which does not help guess a
 * key; the final comparison is constant-time ({@link MessageDigest#isEqual}).
 */
public final class ApiKeyAuthenticator {

  private record Entry(byte[] digest, WorkspaceConfig workspace) {}

  private final Map<String, Entry> byDigest = new HashMap<>();

  public ApiKeyAuthenticator(List<WorkspaceConfig> workspaces) {
    for (WorkspaceConfig workspace : workspaces) {
      for (byte[] digest : workspace.apiKeyHashes()) {
        byDigest.put(HexFormat.of().formatHex(digest), new Entry(digest, workspace));
      }
    }
  }

  /** The key's workspace, or null when the key is missing or unknown. */
  public WorkspaceConfig authenticate(String key) {
    if (key == null || key.isEmpty()) {
      return null;
    }
    byte[] digest = ApiKeys.digest(key);
    Entry entry = byDigest.get(HexFormat.of().formatHex(digest));
    return entry != null && MessageDigest.isEqual(entry.digest(), digest) ? entry.workspace() : null;
  }
}
