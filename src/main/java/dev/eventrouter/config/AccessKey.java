package dev.eventrouter.config;

import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * One API key of a workspace: its name (in the audit log, the page and the logs; never the key), its SHA-256 digest
 * (the key itself is never kept), its role, a buyer's scope, and when it stops being accepted.
 *
 * @param scope     a buyer's campaigns and ad accounts; null for the other roles
 * @param expiresAt the instant from which the key is refused as an unknown one; null when it never expires
 */
public record AccessKey(String name, byte[] hash, KeyRole role, Scope scope, Instant expiresAt) {

  public AccessKey {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(hash, "hash");
    Objects.requireNonNull(role, "role");
  }

  /**
   * A buyer's campaigns: those named, and those of the spend imported from the ad accounts named (their cost
   * sources').
   */
  public record Scope(List<String> campaignIds, List<String> adAccountIds) {

    public Scope {
      campaignIds = List.copyOf(campaignIds);
      adAccountIds = List.copyOf(adAccountIds);
    }
  }

  /** A key of the workspace's {@code api_keys} list: an admin, as every key was before roles. */
  static AccessKey legacy(int index, byte[] hash) {
    return new AccessKey("api_keys[" + index + "]", hash, KeyRole.ADMIN, null, null);
  }

  public boolean expired(Instant now) {
    return expiresAt != null && !now.isBefore(expiresAt);
  }

  @Override
  public String toString() {
    return "AccessKey[" + name + " " + role.id + "]"; // never the digest
  }
}
