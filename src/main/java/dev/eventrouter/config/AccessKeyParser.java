package dev.eventrouter.config;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.BiFunction;
import java.util.regex.Pattern;

/**
 * A workspace's {@code keys}: {@code [{"name", "key": "sha256:...", "role", "scope", "expires_at"}]}, each name
 * unique in the workspace; a buyer's scope names its campaigns and ad accounts, the accounts those of its cost
 * sources.
 */
final class AccessKeyParser {

  private static final Set<String> KEY_KEYS = Set.of("name", "key", "role", "scope", "expires_at");
  private static final Set<String> SCOPE_KEYS = Set.of("campaign_ids", "ad_account_ids");
  /** A name people read in the audit log and the logs: no brackets, so none looks like {@code api_keys[0]}. */
  static final Pattern NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9 ._@-]{0,63}");
  /** An ad platform's id as a click or an account carries it. */
  private static final Pattern SCOPE_ID = Pattern.compile("[A-Za-z0-9_.:-]{1,100}");
  /** Campaigns and accounts one scope names at most: each request of a buyer carries them. */
  static final int MAX_SCOPE_IDS = 1_000;

  private final JsonReader r;
  private final BiFunction<Object, String, byte[]> keyHash;

  /** @param keyHash a key hash, unique across every workspace's keys; null (with a problem) when not one */
  AccessKeyParser(JsonReader reader, BiFunction<Object, String, byte[]> keyHash) {
    this.r = reader;
    this.keyHash = keyHash;
  }

  /** The keys; none when absent. {@code accounts}: the ad accounts of the workspace's cost sources. */
  List<AccessKey> keys(Object value, String path, Set<String> accounts) {
    if (value == null) {
      return List.of();
    }
    if (!(value instanceof JsonArray array)) {
      r.problem(path + ": must be an array of {\"name\", \"key\", \"role\"}");
      return List.of();
    }
    Set<String> names = new HashSet<>();
    List<AccessKey> keys = r.objects(array, path, (item, itemPath) -> key(item, itemPath, accounts));
    for (AccessKey key : keys) {
      if (!names.add(key.name())) {
        r.problem(path + ": the key name \"" + key.name() + "\" is used twice; each key needs its own name");
      }
    }
    return keys;
  }

  private AccessKey key(JsonObject json, String path, Set<String> accounts) {
    r.unknownKeys(json, path, KEY_KEYS);
    String name = r.string(json, "name", path + ".name", null);
    if (name == null || !NAME.matcher(name).matches()) {
      r.problem(path + ".name: required, 1 to 64 letters, digits, spaces or . _ @ - (such as \"anna-buyer\")");
    }
    byte[] hash = keyHash.apply(json.getValue("key"), path + ".key");
    KeyRole role = KeyRole.of(json.getValue("role"));
    if (role == null) {
      r.problem(path + ".role: required, one of ingest, viewer, buyer, admin");
    }
    AccessKey.Scope scope = null;
    if (role == KeyRole.BUYER) {
      scope = scope(json.getValue("scope"), path + ".scope", accounts);
    } else if (json.getValue("scope") != null) {
      r.problem(path + ".scope: only a buyer key has a scope (the other roles see the whole workspace or nothing)");
    }
    Instant expiresAt = expiry(json.getValue("expires_at"), path + ".expires_at");
    return name == null || hash == null || role == null ? null
        : new AccessKey(name, hash, role, scope, expiresAt);
  }

  private AccessKey.Scope scope(Object value, String path, Set<String> accounts) {
    if (!(value instanceof JsonObject json)) {
      r.problem(path + ": required for a buyer, {\"campaign_ids\": [...], \"ad_account_ids\": [...]}");
      return null;
    }
    r.unknownKeys(json, path, SCOPE_KEYS);
    List<String> campaigns = ids(json, "campaign_ids", path);
    List<String> adAccounts = ids(json, "ad_account_ids", path);
    if (campaigns.isEmpty() && adAccounts.isEmpty()) {
      r.problem(path + ": names no campaign_ids and no ad_account_ids; a buyer sees only what its scope names");
    }
    if (campaigns.size() + adAccounts.size() > MAX_SCOPE_IDS) {
      r.problem(path + ": names more than " + MAX_SCOPE_IDS + " ids");
    }
    List<String> known = new ArrayList<>();
    for (String account : adAccounts) {
      // Meta's accounts are kept with their act_ prefix, which a config may leave out (as a cost source's may).
      String named = accounts.contains(account) ? account : "act_" + account;
      known.add(named);
      if (!accounts.contains(named)) {
        r.problem(path + ".ad_account_ids: " + account + " is the account of none of the workspace's cost_sources "
            + "(a buyer's accounts are found by the spend imported from them; known: "
            + String.join(", ", accounts.stream().sorted().toList()) + ")");
      }
    }
    return new AccessKey.Scope(campaigns, known);
  }

  private List<String> ids(JsonObject json, String key, String path) {
    Set<String> ids = r.strings(json, key, path + "." + key, SCOPE_ID, "an id of 1 to 100 letters, digits or _ . : -");
    return ids == null ? List.of() : new ArrayList<>(ids);
  }

  private Instant expiry(Object value, String path) {
    if (value == null) {
      return null;
    }
    try {
      return Instant.parse((String) value);
    } catch (ClassCastException | DateTimeParseException e) {
      r.problem(path + ": must be an instant such as \"2027-01-31T00:00:00Z\"");
      return null;
    }
  }
}
