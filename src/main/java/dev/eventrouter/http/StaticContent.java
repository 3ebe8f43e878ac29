package dev.eventrouter.http;

import io.vertx.core.Handler;
import io.vertx.core.http.HttpHeaders;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.handler.CSPHandler;
import io.vertx.ext.web.handler.StaticHandler;

/**
 * What the service serves from the jar ({@code src/main/resources/webroot}) besides its API: the event debugger
 * ({@code /ui/}), the prelanding script ({@code /sdk/v1/prelanding.js}, loaded by advertisers' pages on other origins)
 * and the quick start's demo prelanding page ({@code /demo/}). The pages are locked down by their headers: only their
 * own scripts, styles and API may load (a strict Content-Security-Policy,
 * https://developer.mozilla.org/en-US/docs/Web/HTTP/Guides/CSP), they are never framed, and they send no referrer.
 */
public final class StaticContent {

  static final String ROOT = "webroot";
  /** The script is versioned by its path: a page may cache it for an hour. */
  static final int SCRIPT_MAX_AGE_S = 3600;

  private StaticContent() {}

  public static void mount(Router router) {
    page(router, "/ui");
    page(router, "/demo");
    router.route("/sdk/*")
        .handler(rc -> {
          rc.response()
              .putHeader("X-Content-Type-Options", "nosniff")
              // Loaded by pages of any origin, including ones that require it (Cross-Origin-Embedder-Policy).
              .putHeader("Cross-Origin-Resource-Policy", "cross-origin");
          rc.next();
        })
        .handler(StaticHandler.create(ROOT + "/sdk").setMaxAgeSeconds(SCRIPT_MAX_AGE_S)
            .setDirectoryListing(false));
  }

  /** A page under {@code path}/, and {@code path} itself sent there (where the page's relative links resolve). */
  private static void page(Router router, String path) {
    // Vert.x matches path/ on a route of path too: only the bare path is redirected.
    router.route(path).handler(rc -> {
      if (rc.request().path().equals(path)) {
        rc.redirect(path + "/");
      } else {
        rc.next();
      }
    });
    router.route(path + "/*")
        .handler(CSPHandler.create()
            .setDirective("default-src", "'none'")
            .addDirective("script-src", "'self'")
            .addDirective("style-src", "'self'")
            .addDirective("connect-src", "'self'")
            .addDirective("img-src", "'self'")
            .addDirective("base-uri", "'none'")
            .addDirective("form-action", "'none'")
            .addDirective("frame-ancestors", "'none'"))
        .handler(lockedDown())
        .handler(StaticHandler.create(ROOT + path).setCachingEnabled(false).setDirectoryListing(false));
  }

  private static Handler<RoutingContext> lockedDown() {
    return rc -> {
      rc.response()
          .putHeader("X-Content-Type-Options", "nosniff")
          .putHeader("Referrer-Policy", "no-referrer")
          .putHeader("X-Frame-Options", "DENY")
          // A new release's page is read at once, never an older copy beside a newer API.
          .putHeader(HttpHeaders.CACHE_CONTROL, "no-cache");
      rc.next();
    };
  }
}
