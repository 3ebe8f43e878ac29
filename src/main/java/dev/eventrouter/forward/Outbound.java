package dev.eventrouter.forward;

import dev.eventrouter.common.PrivateAddress;
import dev.eventrouter.common.ProxyRoutes;
import dev.eventrouter.common.UrlHost;
import dev.eventrouter.config.IntegrationConfig;
import io.netty.util.NetUtil;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.ext.web.client.HttpRequest;
import io.vertx.ext.web.client.WebClient;
import io.vertx.ext.web.client.WebClientOptions;

import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.UnknownHostException;

/**
 * Where an integration's requests go out. Redirects are never followed: a 3xx is the receiver's answer, so the
 * integration's credentials and signature reach no other server, and no other server's body comes back. Unless the
 * integration allows private networks, the URL's host is resolved here, off the event loop, each of its addresses is
 * checked ({@link PrivateAddress}), and the request goes to the address that was checked, the name kept for the Host
 * header, TLS SNI and the certificate check (WebClient's virtualHost): a name that resolves elsewhere between the
 * check and the connection (DNS rebinding) cannot move the request. Through a proxy too: the proxy is asked for the
 * checked address ({@link ProxyRoutes}), never for the name.
 */
public final class Outbound {

  /** A request the service will not make for this integration: a final failure, never retried. */
  public static final class Refused extends RuntimeException {

    public Refused(String message) {
      super(message, null, false, false);
    }
  }

  /** How a host's addresses are found. */
  @FunctionalInterface
  interface Resolver {
    InetAddress[] resolve(String host) throws UnknownHostException;
  }

  private final Vertx vertx;
  private final WebClient client;
  private final Resolver resolver;
  private final ProxyRoutes proxies;

  /** The service's: the JDK's resolver, with its cache (networkaddress.cache.ttl). */
  public Outbound(Vertx vertx, WebClient client, ProxyRoutes proxies) {
    this(vertx, client, InetAddress::getAllByName, proxies);
  }

  Outbound(Vertx vertx, WebClient client, Resolver resolver, ProxyRoutes proxies) {
    this.vertx = vertx;
    this.client = client;
    this.resolver = resolver;
    this.proxies = proxies;
  }

  /** The options of every integration's client: no redirects followed. */
  public static WebClientOptions options(long connectTimeoutMs) {
    return new WebClientOptions().setUserAgent("event-router").setFollowRedirects(false)
        .setConnectTimeout((int) Math.min(Integer.MAX_VALUE, connectTimeoutMs));
  }

  /**
   * A request to {@code url} for the integration; fails with {@link Refused} when its host resolves to an address
   * the integration may not reach, or with the resolver's failure.
   */
  public Future<HttpRequest<Buffer>> request(IntegrationConfig integration, HttpMethod method, String url) {
    return checked(integration, method, url).compose(request -> proxies.options(integration.proxy())
        .map(request::proxy)); // a null proxy: none
  }

  /** A failed request's description, with the proxy it went through (never the proxy's credentials). */
  public static String through(IntegrationConfig integration, String failed) {
    return integration.proxy() == null ? failed : failed + " (through proxy " + integration.proxy() + ")";
  }

  private Future<HttpRequest<Buffer>> checked(IntegrationConfig integration, HttpMethod method, String url) {
    UrlHost host = UrlHost.parse(url);
    if (integration.allowPrivateNetwork() || host == null) {
      return Future.succeededFuture(client.requestAbs(method, url).followRedirects(false));
    }
    return vertx.executeBlocking(() -> resolver.resolve(host.name()), false).compose(addresses -> {
      for (InetAddress address : addresses) {
        if (PrivateAddress.contains(address)) {
          return Future.failedFuture(new Refused("the host of the " + integration.network().id + " URL resolves "
              + "to a loopback, link-local or private address; set allow_private_network to send there"));
        }
      }
      return Future.succeededFuture(pinned(method, host, addresses[0]));
    });
  }

  /** The request to the URL's host, sent to this address of it. */
  HttpRequest<Buffer> pinned(HttpMethod method, UrlHost host, InetAddress address) {
    if (NetUtil.createByteArrayFromIpAddressString(host.name()) != null) {
      return client.requestAbs(method, host.withHost(host.host())).followRedirects(false); // an address already
    }
    String literal = address instanceof Inet6Address ? "[" + address.getHostAddress().replaceFirst("%.*", "") + "]"
        : address.getHostAddress();
    return client.requestAbs(method, host.withHost(literal)).followRedirects(false).virtualHost(host.name());
  }
}
