package dev.eventrouter.cluster;

import com.hazelcast.client.HazelcastClient;
import com.hazelcast.client.config.ClientConfig;
import com.hazelcast.core.HazelcastInstance;
import dev.eventrouter.config.ClusterConfig;
import dev.eventrouter.support.Await;
import dev.eventrouter.support.ListeningSockets;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.spi.cluster.NodeInfo;
import io.vertx.spi.cluster.hazelcast.HazelcastClusterManager;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.ConnectException;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.Socket;
import java.net.SocketException;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * What a clustered node opens to the network, seen from outside the configuration: the sockets the kernel lists as
 * listening, connections to the machine's other addresses, and a Hazelcast client. Ports are below the ephemeral
 * range so no outgoing connection takes them.
 */
class ClusterExposureTest {

  private static final int MEMBER_PORT = 15831;
  private static final int BUS_PORT = 15832;
  private static final int WILDCARD_MEMBER_PORT = 15833;
  private static final int WILDCARD_BUS_PORT = 15834;
  /** How long the Hazelcast client keeps trying the member before it gives up. */
  private static final int CLIENT_TRIES_MS = 3_000;

  private final List<Vertx> nodes = new ArrayList<>();
  private final List<HazelcastInstance> clients = new ArrayList<>();

  @AfterEach
  void stop() {
    clients.forEach(HazelcastInstance::shutdown);
    nodes.forEach(node -> node.close().await());
  }

  private HazelcastClusterManager node(ClusterConfig cluster) {
    HazelcastClusterManager manager = ClusterSetup.clusterManager(cluster);
    nodes.add(Vertx.builder().with(ClusterSetup.options(new VertxOptions(), cluster)).withClusterManager(manager)
        .buildClustered().await());
    return manager;
  }

  private static ClusterConfig loopback(int port, int busPort, int... others) {
    List<String> members = new ArrayList<>();
    for (int other : others) {
      members.add("127.0.0.1:" + other);
    }
    return new ClusterConfig(true, "127.0.0.1", port, busPort, members);
  }

  @Test
  @DisplayName("with cluster.host 127.0.0.1 the member port and the event bus port listen on 127.0.0.1 only, and "
      + "neither answers on the machine's other addresses")
  void boundToClusterHost() {
    node(loopback(MEMBER_PORT, BUS_PORT));
    InetAddress loopback = InetAddress.getLoopbackAddress();
    assertThat(ListeningSockets.on(MEMBER_PORT)).as("Hazelcast's member socket").containsExactly(loopback);
    assertThat(ListeningSockets.on(BUS_PORT)).as("the event bus's socket").containsExactly(loopback);
    for (InetAddress other : otherAddresses()) {
      assertThat(refused(other, MEMBER_PORT)).as("member port through " + other).isTrue();
      assertThat(refused(other, BUS_PORT)).as("event bus port through " + other).isTrue();
    }
  }

  @Test
  @DisplayName("a Hazelcast client, with the right cluster name and no credentials, cannot connect to a member, so "
      + "it cannot read the event bus's subscriptions or any other map")
  void clientsRefused() {
    node(loopback(MEMBER_PORT, BUS_PORT));
    ClientConfig client = new ClientConfig().setClusterName(ClusterSetup.CLUSTER_NAME)
        .setProperty("hazelcast.logging.type", "slf4j");
    client.getNetworkConfig().addAddress("127.0.0.1:" + MEMBER_PORT);
    client.getConnectionStrategyConfig().getConnectionRetryConfig().setClusterConnectTimeoutMillis(CLIENT_TRIES_MS);

    Throwable refused = catchThrowable(() -> {
      HazelcastInstance connected = HazelcastClient.newHazelcastClient(client);
      clients.add(connected);
      connected.getMultiMap("__vertx.subs").size();
    });

    assertThat(refused).isInstanceOf(IllegalStateException.class).hasMessageContaining("Unable to connect");
  }

  @Test
  @DisplayName("a wildcard cluster.host listens on every interface, as chosen, and announces cluster.public_host: "
      + "the other member knows it by that address, and the event bus carries a request to it and its reply")
  void wildcardWithPublicHost() {
    HazelcastClusterManager loopbackNode = node(loopback(MEMBER_PORT, BUS_PORT, WILDCARD_MEMBER_PORT));
    HazelcastClusterManager wildcardNode = node(new ClusterConfig(true, "0.0.0.0", "127.0.0.1",
        WILDCARD_MEMBER_PORT, WILDCARD_BUS_PORT, List.of("127.0.0.1:" + MEMBER_PORT)));
    Await.result(nodes.get(1).eventBus().consumer("exposure.echo", message -> message.reply("echo " + message.body()))
        .completion());

    assertThat(ListeningSockets.on(WILDCARD_MEMBER_PORT)).singleElement()
        .satisfies(address -> assertThat(address.isAnyLocalAddress()).isTrue());
    assertThat(ListeningSockets.on(WILDCARD_BUS_PORT)).singleElement()
        .satisfies(address -> assertThat(address.isAnyLocalAddress()).isTrue());
    Await.until("the loopback node to see both members", Await.WAIT,
        () -> loopbackNode.getNodes().size() == 2);
    assertThat(loopbackNode.getHazelcastInstance().getCluster().getMembers()).map(member -> member.getAddress()
        .toString()).containsExactlyInAnyOrder("[127.0.0.1]:" + MEMBER_PORT, "[127.0.0.1]:" + WILDCARD_MEMBER_PORT);
    Promise<NodeInfo> announced = Promise.promise();
    loopbackNode.getNodeInfo(wildcardNode.getNodeId(), announced);
    assertThat(Await.result(announced.future())).extracting(NodeInfo::host, NodeInfo::port)
        .containsExactly("127.0.0.1", WILDCARD_BUS_PORT);
    assertThat(Await.result(nodes.get(0).eventBus().<String>request("exposure.echo", "hi")).body())
        .isEqualTo("echo hi");
  }

  /** The machine's addresses other than loopback (link-local IPv6 ones need a scope, and are left out). */
  private static List<InetAddress> otherAddresses() {
    List<InetAddress> addresses = new ArrayList<>();
    try {
      for (NetworkInterface nic : NetworkInterface.networkInterfaces().toList()) {
        if (nic.isUp()) {
          nic.inetAddresses().filter(a -> !a.isLoopbackAddress())
              .filter(a -> !(a instanceof Inet6Address && a.isLinkLocalAddress())).forEach(addresses::add);
        }
      }
    } catch (SocketException e) {
      throw new IllegalStateException(e);
    }
    return addresses;
  }

  /** Whether a connection to the address and port is refused; one that opens is closed at once. */
  private static boolean refused(InetAddress address, int port) {
    try (Socket socket = new Socket()) {
      socket.connect(new InetSocketAddress(address, port), CLIENT_TRIES_MS);
      return false;
    } catch (ConnectException refused) {
      return true;
    } catch (IOException e) {
      throw new IllegalStateException("neither connected nor refused: " + address + ":" + port, e);
    }
  }
}
