package dev.eventrouter.config;

import java.util.EnumSet;
import java.util.Set;

/**
 * What an API key may do in its workspace (docs/configuration.md, "Keys and roles"), as Stripe's restricted keys
 * split one account's access (https://docs.stripe.com/keys#limit-access).
 */
public enum KeyRole {
  /** Posts events, sessions, invites and spend: what a bot, a landing backend or a cost tool needs; reads nothing. */
  INGEST("ingest", EnumSet.of(Permission.INGEST)),
  /** The page and every read, no action. */
  VIEWER("viewer", EnumSet.of(Permission.READ, Permission.READ_ALL)),
  /** A viewer of its scope's campaigns alone: their events, deliveries, report rows and cost. */
  BUYER("buyer", EnumSet.of(Permission.READ)),
  /** Everything: what the other roles may, and the actions (redeliver, test, pause and resume, poll now, audit). */
  ADMIN("admin", EnumSet.allOf(Permission.class));

  /** What a route asks of the key that calls it. */
  public enum Permission {
    /** Write the workspace's data in: events, click sessions, invites, spend. */
    INGEST,
    /** Read what a buyer's scope narrows: events, deliveries, the funnel and cohort reports, cost sources. */
    READ,
    /** Read what no scope narrows: integrations, postbacks, the reconcile report. */
    READ_ALL,
    /** Act: redeliver, test an integration, pause or resume one, poll a cost source now, read the audit log. */
    ACT
  }

  public final String id;
  private final Set<Permission> permissions;

  KeyRole(String id, Set<Permission> permissions) {
    this.id = id;
    this.permissions = permissions;
  }

  public boolean may(Permission permission) {
    return permissions.contains(permission);
  }

  /** The role named {@code id}, or null. */
  static KeyRole of(Object id) {
    for (KeyRole role : values()) {
      if (role.id.equals(id)) {
        return role;
      }
    }
    return null;
  }
}
