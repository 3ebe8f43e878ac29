package dev.eventrouter.forward;

import dev.eventrouter.store.ClaimedDelivery;
import dev.eventrouter.common.Sha256;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;

/**
 * How one network takes one {@code user_data} key: under which name, by which rule, hashed or plain, as a list or a
 * single value. Each network's table of these is its user-data mapping, as data.
 */
public record UserField(String key, String wireName, UnaryOperator<String> rule, Form form) {

  /** How the value goes on the wire. */
  public enum Form {
    HASHED, HASHED_LIST, PLAIN
  }

  /** The value to send for this job, or null when the key is absent or cannot be made valid. */
  public String value(ClaimedDelivery job) {
    String raw = job.userValue(key);
    if (raw == null) {
      return null;
    }
    return form == Form.PLAIN ? rule.apply(raw) : Normalize.hashed(raw, rule);
  }

  /** Puts every field of the table that has a valid value into {@code user}. */
  public static void putAll(List<UserField> table, ClaimedDelivery job, JsonObject user) {
    for (UserField field : table) {
      String value = field.value(job);
      if (value != null) {
        user.put(field.wireName(), field.form() == Form.HASHED_LIST ? new JsonArray().add(value) : value);
      }
    }
  }

  /**
   * The user's ids, hashed: the telegram id's (decimal) when known, then the sender's own external_id when given (trimmed only,
   * see {@link Normalize#externalId}).
   */
  public static List<String> externalIds(ClaimedDelivery job) {
    List<String> ids = new ArrayList<>(2);
    if (job.telegramId() != null) {
      ids.add(Sha256.hex(Long.toString(job.telegramId())));
    }
    String raw = job.userValue("external_id");
    String external = raw == null ? null : Normalize.hashed(raw, Normalize::externalId);
    if (external != null) {
      ids.add(external);
    }
    return ids;
  }

  /**
   * The keys the sender gave that the table's rules could not make valid: they are not sent. Decided without hashing
   * anything, as {@link #value} would send a value exactly when it is already a SHA-256 or its rule accepts it.
   */
  public static List<String> rejected(List<UserField> table, ClaimedDelivery job) {
    List<String> rejected = new ArrayList<>();
    for (UserField field : table) {
      String raw = job.userValue(field.key());
      if (raw == null) {
        continue;
      }
      boolean preHashed = field.form() != Form.PLAIN && Sha256.isHex(Normalize.text(raw));
      if (!preHashed && field.rule().apply(raw) == null) {
        rejected.add(field.key());
      }
    }
    return rejected;
  }
}
