package dev.eventrouter.support;

import dev.eventrouter.cluster.ClusterSetup;
import dev.eventrouter.config.ClusterConfig;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;

import java.util.ArrayList;
import java.util.List;

/**
 * Clustered Vert.x nodes in one JVM, as the service builds them: Vert.x's Hazelcast cluster manager on loopback, TCP
 * joins to the other members' ports (multicast off). Ports below the ephemeral range, so no outgoing connection
 * takes them.
 */
public final class ClusterNodes {

  private final List<Vertx> nodes = new ArrayList<>();

  /** A node on {@code port} that joins the members on {@code others}. */
  public Vertx start(int port, int... others) {
    List<String> members = new ArrayList<>();
    for (int other : others) {
      members.add("127.0.0.1:" + other);
    }
    ClusterConfig cluster = new ClusterConfig(true, "127.0.0.1", port, 0, members);
    Vertx vertx = Vertx.builder().with(ClusterSetup.options(new VertxOptions(), cluster))
        .withClusterManager(ClusterSetup.clusterManager(cluster)).buildClustered().await();
    nodes.add(vertx);
    return vertx;
  }

  /** Closes every node started, in order. */
  public void close() {
    nodes.forEach(node -> node.close().await());
    nodes.clear();
  }
}
