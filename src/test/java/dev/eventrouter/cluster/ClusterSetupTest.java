package dev.eventrouter.cluster;

import com.hazelcast.config.Config;
import com.hazelcast.config.JoinConfig;
import dev.eventrouter.config.ClusterConfig;
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
    JoinConfig join = config.getNetworkConfig().getJoin();
    assertThat(join.getTcpIpConfig().isEnabled()).isTrue();
    assertThat(join.getTcpIpConfig().getMembers()).containsExactly("10.0.0.5:5801", "10.0.0.6:5801");
    assertThat(join.getMulticastConfig().isEnabled()).isFalse();
    assertThat(join.getAutoDetectionConfig().isEnabled()).isFalse();
    assertThat(config.getNetworkConfig().getPort()).isEqualTo(5801);
    assertThat(config.getNetworkConfig().isPortAutoIncrement()).isFalse();
    assertThat(config.getProperty("hazelcast.local.localAddress")).isEqualTo("10.0.0.4");
    assertThat(config.getProperty("hazelcast.wait.seconds.before.join")).isEqualTo("0");
    assertThat(config.getProperty("hazelcast.graceful.shutdown.max.wait")).isEqualTo("15");
    assertThat(config.getProperty("hazelcast.max.no.heartbeat.seconds")).isEqualTo("15");
    assertThat(config.getClusterName()).isEqualTo("event-router");
    assertThat(config.getMultiMapConfigs()).as("Vert.x's defaults kept").containsKey("__vertx.subs");
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
    try {
      Config config = ClusterSetup.clusterManager(new ClusterConfig(true, "10.0.0.4", 5801, 0,
          List.of("10.0.0.5:5801"))).getConfig();
      assertThat(config.getClusterName()).isEqualTo("k8s-events");
      assertThat(config.getNetworkConfig().getJoin().getKubernetesConfig().isEnabled()).isTrue();
      assertThat(config.getNetworkConfig().getJoin().getTcpIpConfig().isEnabled()).isFalse();
    } finally {
      System.clearProperty(ClusterSetup.USER_CONFIG);
    }
  }
}
