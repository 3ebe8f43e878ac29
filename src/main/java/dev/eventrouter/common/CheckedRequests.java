package dev.eventrouter.common;

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
 * The service's outbound requests (the integrations', the alerts', the Telegram connector's), each made only where it
 * may go. Redirects are never followed: a 3xx is the receiver's answer, so no credential, signature or token reaches
 * another server. Unless private networks are allowed for the request, its URL's host is resolved here, off the event
 * loop, each of its addresses is checked ({@link PrivateAddress}), and the request goes to the address that was
 * checked: a name that resolves elsewhere between the check and the connection (DNS rebinding) cannot move it, and no
 * resolver after this one (the HTTP client's, a proxy's) is asked for the name. The name stays in the request: over
 * https as WebClient's virtualHost (the Host header, TLS SNI and the certificate check; a proxy is asked to CONNECT to
 * the address), over plain http as the Host header alone, since a virtualHost would be the host of the absolute URI a
 * proxy is asked for (https://www.rfc-editor.org/rfc/rfc9112#name-absolute-form).
 */
public final class CheckedRequests {

  /** A request the service will not make: a final failure, never retried. */
  public static final class Refused extends RuntimeException {

    public Refused(String message) {
      super(message, null, false, false);
    }
  }

  /** How a host's addresses are found. */
  @FunctionalInterface
  public interface Resolver {
    InetAddress[] resolve(String host) throws UnknownHostException;
  }

  private final Vertx vertx;
  private final WebClient client;
  private final Resolver resolver;
  private final ProxyRoutes proxies;

  /** The service's: the JDK's resolver, with its cache (networkaddress.cache.ttl). */
  public CheckedRequests(Vertx vertx, WebClient client, ProxyRoutes proxies) {
    this(vertx, client, InetAddress::getAllByName, proxies);
  }

  /** With another resolver: a test's stand-in, as no test may depend on DNS. */
  public CheckedRequests(Vertx vertx, WebClient client, Resolver resolver, ProxyRoutes proxies) {
    this.vertx = vertx;
    this.client = client;
    this.resolver = resolver;
    this.proxies = proxies;
  }

  /** The options of every outbound client: no redirects followed. */
  public static WebClientOptions options(long connectTimeoutMs) {
    return new WebClientOptions().setUserAgent("event-router").setFollowRedirects(false)
        .setConnectTimeout((int) Math.min(Integer.MAX_VALUE, connectTimeoutMs));
  }

  /**
   * A request to {@code url}, through {@code proxy} (null: none); fails with {@link Refused}, saying
   * {@code refusal}, when private networks are not allowed and the host resolves to such an address, or with the
   * resolver's failure.
   */
  public Future<HttpRequest<Buffer>> request(HttpMethod method, String url, boolean allowPrivate, ProxyConfig proxy,
                                             String refusal) {
    return checked(method, url, allowPrivate, refusal).compose(request -> proxies.options(proxy)
        .map(request::proxy)); // a null proxy: none
  }

  private Future<HttpRequest<Buffer>> checked(HttpMethod method, String url, boolean allowPrivate, String refusal) {
    UrlHost host = UrlHost.parse(url);
    if (allowPrivate || host == null) {
      return Future.succeededFuture(client.requestAbs(method, url).followRedirects(false));
    }
    return vertx.executeBlocking(() -> resolver.resolve(host.name()), false).compose(addresses -> {
      for (InetAddress address : addresses) {
        if (PrivateAddress.contains(address)) {
          return Future.failedFuture(new Refused(refusal));
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
    HttpRequest<Buffer> request = client.requestAbs(method, host.withHost(literal)).followRedirects(false);
    return host.secure() ? request.virtualHost(host.name()) : request.putHeader("Host", host.hostAndPort());
  }
}
