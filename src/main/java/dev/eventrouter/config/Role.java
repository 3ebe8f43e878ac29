package dev.eventrouter.config;

/** What a node runs. Both by default; a cluster may scale them apart. */
public enum Role {
  /** HttpVerticle and SessionVerticle: authenticate, resolve, store, answer. */
  INGEST("ingest"),
  /** The ForwarderVerticles: claim due deliveries and send them. */
  FORWARD("forward");

  public final String id;

  Role(String id) {
    this.id = id;
  }

  /** The role named {@code id}, or null. */
  static Role of(Object id) {
    for (Role role : values()) {
      if (role.id.equals(id)) {
        return role;
      }
    }
    return null;
  }
}
