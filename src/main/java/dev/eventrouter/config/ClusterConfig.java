package dev.eventrouter.config;

import java.util.List;

/**
 * The clustered event bus (Hazelcast, TCP-IP join): off by default, a plain single process.
 *
 * @param host    the address this node's Hazelcast and event bus bind and announce
 * @param port    Hazelcast's member port
 * @param busPort the event bus's own TCP port; 0 picks a free one
 * @param members other members as host:port, for the TCP-IP join; empty for a first node that waits for others
 */
public record ClusterConfig(boolean enabled, String host, int port, int busPort, List<String> members) {

  public static final int DEFAULT_PORT = 5701;
}
