package dev.eventrouter.config;

import io.vertx.core.json.JsonObject;

/**
 * Where a section's requests to Meta, TikTok or Snapchat go, as integrations and cost sources both name it:
 * {@code api_base} (the network's own unless a test double's), checked against private addresses, and Meta's
 * {@code api_version}.
 */
final class NetworkEndpoint {

  static final String META_BASE = "https://graph.facebook.com";
  static final String TIKTOK_BASE = "https://business-api.tiktok.com";
  /** Snapchat's Conversions API host (https://developers.snap.com/api/marketing-api/Conversions-API/UsingTheAPI). */
  static final String SNAPCHAT_BASE = "https://tr.snapchat.com";

  private final JsonReader r;
  private final PrivateNetworkRule addresses;

  NetworkEndpoint(JsonReader reader, PrivateNetworkRule addresses) {
    this.r = reader;
    this.addresses = addresses;
  }

  /** The section's {@code api_base}, without a trailing slash; {@code where} names the section in a refusal. */
  String apiBase(JsonObject json, String path, Network network, boolean allowPrivate, String where) {
    String apiBase = r.string(json, "api_base", path + ".api_base", switch (network) {
      case META -> META_BASE;
      case SNAPCHAT -> SNAPCHAT_BASE;
      default -> TIKTOK_BASE;
    });
    if (!apiBase.matches("https?://[^/?#\\s]+(/[^?#\\s]*)?")) {
      r.problem(path + ".api_base: must be an http(s) URL without query");
    } else {
      addresses.check(apiBase, allowPrivate, path + ".api_base", where);
    }
    return IntegrationParser.stripSlash(apiBase);
  }

  /** Meta's Graph API version ({@code v25.0} unless set); null for the others. */
  String apiVersion(JsonObject json, String path, boolean meta) {
    String apiVersion = meta ? r.string(json, "api_version", path + ".api_version", "v25.0") : null;
    if (apiVersion != null && !apiVersion.matches("v[0-9]{1,3}\\.[0-9]{1,3}")) {
      r.problem(path + ".api_version: must look like v25.0");
    }
    return apiVersion;
  }

  /** The section's {@code access_token}: the message never quotes it, only where it is missing. */
  void requireToken(String token, String path) {
    if (token == null) {
      r.problem(path + ".access_token: required (use \"${ENV_NAME}\" to keep it out of the file)");
    }
  }
}
