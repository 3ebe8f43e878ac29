package dev.eventrouter.forward;

import dev.eventrouter.config.IntegrationConfig;
import dev.eventrouter.config.Network;
import dev.eventrouter.forward.meta.MetaApi;
import dev.eventrouter.store.ClaimedDelivery;
import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;

/** Meta as it is, for a test double to change one part of (how an event is built, say) and keep the rest. */
abstract class MetaDelegate implements NetworkApi {

  protected final MetaApi meta = new MetaApi();

  @Override
  public Network network() {
    return meta.network();
  }

  @Override
  public JsonObject event(IntegrationConfig integration, ClaimedDelivery job) {
    return meta.event(integration, job);
  }

  @Override
  public Future<HttpResponse<Buffer>> send(Outbound out, IntegrationConfig integration, JsonObject body,
                                           long timeoutMs) {
    return meta.send(out, integration, body, timeoutMs);
  }

  @Override
  public Outcome classify(int status, Buffer body, long retryAfterMs) {
    return meta.classify(status, body, retryAfterMs);
  }

  @Override
  public Outcome.Unconfirmed shortfall(Buffer body, int sent) {
    return meta.shortfall(body, sent);
  }

  @Override
  public UserDataMapping userData() {
    return meta.userData();
  }
}
