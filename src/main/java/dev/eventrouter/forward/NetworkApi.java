package dev.eventrouter.forward;

import dev.eventrouter.config.IntegrationConfig;
import dev.eventrouter.config.Network;
import dev.eventrouter.store.ClaimedDelivery;
import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.ext.web.client.WebClient;

import java.util.List;

/** How one network wants its events: the request body, how to send it, and what its answer means. */
public interface NetworkApi {

  Network network();

  /** The exact request body for these events. */
  JsonObject body(IntegrationConfig integration, List<ClaimedDelivery> jobs);

  Future<HttpResponse<Buffer>> send(WebClient client, IntegrationConfig integration, JsonObject body,
                                    long timeoutMs);

  Outcome classify(int status, Buffer body, long retryAfterMs);

  /** How this network takes each user_data key. */
  List<UserField> userFields();

  /** The user_data keys of this event that were given but cannot be made valid for this network (not sent). */
  default List<String> rejectedFields(ClaimedDelivery job) {
    return UserField.rejected(userFields(), job);
  }
}
