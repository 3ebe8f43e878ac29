package dev.eventrouter.http;

import io.vertx.core.http.HttpHeaders;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.handler.CSPHandler;
import io.vertx.ext.web.handler.StaticHandler;

/**
 * The event debugger, {@code /ui/}: static HTML, CSS and JavaScript from the jar, which call the API with the key the
 * user pastes. The page is locked down by its headers: only its own script, style and API may load (a strict
 * Content-Security-Policy, https://developer.mozilla.org/en-US/docs/Web/HTTP/Guides/CSP), it is never framed, and it
 * sends no referrer.
 */
final class DebuggerPage {

  static final String ROOT = "webroot/ui";

  private DebuggerPage() {}

  static void mount(Router router) {
    // Vert.x matches /ui/ on a route of /ui too: only the bare path is sent on to the page's own path, where its
    // relative links resolve.
    router.route("/ui").handler(rc -> {
      if (rc.request().path().equals("/ui")) {
        rc.redirect("/ui/");
      } else {
        rc.next();
      }
    });
    router.route("/ui/*")
        .handler(CSPHandler.create()
            .setDirective("default-src", "'none'")
            .addDirective("script-src", "'self'")
            .addDirective("style-src", "'self'")
            .addDirective("connect-src", "'self'")
            .addDirective("img-src", "'self'")
            .addDirective("base-uri", "'none'")
            .addDirective("form-action", "'none'")
            .addDirective("frame-ancestors", "'none'"))
        .handler(rc -> {
          rc.response()
              .putHeader("X-Content-Type-Options", "nosniff")
              .putHeader("Referrer-Policy", "no-referrer")
              .putHeader("X-Frame-Options", "DENY")
              // A new release's page is read at once, never an older copy beside a newer API.
              .putHeader(HttpHeaders.CACHE_CONTROL, "no-cache");
          rc.next();
        })
        .handler(StaticHandler.create(ROOT).setCachingEnabled(false).setDirectoryListing(false));
  }
}
