package dev.eventrouter.cost;

import dev.eventrouter.common.CheckedRequests;
import dev.eventrouter.config.CostSourceConfig;
import dev.eventrouter.cost.SpendFailure.Kind;
import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;

/**
 * A GET to a platform's reporting API as a cost source makes it: the address checked (and pinned) as every outbound
 * request's is, through the source's proxy, with the token in the platform's header and the request's timeout. A
 * request that gets no answer fails as a {@link SpendFailure} whose words never hold the token.
 */
final class PlatformGet {

  private final CheckedRequests requests;
  private final CostSourceConfig source;
  private final long timeoutMs;
  private final String platform;
  private final String tokenHeader;
  private final String tokenValue;

  PlatformGet(CheckedRequests requests, CostSourceConfig source, long timeoutMs, String platform,
              String tokenHeader, String tokenPrefix) {
    this.requests = requests;
    this.source = source;
    this.timeoutMs = timeoutMs;
    this.platform = platform;
    this.tokenHeader = tokenHeader;
    this.tokenValue = tokenPrefix + source.accessToken();
  }

  Future<HttpResponse<Buffer>> send(String url) {
    return requests.request(HttpMethod.GET, url, source.allowPrivateNetwork(), source.proxy(),
            "the host of the " + platform + " api_base resolves to a loopback, link-local or private address; set "
                + "allow_private_network to read there")
        .compose(request -> request.timeout(timeoutMs).putHeader(tokenHeader, tokenValue).send())
        .recover(e -> Future.failedFuture(e instanceof SpendFailure ? e
            : new SpendFailure(Kind.FAILED, words(e.getMessage()))));
  }

  /** Text from the platform, fit for the log and the debugger (see {@link SpendFailure#words}). */
  String words(String text) {
    return SpendFailure.words(text, source.accessToken());
  }

  /** The answer's body as a JSON object, or null when it is none (cut off, empty, not an object). */
  static JsonObject json(HttpResponse<Buffer> response) {
    try {
      return response.body() == null ? null : new JsonObject(response.body());
    } catch (DecodeException | ClassCastException e) {
      return null;
    }
  }
}
