package dev.eventrouter.forward.google;

import dev.eventrouter.common.Sha256;
import dev.eventrouter.config.GoogleAdsConfig;
import dev.eventrouter.config.IntegrationConfig;
import dev.eventrouter.forward.Outbound;
import io.vertx.core.Future;
import io.vertx.core.MultiMap;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;

import java.time.Instant;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Google Ads access tokens, refreshed from each integration's refresh token
 * (https://developers.google.com/identity/protocols/oauth2/web-server#offline): kept until a minute before they
 * expire, one refresh in flight per credential however many requests wait for it. A refresh Google refuses is
 * answered as its response, so the verdict reads Google's words ({@code invalid_grant}) and pauses the integration.
 */
final class GoogleTokens {

  /** A token is refreshed this long before Google says it expires, so none expires on the way. */
  static final long MARGIN_SECONDS = 60;
  /** When Google's answer names no lifetime: its tokens live an hour. */
  static final long DEFAULT_LIFETIME_SECONDS = 3600;

  /** An access token, or the token endpoint's refusal. */
  record Token(String value, HttpResponse<Buffer> refusal) {}

  private record Cached(String value, Instant refreshAt) {}

  private final Map<String, Cached> cache = new ConcurrentHashMap<>();
  private final Map<String, Future<Token>> inFlight = new ConcurrentHashMap<>();

  /** The integration's access token: cached, else refreshed (joining a refresh under way). */
  Future<Token> token(Outbound out, IntegrationConfig integration, long timeoutMs) {
    String key = key(integration);
    Cached cached = cache.get(key);
    if (cached != null && Instant.now().isBefore(cached.refreshAt())) {
      return Future.succeededFuture(new Token(cached.value(), null));
    }
    Future<Token> running = inFlight.get(key);
    if (running != null) {
      return running;
    }
    Future<Token> refresh = refresh(out, integration, timeoutMs);
    if (!refresh.isComplete()) {
      inFlight.put(key, refresh);
      refresh.onComplete(done -> inFlight.remove(key, refresh));
    }
    return refresh;
  }

  /** Forgets the integration's token: Google said it is no longer good. */
  void invalidate(IntegrationConfig integration) {
    cache.remove(key(integration));
  }

  private Future<Token> refresh(Outbound out, IntegrationConfig integration, long timeoutMs) {
    GoogleAdsConfig google = integration.google();
    MultiMap form = MultiMap.caseInsensitiveMultiMap().add("grant_type", "refresh_token")
        .add("client_id", google.clientId()).add("client_secret", google.clientSecret())
        .add("refresh_token", integration.accessToken());
    return out.request(integration, HttpMethod.POST, google.tokenUrl())
        .compose(request -> request.timeout(timeoutMs).sendForm(form))
        .map(response -> {
          String value = accessToken(response);
          if (value == null) {
            return new Token(null, response);
          }
          long lifetime = lifetime(response);
          // A minute before it expires; a token that lives less than two, at half its life.
          long keep = Math.max(lifetime - MARGIN_SECONDS, lifetime / 2);
          cache.put(key(integration), new Cached(value, Instant.now().plusSeconds(keep)));
          return new Token(value, null);
        });
  }

  private static String accessToken(HttpResponse<Buffer> response) {
    JsonObject json = json(response);
    return response.statusCode() == 200 && json != null && json.getValue("access_token") instanceof String token
        && !token.isEmpty() ? token : null;
  }

  private static long lifetime(HttpResponse<Buffer> response) {
    JsonObject json = json(response);
    long seconds = json.getValue("expires_in") instanceof Number number ? number.longValue()
        : DEFAULT_LIFETIME_SECONDS;
    return Math.max(seconds, 0);
  }

  private static JsonObject json(HttpResponse<Buffer> response) {
    try {
      return response.body() == null ? null : new JsonObject(response.body());
    } catch (RuntimeException notJson) {
      return null;
    }
  }

  /** A credential's key: a new refresh token or client in the config is another credential. */
  private static String key(IntegrationConfig integration) {
    return Sha256.hex(integration.google().clientId() + "\n" + integration.accessToken());
  }
}
