package dev.eventrouter.config;

import java.util.List;
import java.util.Set;

/**
 * The clustered event bus (Hazelcast, TCP-IP join): off by default, a plain single process.
 *
 * @param host       the address this node's Hazelcast member socket and event bus bind: that interface only, unless
 *                   it is a wildcard (0.0.0.0 or ::), an explicit choice to listen on every interface
 * @param publicHost the address the other members reach this node at, announced to them; the host unless set
 * @param port       Hazelcast's member port
 * @param busPort    the event bus's own TCP port; 0 picks a free one
 * @param members    other members as host:port, for the TCP-IP join; empty for a first node that waits for others
 */
public record ClusterConfig(boolean enabled, String host, String publicHost, int port, int busPort,
                            List<String> members) {

  public static final int DEFAULT_PORT = 5701;
  /** The wildcard addresses, as a host binds them: every interface of the machine. */
  static final Set<String> EVERY_INTERFACE = Set.of("0.0.0.0", "::");

  /** Announced as it binds: the host is one address of this machine that the other members reach. */
  public ClusterConfig(boolean enabled, String host, int port, int busPort, List<String> members) {
    this(enabled, host, host, port, busPort, members);
  }

  /** Whether the host is a wildcard: the node listens on every interface and announces its public host. */
  public boolean everyInterface() {
    return EVERY_INTERFACE.contains(host);
  }
}
