package dev.eventrouter.forward;

import dev.eventrouter.store.ClaimedDelivery;
import io.vertx.core.json.JsonObject;

import java.util.List;
import java.util.function.Function;

/**
 * One network's user-data mapping, as data: how it takes the external ids, each {@code user_data} key (name, rule,
 * hashed or plain), and the values it takes as they are (IP, user agent, click ids).
 *
 * @param externalIds the hashed ids (the telegram id's, then the sender's own) as the network wants them
 */
public record UserDataMapping(Function<List<String>, Object> externalIds, List<UserField> fields,
                              List<KnownValue> known) {

  /** The network's user object for this delivery. */
  public JsonObject user(ClaimedDelivery job) {
    List<String> ids = UserField.externalIds(job);
    // A partner's conversion whose Telegram user is not known has no id: the click's keys carry the match alone.
    JsonObject user = ids.isEmpty() ? new JsonObject()
        : new JsonObject().put("external_id", externalIds.apply(ids));
    UserField.putAll(fields, job, user);
    KnownValue.putAll(known, job, user);
    return user;
  }

  /** The user_data keys of this delivery that were given but cannot be made valid (not sent). */
  public List<String> rejected(ClaimedDelivery job) {
    return UserField.rejected(fields, job);
  }
}
