package dev.eventrouter.support;

import io.vertx.core.Vertx;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.net.NetClient;
import io.vertx.core.net.NetClientOptions;
import io.vertx.core.net.PemKeyCertOptions;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A small forward proxy for tests: CONNECT tunnels (https://www.rfc-editor.org/rfc/rfc9110#name-connect) and
 * absolute-form requests (https://www.rfc-editor.org/rfc/rfc9112#name-absolute-form), optionally over TLS (the
 * certificate of 127.0.0.1 in src/test/resources/tls) and behind Basic credentials. It goes on from 127.0.0.2, so a
 * server behind it sees the proxy's address instead of the client's. It tunnels and forwards to loopback only (403
 * elsewhere). Records what it was asked.
 */
public final class HttpProxy {

  /** The address the proxy connects onward from. */
  public static final String OUTGOING_ADDRESS = "127.0.0.2";
  public static final String CERT = "src/test/resources/tls/proxy-cert.pem";
  private static final String KEY = "src/test/resources/tls/proxy-key.pem";

  /** One request the proxy took: CONNECT with host:port, or a method with an absolute URI; its Host header. */
  public record Seen(String method, String target, String authorization, String host) {}

  private final List<Seen> seen = new CopyOnWriteArrayList<>();
  private final String expectedAuthorization;
  private HttpServer server;
  private NetClient tunnels;
  private HttpClient forwards;

  private HttpProxy(String username, String password) {
    this.expectedAuthorization = username == null ? null : "Basic " + Base64.getEncoder()
        .encodeToString((username + ":" + password).getBytes(StandardCharsets.UTF_8));
  }

  /** @param username null for a proxy that asks for no credentials */
  public static HttpProxy start(Vertx vertx, boolean tls, String username, String password) {
    HttpProxy proxy = new HttpProxy(username, password);
    proxy.tunnels = vertx.createNetClient(new NetClientOptions().setLocalAddress(OUTGOING_ADDRESS));
    proxy.forwards = vertx.createHttpClient(new HttpClientOptions().setLocalAddress(OUTGOING_ADDRESS));
    HttpServerOptions options = new HttpServerOptions();
    if (tls) {
      options.setSsl(true).setKeyCertOptions(new PemKeyCertOptions().setCertPath(CERT).setKeyPath(KEY));
    }
    proxy.server = vertx.createHttpServer(options).requestHandler(proxy::handle).listen(0, "127.0.0.1").await();
    return proxy;
  }

  public int port() {
    return server.actualPort();
  }

  public List<Seen> seen() {
    return List.copyOf(seen);
  }

  public void stop() {
    server.close().await();
    tunnels.close().await();
    forwards.close().await();
  }

  private void handle(HttpServerRequest request) {
    String authorization = request.getHeader("Proxy-Authorization");
    seen.add(new Seen(request.method().name(), request.uri(), authorization, request.getHeader("Host")));
    if (expectedAuthorization != null && !expectedAuthorization.equals(authorization)) {
      request.response().setStatusCode(407).putHeader("Proxy-Authenticate", "Basic realm=\"test\"").end();
      return;
    }
    if (request.method() == HttpMethod.CONNECT) {
      int colon = request.uri().lastIndexOf(':');
      String host = request.uri().substring(0, colon).replace("[", "").replace("]", "");
      int port = Integer.parseInt(request.uri().substring(colon + 1));
      if (!host.startsWith("127.")) {
        request.response().setStatusCode(403).end(); // a test never goes out to the internet
        return;
      }
      request.pause();
      tunnels.connect(port, host)
          .onSuccess(remote -> request.toNetSocket().onSuccess(local -> {
            local.pipeTo(remote);
            remote.pipeTo(local);
          }))
          .onFailure(failure -> request.response().setStatusCode(502).end());
      return;
    }
    if (!request.uri().matches("http://127\\.[0-9.]+(:[0-9]+)?(/.*)?")) {
      request.response().setStatusCode(403).end(); // a test never goes out to the internet
      return;
    }
    request.body().compose(body -> forwards.request(new RequestOptions().setAbsoluteURI(request.uri())
            .setMethod(request.method())).compose(onward -> {
              request.headers().forEach((name, value) -> {
                String lower = name.toLowerCase(Locale.ROOT);
                if (!lower.startsWith("proxy-") && !lower.equals("connection") && !lower.equals("content-length")) {
                  onward.putHeader(name, value);
                }
              });
              return onward.send(body);
            }))
        .compose(answer -> answer.body().map(body -> {
          request.response().setStatusCode(answer.statusCode());
          answer.headers().forEach((name, value) -> {
            if (!name.equalsIgnoreCase("content-length") && !name.equalsIgnoreCase("connection")) {
              request.response().putHeader(name, value);
            }
          });
          return body;
        }))
        .onSuccess(body -> request.response().end(body))
        .onFailure(failure -> request.response().setStatusCode(502).end());
  }
}
