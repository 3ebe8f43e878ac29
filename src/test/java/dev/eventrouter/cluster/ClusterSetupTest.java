package dev.eventrouter.cluster;

import com.hazelcast.config.Config;
import com.hazelcast.config.JoinConfig;
import com.hazelcast.config.ServerSocketEndpointConfig;
import com.hazelcast.instance.EndpointQualifier;
import dev.eventrouter.config.ClusterConfig;
import dev.eventrouter.support.LogCapture;
import io.vertx.core.VertxOptions;
import io.vertx.core.eventbus.EventBusOptions;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The Hazelcast config a node starts with, without starting it. */
class ClusterSetupTest {

  @Test
  @DisplayName("the cluster section gives a TCP-IP join to the listed members only, on the configured address")
  void fromClusterSection() {
    Config config = ClusterSetup.clusterManager(new ClusterConfig(true, "10.0.0.4", 5801, 0,
        List.of("10.0.0.5:5801", "10.0.0.6:5801"))).getConfig();
    JoinConfig join = config.getAdvancedNetworkConfig().getJoin();
    assertThat(join.getTcpIpConfig().isEnabled()).isTrue();
    assertThat(join.getTcpIpConfig().getMembers()).containsExactly("10.0.0.5:5801", "10.0.0.6:5801");
    assertThat(join.getMulticastConfig().isEnabled()).isFalse();
    assertThat(join.getAutoDetectionConfig().isEnabled()).isFalse();
    assertThat(config.getProperty("hazelcast.local.localAddress")).isEqualTo("10.0.0.4");
    assertThat(config.getProperty("hazelcast.wait.seconds.before.join")).isEqualTo("0");
    assertThat(config.getProperty("hazelcast.graceful.shutdown.max.wait")).isEqualTo("15");
    assertThat(config.getProperty("hazelcast.max.no.heartbeat.seconds")).isEqualTo("15");
    assertThat(config.getClusterName()).isEqualTo("event-router");
    assertThat(config.getMultiMapConfigs()).as("Vert.x's defaults kept").containsKey("__vertx.subs");
  }

  @Test
  @DisplayName("one server socket, for members only (no client endpoint), on the cluster host, announced as it is")
  void memberSocketOnly() {
    Config config = ClusterSetup.clusterManager(new ClusterConfig(true, "10.0.0.4", 5801, 0, List.of()))
        .getConfig();
    assertThat(config.getAdvancedNetworkConfig().isEnabled()).isTrue();
    assertThat(config.getAdvancedNetworkConfig().getEndpointConfigs()).containsOnlyKeys(EndpointQualifier.MEMBER);
    ServerSocketEndpointConfig member = (ServerSocketEndpointConfig) config.getAdvancedNetworkConfig()
        .getEndpointConfigs().get(EndpointQualifier.MEMBER);
    assertThat(member.getPort()).isEqualTo(5801);
    assertThat(member.isPortAutoIncrement()).isFalse();
    assertThat(member.getPublicAddress()).isNull();
    assertThat(config.getProperty("hazelcast.socket.server.bind.any")).isEqualTo("false");
    assertThat(config.getProperty("hazelcast.socket.client.bind.any")).isEqualTo("false");
    assertThat(ClusterSetup.options(new VertxOptions(), new ClusterConfig(true, "10.0.0.4", 5801, 5802, List.of()))
        .getEventBusOptions()).extracting(EventBusOptions::getHost, EventBusOptions::getPort,
            EventBusOptions::getClusterPublicHost).containsExactly("10.0.0.4", 5802, "10.0.0.4");
  }

  @Test
  @DisplayName("a wildcard host binds every interface, as chosen, and Hazelcast and the event bus announce the "
      + "public host")
  void everyInterface() {
    ClusterConfig cluster = new ClusterConfig(true, "0.0.0.0", "203.0.113.7", 5801, 5802, List.of());
    Config config = ClusterSetup.clusterManager(cluster).getConfig();
    assertThat(config.getProperty("hazelcast.socket.server.bind.any")).isEqualTo("true");
    assertThat(config.getProperty("hazelcast.socket.client.bind.any")).isEqualTo("true");
    assertThat(config.getProperty("hazelcast.local.localAddress")).isNull();
    assertThat(((ServerSocketEndpointConfig) config.getAdvancedNetworkConfig().getEndpointConfigs()
        .get(EndpointQualifier.MEMBER)).getPublicAddress()).isEqualTo("203.0.113.7");
    assertThat(ClusterSetup.options(new VertxOptions(), cluster).getEventBusOptions())
        .extracting(EventBusOptions::getHost, EventBusOptions::getClusterPublicHost)
        .containsExactly("0.0.0.0", "203.0.113.7");
    // A public host on a specific bind address: announced, and the bind stays on the host.
    Config nat = ClusterSetup.clusterManager(new ClusterConfig(true, "10.0.0.4", "203.0.113.7", 5801, 0,
        List.of())).getConfig();
    assertThat(nat.getProperty("hazelcast.local.localAddress")).isEqualTo("10.0.0.4");
    assertThat(nat.getProperty("hazelcast.socket.server.bind.any")).isEqualTo("false");
    assertThat(((ServerSocketEndpointConfig) nat.getAdvancedNetworkConfig().getEndpointConfigs()
        .get(EndpointQualifier.MEMBER)).getPublicAddress()).isEqualTo("203.0.113.7");
  }

  @Test
  @DisplayName("a host name is resolved to its address for Hazelcast; one that does not resolve stops the start")
  void hostNames() {
    assertThat(ClusterSetup.clusterManager(new ClusterConfig(true, "localhost", 5801, 0, List.of())).getConfig()
        .getProperty("hazelcast.local.localAddress")).isIn("127.0.0.1", "0:0:0:0:0:0:0:1");
    assertThatThrownBy(() -> ClusterSetup.clusterManager(new ClusterConfig(true, "no-such-host.invalid", 5801, 0,
        List.of()))).hasMessage("cluster.host no-such-host.invalid does not resolve to an address of this machine");
  }

  @Test
  @DisplayName("a Hazelcast file named by -Dvertx.hazelcast.config is used as it is, join included")
  void userFile(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("cluster.xml");
    Files.writeString(file, """
        <hazelcast xmlns="http://www.hazelcast.com/schema/config">
          <cluster-name>k8s-events</cluster-name>
          <network><join><multicast enabled="false"/><kubernetes enabled="true"/></join></network>
        </hazelcast>
        """);
    System.setProperty(ClusterSetup.USER_CONFIG, file.toString());
    LogCapture logs = LogCapture.start();
    try {
      Config config = ClusterSetup.clusterManager(new ClusterConfig(true, "10.0.0.4", 5801, 0,
          List.of("10.0.0.5:5801"))).getConfig();
      assertThat(config.getClusterName()).isEqualTo("k8s-events");
      assertThat(config.getNetworkConfig().getJoin().getKubernetesConfig().isEnabled()).isTrue();
      assertThat(config.getNetworkConfig().getJoin().getTcpIpConfig().isEnabled()).isFalse();
      assertThat(config.getAdvancedNetworkConfig().isEnabled()).isFalse();
      assertThat(logs.text()).contains("SECURITY: the Hazelcast file " + file + " accepts Hazelcast clients");
    } finally {
      logs.stop();
      System.clearProperty(ClusterSetup.USER_CONFIG);
    }
  }

  @Test
  @DisplayName("a Hazelcast config takes clients unless it is an advanced network config with no client endpoint")
  void takesClients() {
    assertThat(ClusterSetup.takesClients(new Config())).as("the plain network config").isTrue();
    Config memberOnly = new Config();
    memberOnly.getAdvancedNetworkConfig().setEnabled(true);
    assertThat(ClusterSetup.takesClients(memberOnly)).isFalse();
    memberOnly.getAdvancedNetworkConfig().setClientEndpointConfig(new ServerSocketEndpointConfig().setPort(9090));
    assertThat(ClusterSetup.takesClients(memberOnly)).as("with a client endpoint").isTrue();
    assertThat(ClusterSetup.takesClients(ClusterSetup.clusterManager(new ClusterConfig(true, "127.0.0.1", 5801, 0,
        List.of())).getConfig())).as("the cluster section's").isFalse();
  }
}
