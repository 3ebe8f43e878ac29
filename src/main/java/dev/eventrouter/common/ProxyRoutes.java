package dev.eventrouter.common;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.net.ClientSSLOptions;
import io.vertx.core.net.ConnectOptions;
import io.vertx.core.net.NetClient;
import io.vertx.core.net.NetClientOptions;
import io.vertx.core.net.NetServer;
import io.vertx.core.net.NetServerOptions;
import io.vertx.core.net.NetSocket;
import io.vertx.core.net.PemTrustOptions;
import io.vertx.core.net.ProxyOptions;
import io.vertx.core.net.ProxyType;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * How one client's requests reach their proxies, as Vert.x {@link ProxyOptions} for a request: an {@code http} proxy
 * as such (CONNECT for https targets, https://vertx.io/docs/vertx-core/java/#_using_a_proxy_for_httphttps_connections),
 * a {@code socks5} one as such. Vert.x 5.0 cannot speak TLS to a proxy (ProxyType has no HTTPS:
 * https://github.com/eclipse-vertx/vert.x/issues/6207), so an {@code https} proxy is reached through a bridge of its
 * own: a listener on loopback whose connections are piped, over TLS checked against the proxy's name, to the proxy;
 * the client speaks plain HTTP proxy to the bridge. The bridge adds nothing: the proxy's credentials travel inside
 * the TLS, in the client's own CONNECT.
 */
public final class ProxyRoutes {

  private final Vertx vertx;
  private final int connectTimeoutMs;
  private final Map<ProxyConfig, Future<Bridge>> bridges = new ConcurrentHashMap<>();

  private record Bridge(NetServer server, NetClient client) {}

  public ProxyRoutes(Vertx vertx, long connectTimeoutMs) {
    this.vertx = vertx;
    this.connectTimeoutMs = (int) Math.min(Integer.MAX_VALUE, connectTimeoutMs);
  }

  /** The options a request through this proxy takes; null for none. */
  public Future<ProxyOptions> options(ProxyConfig proxy) {
    if (proxy == null) {
      return Future.succeededFuture(null);
    }
    ProxyOptions options = new ProxyOptions().setUsername(proxy.username()).setPassword(proxy.password());
    return switch (proxy.scheme()) {
      case ProxyConfig.SOCKS5 -> Future.succeededFuture(options.setType(ProxyType.SOCKS5).setHost(proxy.host())
          .setPort(proxy.port()));
      case ProxyConfig.HTTPS -> bridges.computeIfAbsent(proxy, this::bridge)
          .map(bridge -> options.setType(ProxyType.HTTP).setHost("127.0.0.1").setPort(bridge.server.actualPort()));
      default -> Future.succeededFuture(options.setType(ProxyType.HTTP).setHost(proxy.host()).setPort(proxy.port()));
    };
  }

  /** Stops the bridges; requests under way through them end. */
  public Future<Void> close() {
    Future<?>[] closing = bridges.values().stream().map(bridge -> bridge.compose(b -> b.server.close()
        .eventually(b.client::close))).toArray(Future[]::new);
    bridges.clear();
    return Future.join(List.of(closing)).mapEmpty();
  }

  private Future<Bridge> bridge(ProxyConfig proxy) {
    ClientSSLOptions tls = new ClientSSLOptions().setHostnameVerificationAlgorithm("HTTPS");
    if (proxy.caFile() != null) {
      tls.setTrustOptions(new PemTrustOptions().addCertPath(proxy.caFile()));
    }
    NetClient client = vertx.createNetClient(new NetClientOptions().setConnectTimeout(connectTimeoutMs));
    ConnectOptions target = new ConnectOptions().setHost(proxy.host()).setPort(proxy.port()).setSsl(true)
        .setSslOptions(tls).setSniServerName(proxy.host());
    NetServer server = vertx.createNetServer(new NetServerOptions().setHost("127.0.0.1").setPort(0))
        .connectHandler(local -> pipe(local, client, target));
    Future<Bridge> started = server.listen().map(s -> new Bridge(s, client));
    started.onFailure(failure -> {
      bridges.remove(proxy);
      client.close();
    });
    return started;
  }

  private static void pipe(NetSocket local, NetClient client, ConnectOptions target) {
    local.pause();
    client.connect(target).onSuccess(remote -> {
      remote.pipeTo(local);
      local.pipeTo(remote);
      local.resume();
    }).onFailure(failure -> local.close());
  }
}
