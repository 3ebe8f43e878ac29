package dev.eventrouter.config;

import io.vertx.core.json.JsonObject;

import java.time.DateTimeException;
import java.time.ZoneId;
import java.util.Set;
import java.util.regex.Pattern;

/** One entry of a workspace's {@code cost_sources}: a Meta ad account or a TikTok advertiser whose spend is read. */
final class CostSourceParser {

  private static final Set<String> COMMON_KEYS = Set.of("id", "type", "access_token", "api_base", "proxy",
      "allow_private_network", "poll_interval_minutes", "lookback_days", "initial_days", "enabled");
  private static final Set<String> META_KEYS = IntegrationParser.union(COMMON_KEYS, "ad_account_id", "api_version");
  private static final Set<String> TIKTOK_KEYS = IntegrationParser.union(COMMON_KEYS, "advertiser_id", "timezone");
  private static final Pattern ID = Pattern.compile("[A-Za-z0-9_.-]{1,64}");
  private static final Pattern META_ACCOUNT = Pattern.compile("(act_)?[0-9]{1,30}");
  private static final Pattern TIKTOK_ADVERTISER = Pattern.compile("[0-9]{1,30}");

  private final JsonReader r;
  private final ProxyParser proxies;
  private final PrivateNetworkRule addresses;
  private final NetworkEndpoint endpoint;

  CostSourceParser(JsonReader reader) {
    this.r = reader;
    this.proxies = new ProxyParser(reader);
    this.addresses = new PrivateNetworkRule(reader);
    this.endpoint = new NetworkEndpoint(reader, addresses);
  }

  CostSourceConfig source(JsonObject json, String path) {
    String id = r.string(json, "id", path + ".id", null);
    if (id == null || !ID.matcher(id).matches()) {
      r.problem(path + ".id: required, 1 to 64 of A-Z a-z 0-9 _ . -");
    }
    String type = r.string(json, "type", path + ".type", null);
    boolean meta = CostSourceConfig.META.equals(type);
    if (!meta && !CostSourceConfig.TIKTOK.equals(type)) {
      r.problem(path + ".type: required, \"meta\" or \"tiktok\"");
      return null;
    }
    r.unknownKeys(json, path, meta ? META_KEYS : TIKTOK_KEYS);
    String accountKey = meta ? "ad_account_id" : "advertiser_id";
    String account = r.string(json, accountKey, path + "." + accountKey, null);
    if (account == null || !(meta ? META_ACCOUNT : TIKTOK_ADVERTISER).matcher(account).matches()) {
      r.problem(path + "." + accountKey + ": required, " + (meta ? "the ad account's number (act_ may be left out)"
          : "the advertiser's number"));
    } else if (meta && !account.startsWith("act_")) {
      account = "act_" + account;
    }
    String token = r.string(json, "access_token", path + ".access_token", null);
    endpoint.requireToken(token, path);
    boolean allowPrivate = addresses.allowed(json, path);
    String apiBase = endpoint.apiBase(json, path, meta ? Network.META : Network.TIKTOK, allowPrivate,
        "on the cost source");
    String apiVersion = endpoint.apiVersion(json, path, meta);
    ZoneId zone = meta ? null : zone(json, path);
    return new CostSourceConfig(id, type, account, token, apiBase, apiVersion, zone,
        proxies.proxy(json, path), allowPrivate,
        (int) r.integer(json, "poll_interval_minutes", path + ".poll_interval_minutes",
            CostSourceConfig.DEFAULT_POLL_INTERVAL_MINUTES, 5, 1440),
        (int) r.integer(json, "lookback_days", path + ".lookback_days", CostSourceConfig.DEFAULT_LOOKBACK_DAYS, 0, 30),
        (int) r.integer(json, "initial_days", path + ".initial_days", CostSourceConfig.DEFAULT_INITIAL_DAYS, 0, 365),
        r.bool(json, "enabled", path + ".enabled", true));
  }

  /**
   * TikTok's report zone, required: sources disagree whether its days are the advertiser's zone or UTC
   * (docs/costs.md), and a wrong guess would move spend to the neighbouring day without a word.
   */
  private ZoneId zone(JsonObject json, String path) {
    String text = r.string(json, "timezone", path + ".timezone", null);
    try {
      if (text != null) {
        return ZoneId.of(text);
      }
    } catch (DateTimeException e) {
      // reported below
    }
    r.problem(path + ".timezone: required, the zone of the advertiser's report days: an IANA name such as "
        + "Europe/Berlin, or UTC");
    return null;
  }
}
