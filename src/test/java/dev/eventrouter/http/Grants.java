package dev.eventrouter.http;

import dev.eventrouter.config.AccessKey;
import dev.eventrouter.config.ApiKeys;
import dev.eventrouter.config.ConfigLoader;
import dev.eventrouter.config.KeyRole;
import dev.eventrouter.config.WorkspaceConfig;
import dev.eventrouter.support.Await;
import dev.eventrouter.support.TestApp;
import io.vertx.core.Handler;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;

import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * Keys granted without a config's parse, for the handlers that read a request's grant: the test's workspace has one
 * cost source, "fb", of the Meta ad account act_7.
 */
final class Grants {

  private Grants() {}

  static WorkspaceConfig workspace() {
    JsonObject config = TestApp.config("postgresql://unused/db");
    config.getJsonArray("workspaces").getJsonObject(0).put("cost_sources", new JsonArray().add(new JsonObject()
        .put("id", "fb").put("type", "meta").put("ad_account_id", "7").put("access_token", "unused")
        .put("enabled", false)));
    return new ConfigLoader(Map.of()).resolve(config).workspaces().get(0);
  }

  static Grant of(WorkspaceConfig workspace, String name, KeyRole role, AccessKey.Scope scope) {
    return new Grant(workspace, new AccessKey(name, ApiKeys.digest(name), role, scope, null));
  }

  /**
   * A server whose one route grants the key {@code grantOf} picks for the request (none when it picks null), then
   * runs {@code handlers}; its port.
   */
  static int serve(Vertx vertx, Function<RoutingContext, Grant> grantOf, List<Handler<RoutingContext>> handlers) {
    Router router = Router.router(vertx);
    var route = router.route("/*").handler(rc -> {
      Grant grant = grantOf.apply(rc);
      if (grant != null) {
        Edge.grant(rc, grant);
      }
      rc.next();
    });
    handlers.forEach(route::handler);
    router.route().failureHandler(rc -> rc.response()
        .setStatusCode(rc.failure() instanceof ApiException e ? e.code().status : 500).end());
    HttpServer server = Await.result(vertx.createHttpServer().requestHandler(router).listen(0, "127.0.0.1"));
    return server.actualPort();
  }
}
