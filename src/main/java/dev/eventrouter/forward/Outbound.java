package dev.eventrouter.forward;

import dev.eventrouter.common.CheckedRequests;
import dev.eventrouter.config.IntegrationConfig;
import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpRequest;
import io.vertx.ext.web.client.HttpResponse;

/**
 * Where an integration's requests go out: through {@link CheckedRequests}, under the integration's
 * {@code allow_private_network} and through its proxy, so no redirect is followed and, unless the integration allows
 * private networks, each request goes to the checked address of its host, never to a name resolved elsewhere.
 */
public final class Outbound {

  private final CheckedRequests requests;

  public Outbound(CheckedRequests requests) {
    this.requests = requests;
  }

  /**
   * A request to {@code url} for the integration; fails with {@link CheckedRequests.Refused} when its host resolves
   * to an address the integration may not reach, or with the resolver's failure.
   */
  public Future<HttpRequest<Buffer>> request(IntegrationConfig integration, HttpMethod method, String url) {
    return requests.request(method, url, integration.allowPrivateNetwork(), integration.proxy(), "the host of the "
        + integration.network().id + " URL resolves to a loopback, link-local or private address; set "
        + "allow_private_network to send there");
  }

  /** A JSON POST to {@code url} with the integration's token as the {@code access_token} query parameter. */
  public Future<HttpResponse<Buffer>> postWithTokenParameter(IntegrationConfig integration, String url,
                                                             JsonObject body, long timeoutMs) {
    return request(integration, HttpMethod.POST, url)
        .compose(request -> request.addQueryParam("access_token", integration.accessToken())
            .timeout(timeoutMs)
            .sendJsonObject(body));
  }

  /** A failed request's description, with the proxy it went through (never the proxy's credentials). */
  public static String through(IntegrationConfig integration, String failed) {
    return integration.proxy() == null ? failed : failed + " (through proxy " + integration.proxy() + ")";
  }
}
