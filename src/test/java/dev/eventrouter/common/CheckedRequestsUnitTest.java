package dev.eventrouter.common;

import dev.eventrouter.support.Await;
import io.vertx.core.MultiMap;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServer;
import io.vertx.ext.web.client.HttpRequest;
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
import java.util.concurrent.CopyOnWriteArrayList;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * How a checked request is pinned to its address, against a real local HTTP server: the name stays in the request
 * (virtualHost over https, the Host header over plain http), the address is where it goes. Where each request may go
 * is {@code forward.OutboundUnitTest}'s and {@code telegram.BotApiTest}'s.
 */
@ExtendWith(VertxExtension.class)
class CheckedRequestsUnitTest {

  private HttpServer receiver;
  private WebClient client;
  private CheckedRequests requests;
  private final List<MultiMap> received = new CopyOnWriteArrayList<>();
  private final List<String> receivedUris = new CopyOnWriteArrayList<>();

  @BeforeEach
  void start(Vertx vertx) {
    receiver = vertx.createHttpServer().requestHandler(request -> {
      received.add(request.headers());
      receivedUris.add(request.uri());
      request.response().end();
    }).listen(0, "127.0.0.1").await();
    client = WebClient.create(vertx, CheckedRequests.options(2_000));
    requests = new CheckedRequests(vertx, client, new ProxyRoutes(vertx, 2_000));
  }

  @AfterEach
  void stop() {
    client.close();
    receiver.close().await();
  }

  @Test
  @DisplayName("sent to the checked address: the receiver sees the name in Host, and the path and query as written")
  void pinnedOverTheWire() throws UnknownHostException {
    HttpRequest<Buffer> request = requests.pinned(HttpMethod.POST,
        UrlHost.parse("http://hook.example:" + receiver.actualPort() + "/pb?a=1"), InetAddress.getByName("127.0.0.1"));
    assertThat(request.virtualHost()).as("over plain http, a virtualHost would be what a proxy is asked for").isNull();
    assertThat(Await.result(request.send()).statusCode()).isEqualTo(200);
    assertThat(received).singleElement().satisfies(h -> assertThat(h.getAll("Host"))
        .containsExactly("hook.example:" + receiver.actualPort()));
    assertThat(receivedUris).containsExactly("/pb?a=1");
  }

  @Test
  @DisplayName("the name goes as WebClient's virtualHost over https (Host, SNI, the certificate check), as the Host "
      + "header over plain http, with the port as written; an address literal is requested as written")
  void nameKept() throws UnknownHostException {
    InetAddress v6 = InetAddress.getByName("2606:4700::1111");
    HttpRequest<Buffer> tls = requests.pinned(HttpMethod.GET, UrlHost.parse("https://hook.example:8443/x"), v6);
    assertThat(tls.host()).isEqualTo("[2606:4700:0:0:0:0:0:1111]");
    assertThat(tls.port()).isEqualTo(8443);
    assertThat(tls.virtualHost()).isEqualTo("hook.example");
    assertThat(tls.headers().contains("Host")).isFalse();
    assertThat(tls.followRedirects()).isFalse();

    HttpRequest<Buffer> plain = requests.pinned(HttpMethod.GET, UrlHost.parse("http://hook.example/x?y#z"), v6);
    assertThat(plain.host()).isEqualTo("[2606:4700:0:0:0:0:0:1111]");
    assertThat(plain.virtualHost()).isNull();
    assertThat(plain.headers().get("Host")).isEqualTo("hook.example");
    assertThat(plain.followRedirects()).isFalse();

    HttpRequest<Buffer> asWritten = requests.pinned(HttpMethod.GET, UrlHost.parse("http://[::1]:81/x"),
        InetAddress.getByName("::1"));
    assertThat(asWritten.host()).isEqualTo("[::1]");
    assertThat(asWritten.virtualHost()).as("a literal needs no name").isNull();
    assertThat(asWritten.headers().contains("Host")).isFalse();
    assertThat(asWritten.followRedirects()).isFalse();
  }

  @Test
  @DisplayName("a refusal says what its caller gave; allowed private networks are not resolved at all")
  void refusalAndAllowance(Vertx vertx) {
    CheckedRequests privateOnly = new CheckedRequests(vertx, client,
        host -> new InetAddress[] {InetAddress.getByAddress(host, new byte[] {10, 0, 0, 1})},
        new ProxyRoutes(vertx, 2_000));
    assertThat(Await.failure(privateOnly.request(HttpMethod.GET, "https://hook.example/a", false, null, "not there")))
        .isInstanceOf(CheckedRequests.Refused.class).hasMessage("not there");

    CheckedRequests unresolved = new CheckedRequests(vertx, client, host -> {
      throw new AssertionError("resolved " + host);
    }, new ProxyRoutes(vertx, 2_000));
    HttpRequest<Buffer> allowed = Await.result(unresolved.request(HttpMethod.GET, "http://hook.example:81/a", true,
        null, "unused"));
    assertThat(allowed.host()).isEqualTo("hook.example");
    assertThat(allowed.virtualHost()).isNull();
    assertThat(allowed.headers().contains("Host")).isFalse();
  }
}
