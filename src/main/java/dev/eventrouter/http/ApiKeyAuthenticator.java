package dev.eventrouter.http;

import dev.eventrouter.config.AccessKey;
import dev.eventrouter.config.ApiKeys;
import dev.eventrouter.config.PublishableKey;
import dev.eventrouter.config.WorkspaceConfig;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Instant;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Finds the workspace and the key of an API key. Only SHA-256 digests of keys are held. The lookup is keyed by the
 * digest of the presented key, so its timing can tell an attacker at most something about a digest, which does not
 * help guess a key (the reason a constant-time comparison is not needed here).
 */
public final class ApiKeyAuthenticator {

  private static final Logger LOG = LoggerFactory.getLogger(ApiKeyAuthenticator.class);

  /** A publishable key and the workspace it belongs to. */
  record Publishable(WorkspaceConfig workspace, PublishableKey key) {}

  private final Map<String, Grant> byDigest = new HashMap<>();
  private final Map<String, Publishable> publishableByDigest = new HashMap<>();
  /** The expired keys already logged: each once while this config is in force, however often it is presented. */
  private final Set<AccessKey> loggedExpired = ConcurrentHashMap.newKeySet();

  public ApiKeyAuthenticator(List<WorkspaceConfig> workspaces) {
    for (WorkspaceConfig workspace : workspaces) {
      for (AccessKey key : workspace.accessKeys()) {
        byDigest.put(HexFormat.of().formatHex(key.hash()), new Grant(workspace, key));
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

  /**
   * The key's workspace and role, or null when the key is missing, unknown or expired: an expired key is refused as
   * an unknown one (its caller learns nothing more), and logged once by name for the operator who rotates it.
   */
  public Grant authenticate(String key, Instant now) {
    Grant grant = key == null ? null : byDigest.get(HexFormat.of().formatHex(ApiKeys.digest(key)));
    if (grant == null || !grant.key().expired(now)) {
      return grant;
    }
    if (loggedExpired.add(grant.key())) {
      LOG.warn("API key \"{}\" of workspace {} expired at {} and is refused; remove it from the config or give it a "
          + "later expires_at", grant.key().name(), grant.workspace().id(), grant.key().expiresAt());
    }
    return null;
  }
}
