package dev.eventrouter.forward;

import dev.eventrouter.common.CheckedRequests;
import dev.eventrouter.common.ProxyRoutes;
import dev.eventrouter.config.DataProcessing;
import dev.eventrouter.config.IntegrationConfig;
import dev.eventrouter.config.Network;
import dev.eventrouter.common.ProxyConfig;
import dev.eventrouter.config.WebhookConfig;
import dev.eventrouter.support.Await;
import dev.eventrouter.support.HttpProxy;
import dev.eventrouter.support.LoopbackName;
import io.vertx.core.Future;
import io.vertx.core.MultiMap;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.net.PemKeyCertOptions;
import io.vertx.core.net.PemTrustOptions;
import io.vertx.ext.web.client.HttpRequest;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.ext.web.client.WebClient;
import io.vertx.junit5.VertxExtension;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

/**
 * Where an integration's requests may go, against real local HTTP servers: no redirect followed, and, unless the
 * integration allows private networks, no request to a host that resolves to a private address, the request sent to
 * the address that was checked, a proxy asked for that address. Resolvers are stand-ins, as no test may depend on DNS,
 * but for the JDK's own on the host's name (from /etc/hosts).
 */
@ExtendWith(VertxExtension.class)
class OutboundUnitTest {

  private Vertx vertx;
  private HttpServer receiver;
  private HttpServer elsewhere;
  private WebClient client;
  /** Routes for integrations without a proxy: they never start a bridge. */
  private ProxyRoutes noProxy;
  private final List<MultiMap> received = new CopyOnWriteArrayList<>();
  private final List<String> receivedUris = new CopyOnWriteArrayList<>();
  private final List<MultiMap> redirected = new CopyOnWriteArrayList<>();

  @BeforeEach
  void start(Vertx vertx) {
    this.vertx = vertx;
    elsewhere = vertx.createHttpServer().requestHandler(request -> {
      redirected.add(request.headers());
      request.response().end("{\"secret\":\"internal\"}");
    }).listen(0, "127.0.0.1").await();
    receiver = vertx.createHttpServer().requestHandler(request -> {
      received.add(request.headers());
      receivedUris.add(request.uri());
      request.response().setStatusCode(302)
          .putHeader("Location", "http://127.0.0.1:" + elsewhere.actualPort() + "/secret").end();
    }).listen(0, "127.0.0.1").await();
    client = WebClient.create(vertx, CheckedRequests.options(2_000));
    noProxy = new ProxyRoutes(vertx, 2_000);
  }

  @AfterEach
  void stop() {
    client.close();
    receiver.close().await();
    elsewhere.close().await();
  }

  private static IntegrationConfig hook(boolean allowPrivate) {
    return new IntegrationConfig("w", Network.WEBHOOK, null, "whsec-0123456789ab", null, null, null, null, null, true,
        false, null, DataProcessing.NONE, new WebhookConfig("http://unused", "POST", Map.of(), Map.of()),
        allowPrivate);
  }

  private String receiverUrl(String host) {
    return "http://" + host + ":" + receiver.actualPort() + "/pb?a=1";
  }

  /** The integrations' client, with the JDK's resolver. */
  private Outbound out() {
    return new Outbound(new CheckedRequests(vertx, client, noProxy));
  }

  private Outbound out(CheckedRequests.Resolver resolver) {
    return new Outbound(new CheckedRequests(vertx, client, resolver, noProxy));
  }

  private static CheckedRequests.Resolver resolvingTo(String... addresses) {
    return host -> {
      InetAddress[] all = new InetAddress[addresses.length];
      for (int i = 0; i < addresses.length; i++) {
        all[i] = InetAddress.getByAddress(host, InetAddress.getByName(addresses[i]).getAddress());
      }
      return all;
    };
  }

  @Test
  @DisplayName("allowed private networks: the request goes as written; a redirect is the answer, never followed, so "
      + "the target gets nothing")
  void noRedirects() {
    Outbound out = out();
    HttpRequest<Buffer> request = Await.result(out.request(hook(true), HttpMethod.POST, receiverUrl("127.0.0.1")));
    HttpResponse<Buffer> response = Await.result(request.putHeader("Authorization", "Bearer t").send());
    assertThat(response.statusCode()).isEqualTo(302);
    assertThat(received).singleElement().satisfies(h -> assertThat(h.get("Authorization")).isEqualTo("Bearer t"));
    assertThat(redirected).isEmpty();
    assertThat(CheckedRequests.options(2_000).isFollowRedirects()).isFalse();
    assertThat(CheckedRequests.options(2_000).getConnectTimeout()).isEqualTo(2_000);
    assertThat(CheckedRequests.options(Long.MAX_VALUE).getConnectTimeout()).isEqualTo(Integer.MAX_VALUE);
    assertThat(CheckedRequests.options(2_000).getUserAgent()).isEqualTo("event-router");
  }

  @Test
  @DisplayName("a URL whose authority has no host (which the config check lets through) has nothing to resolve: the "
      + "client refuses to send it, and it reaches no local server")
  void noHost() {
    Outbound out = out();
    for (String url : new String[] {"http://:" + receiver.actualPort() + "/pb",
        "http://user@:" + receiver.actualPort() + "/pb"}) {
      Throwable failure = Await.failure(out.request(hook(false), HttpMethod.GET, url)
          .compose(HttpRequest::send));
      assertThat(failure).as(url).isInstanceOf(IllegalArgumentException.class)
          .hasMessage("host name must not be empty");
    }
    assertThat(received).isEmpty();
  }

  @Test
  @DisplayName("a name that resolves to a loopback address: refused for good, nothing sent")
  void nameResolvingToLoopback() {
    Outbound out = out(resolvingTo("127.0.0.1"));
    Throwable refused = Await.failure(out.request(hook(false), HttpMethod.POST, receiverUrl("hook.example")));
    assertThat(refused).isInstanceOf(CheckedRequests.Refused.class)
        .hasMessage("the host of the webhook URL resolves to a loopback, link-local or private address; set "
            + "allow_private_network to send there");
    assertThat(received).isEmpty();
  }

  @Test
  @DisplayName("one private address among public ones is enough to refuse: the resolver could hand out either")
  void anyPrivateAddress() {
    Outbound out = out(resolvingTo("8.8.8.8", "169.254.169.254"));
    assertThat(Await.failure(out.request(hook(false), HttpMethod.GET, "https://hook.example/pb")))
        .isInstanceOf(CheckedRequests.Refused.class);
  }

  @Test
  @DisplayName("an address literal is checked too, with the JDK's resolver (a literal is not looked up)")
  void literal() {
    Outbound out = out();
    assertThat(Await.failure(out.request(hook(false), HttpMethod.POST, receiverUrl("127.0.0.1"))))
        .isInstanceOf(CheckedRequests.Refused.class);
    assertThat(Await.failure(out.request(hook(false), HttpMethod.POST, "http://[::1]:9/pb")))
        .isInstanceOf(CheckedRequests.Refused.class);
    assertThat(received).isEmpty();
  }

  @Test
  @DisplayName("a resolver failure is the request's failure (retried like any failure to connect)")
  void unresolved() {
    Outbound out = out(host -> {
      throw new UnknownHostException(host);
    });
    Throwable failure = Await.result(out.request(hook(false), HttpMethod.POST, "https://hook.example/pb")
        .transform(done -> Future.succeededFuture(done.cause())));
    assertThat(failure).isInstanceOf(UnknownHostException.class);
  }

  private static IntegrationConfig hookVia(boolean allowPrivate, int proxyPort) {
    return new IntegrationConfig("w", Network.WEBHOOK, null, "whsec-0123456789ab", null, null, null, null, null, true,
        false, null, DataProcessing.NONE, new WebhookConfig("http://unused", "POST", Map.of(), Map.of()),
        allowPrivate, IntegrationConfig.defaultSendOn(Network.WEBHOOK),
        new ProxyConfig(ProxyConfig.HTTP, "127.0.0.1", proxyPort, null, "u", "p"));
  }

  @Test
  @DisplayName("through an http proxy, an https request is a CONNECT tunnel to the checked address, never the name: "
      + "the proxy cannot be steered to a private address by DNS")
  void proxyAskedForTheCheckedAddress() {
    HttpProxy proxy = HttpProxy.start(vertx, false, "u", "p");
    try {
      Outbound out = out(resolvingTo("8.8.8.8"));
      Throwable failure = Await.result(out.request(hookVia(false, proxy.port()), HttpMethod.POST,
          "https://hook.example/pb").compose(HttpRequest::send).transform(done -> Future.succeededFuture(done.cause())));
      assertThat(failure).hasMessageContaining("403");
      assertThat(proxy.seen()).extracting(HttpProxy.Seen::method, HttpProxy.Seen::target)
          .containsExactly(tuple("CONNECT", "8.8.8.8:443"));
    } finally {
      proxy.stop();
    }
  }

  @Test
  @DisplayName("through an http proxy, a plain http request asks for the checked address in its absolute URI, never "
      + "the name, which goes in Host only: the proxy resolves nothing")
  void plainHttpProxyAskedForTheCheckedAddress() {
    HttpProxy proxy = HttpProxy.start(vertx, false, "u", "p");
    try {
      Outbound out = out(resolvingTo("8.8.8.8"));
      HttpResponse<Buffer> response = Await.result(out.request(hookVia(false, proxy.port()), HttpMethod.POST,
          "http://hook.example:8080/pb?a=1").compose(HttpRequest::send));
      assertThat(response.statusCode()).as("the test proxy goes to loopback only").isEqualTo(403);
      assertThat(proxy.seen()).extracting(HttpProxy.Seen::method, HttpProxy.Seen::target, HttpProxy.Seen::host)
          .containsExactly(tuple("POST", "http://8.8.8.8:8080/pb?a=1", "hook.example:8080"));
    } finally {
      proxy.stop();
    }
  }

  @Test
  @DisplayName("the host's own name, which the JDK resolves to 127.0.0.1 (/etc/hosts): refused for good unless the "
      + "integration allows private networks, through a proxy too (which is asked nothing)")
  void hostsOwnName() {
    String name = LoopbackName.get();
    HttpProxy proxy = HttpProxy.start(vertx, false, "u", "p");
    try {
      for (IntegrationConfig integration : List.of(hook(false), hookVia(false, proxy.port()))) {
        assertThat(Await.failure(out().request(integration, HttpMethod.POST, receiverUrl(name))))
            .isInstanceOf(CheckedRequests.Refused.class)
            .hasMessageEndingWith("set allow_private_network to send there");
      }
      assertThat(received).isEmpty();
      assertThat(proxy.seen()).isEmpty();

      HttpRequest<Buffer> allowed = Await.result(out().request(hook(true), HttpMethod.POST, receiverUrl(name)));
      assertThat(Await.result(allowed.send()).statusCode()).isEqualTo(302);
      assertThat(received).singleElement().satisfies(h -> assertThat(h.get("Host"))
          .isEqualTo(name + ":" + receiver.actualPort()));
    } finally {
      proxy.stop();
    }
  }

  @Test
  @DisplayName("a failure is told with the proxy it went through, as scheme://host:port, never its credentials")
  void failureNamesTheProxy() {
    assertThat(Outbound.through(hook(false), "webhook request failed: X")).isEqualTo("webhook request failed: X");
    assertThat(Outbound.through(hookVia(false, 3128), "webhook request failed: X"))
        .isEqualTo("webhook request failed: X (through proxy http://127.0.0.1:3128)");
  }

  @Test
  @DisplayName("an https receiver behind an http proxy gets the request through the tunnel, TLS end to end")
  void tunnelToHttpsReceiver() {
    HttpServer tls = vertx.createHttpServer(new HttpServerOptions().setSsl(true).setKeyCertOptions(
        new PemKeyCertOptions().setCertPath(HttpProxy.CERT).setKeyPath("src/test/resources/tls/proxy-key.pem")))
        .requestHandler(request -> request.response().end("tunnelled " + request.remoteAddress().hostAddress()))
        .listen(0, "127.0.0.1").await();
    HttpProxy proxy = HttpProxy.start(vertx, false, "u", "p");
    WebClient trusting = WebClient.create(vertx, CheckedRequests.options(2_000).setTrustOptions(
        new PemTrustOptions().addCertPath(HttpProxy.CERT)));
    try {
      Outbound out = new Outbound(new CheckedRequests(vertx, trusting, noProxy));
      HttpResponse<Buffer> response = Await.result(out.request(hookVia(true, proxy.port()), HttpMethod.GET,
          "https://127.0.0.1:" + tls.actualPort() + "/pb").compose(HttpRequest::send));
      assertThat(response.bodyAsString()).isEqualTo("tunnelled " + HttpProxy.OUTGOING_ADDRESS);
      assertThat(proxy.seen()).extracting(HttpProxy.Seen::method, HttpProxy.Seen::target)
          .containsExactly(tuple("CONNECT", "127.0.0.1:" + tls.actualPort()));
    } finally {
      trusting.close();
      proxy.stop();
      tls.close().await();
    }
  }

  @Test
  @DisplayName("a public name: the request is made to the address that was checked, under the name")
  void publicNamePinned() {
    Outbound out = out(resolvingTo("8.8.8.8"));
    HttpRequest<Buffer> request = Await.result(out.request(hook(false), HttpMethod.PUT,
        "https://user@hook.example:8443/pb?a=1"));
    assertThat(request.host()).isEqualTo("8.8.8.8");
    assertThat(request.virtualHost()).isEqualTo("hook.example");
    assertThat(request.port()).isEqualTo(8443);
    assertThat(request.uri()).isEqualTo("/pb?a=1");
    assertThat(request.method()).isEqualTo(HttpMethod.PUT);
    assertThat(request.followRedirects()).isFalse();
  }
}
