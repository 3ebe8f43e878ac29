package dev.eventrouter.cluster;

import com.hazelcast.config.AdvancedNetworkConfig;
import com.hazelcast.config.Config;
import com.hazelcast.config.JoinConfig;
import com.hazelcast.config.ServerSocketEndpointConfig;
import com.hazelcast.instance.EndpointQualifier;
import dev.eventrouter.common.StartupException;
import dev.eventrouter.config.ClusterConfig;
import io.vertx.core.VertxOptions;
import io.vertx.core.eventbus.EventBusOptions;
import io.vertx.spi.cluster.hazelcast.ConfigUtil;
import io.vertx.spi.cluster.hazelcast.HazelcastClusterManager;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.net.InetAddress;
import java.net.UnknownHostException;

/**
 * The clustered event bus: Vert.x's Hazelcast cluster manager (https://vertx.io/docs/vertx-hazelcast/java/), joined
 * over TCP-IP to the configured members, with multicast and auto-detection off so a node joins only what it is
 * told. Kubernetes users can switch the join to Hazelcast's Kubernetes discovery with a Hazelcast file of their own
 * (https://docs.hazelcast.com/hazelcast/5.3/kubernetes/kubernetes-auto-discovery).
 */
public final class ClusterSetup {

  /** Every member of one deployment uses this name; another deployment on the same network stays apart. */
  static final String CLUSTER_NAME = "event-router";
  /**
   * How long a member that stopped answering stays a member, and how long a leaving node waits for the others to
   * take its partitions over.
   */
  static final int FROZEN_MEMBER_SECONDS = 15;

  /** Vert.x's system property naming a Hazelcast config file. */
  static final String USER_CONFIG = "vertx.hazelcast.config";

  private static final Logger LOG = LoggerFactory.getLogger(ClusterSetup.class);

  private ClusterSetup() {}

  /**
   * The cluster config section's network and join, on Vert.x's own Hazelcast defaults (the maps and multimaps its
   * event bus needs). A Hazelcast file of the user's, named by {@code -Dvertx.hazelcast.config=PATH}, is taken as it
   * is instead, network and join included: the way to Kubernetes discovery or any other join.
   */
  public static HazelcastClusterManager clusterManager(ClusterConfig cluster) {
    Config config = ConfigUtil.loadConfig();
    if (System.getProperty(USER_CONFIG) != null) {
      if (takesClients(config)) {
        LOG.warn("SECURITY: the Hazelcast file {} accepts Hazelcast clients, which need no credentials and can "
            + "read and change the event bus's maps: give it an advanced-network with a member-server-socket-"
            + "endpoint-config and no client endpoint, bound to this node's cluster address",
            System.getProperty(USER_CONFIG));
      }
      return new HazelcastClusterManager(config);
    }
    config.setClusterName(CLUSTER_NAME);
    config.setProperty("hazelcast.logging.type", "slf4j");
    // No wait before the first join attempt: a node joins in about 2 s instead of 7.
    config.setProperty("hazelcast.wait.seconds.before.join", "0");
    config.setProperty("hazelcast.phone.home.enabled", "false");
    // Vert.x leaves the cluster as part of its own close, after our graceful stop; Hazelcast's hook would leave first.
    config.setProperty("hazelcast.shutdownhook.enabled", "false");
    // A frozen member (a paused VM, a stalled host) stays a member until its heartbeats are missed this long, and
    // every operation on the partitions it owns waits for it meanwhile: a cold subscription lookup (wake-ups wait
    // behind it) and a consumer's removal (a stopping node waits). Hazelcast's 60 s outlasts a stop grace period.
    // Leaving hands this member's partitions over, and would wait for a frozen member up to 600 s. What Vert.x
    // keeps there (subscriptions) the members rebuild when one leaves.
    // https://docs.hazelcast.com/hazelcast/5.3/system-properties
    config.setProperty("hazelcast.max.no.heartbeat.seconds", String.valueOf(FROZEN_MEMBER_SECONDS));
    config.setProperty("hazelcast.graceful.shutdown.max.wait", String.valueOf(FROZEN_MEMBER_SECONDS));
    memberSocketOnly(config, cluster);
    return new HazelcastClusterManager(config);
  }

  /**
   * One server socket, for members only, on the cluster host only. Hazelcast's plain network config takes clients on
   * the member port too, and so would let anyone who reaches it read and write the event bus's maps with no
   * credentials; its advanced network config opens the endpoints it lists and no others, and lists only the
   * member's. https://docs.hazelcast.com/hazelcast/5.3/clusters/advanced-network-configuration
   */
  private static void memberSocketOnly(Config config, ClusterConfig cluster) {
    AdvancedNetworkConfig network = config.getAdvancedNetworkConfig().setEnabled(true);
    ServerSocketEndpointConfig member = new ServerSocketEndpointConfig().setPort(cluster.port())
        .setPortAutoIncrement(false);
    if (!cluster.publicHost().equals(cluster.host())) {
      member.setPublicAddress(cluster.publicHost());
    }
    network.setMemberEndpointConfig(member);
    // Hazelcast's server socket binds every interface whatever address it announces, and its outgoing connections
    // leave from any (hazelcast.socket.bind.any, true by default, for both): both on the cluster host instead,
    // unless that is a wildcard. https://docs.hazelcast.com/hazelcast/5.3/system-properties
    boolean everyInterface = cluster.everyInterface();
    config.setProperty("hazelcast.socket.server.bind.any", String.valueOf(everyInterface));
    config.setProperty("hazelcast.socket.client.bind.any", String.valueOf(everyInterface));
    if (!everyInterface) {
      // Hazelcast takes an address here; a name (a container's, say) is resolved once, at start.
      config.setProperty("hazelcast.local.localAddress", address(cluster.host()));
    }
    JoinConfig join = network.getJoin();
    join.getMulticastConfig().setEnabled(false);
    join.getAutoDetectionConfig().setEnabled(false);
    join.getTcpIpConfig().setEnabled(true).setMembers(cluster.members());
  }

  /** The plain network config takes clients on the member port; the advanced one only on a client endpoint. */
  static boolean takesClients(Config config) {
    return !config.getAdvancedNetworkConfig().isEnabled()
        || config.getAdvancedNetworkConfig().getEndpointConfigs().containsKey(EndpointQualifier.CLIENT);
  }

  private static String address(String host) {
    try {
      return InetAddress.getByName(host).getHostAddress();
    } catch (UnknownHostException e) {
      throw new StartupException("cluster.host " + host + " does not resolve to an address of this machine");
    }
  }

  /** The event bus listens on the cluster host too, and announces the public host to the other members. */
  public static VertxOptions options(VertxOptions options, ClusterConfig cluster) {
    return options.setEventBusOptions(new EventBusOptions()
        .setHost(cluster.host())
        .setPort(cluster.busPort())
        .setClusterPublicHost(cluster.publicHost()));
  }
}
