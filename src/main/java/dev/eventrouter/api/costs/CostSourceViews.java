package dev.eventrouter.api.costs;

import dev.eventrouter.config.AccessKey;
import dev.eventrouter.config.CostSourceConfig;
import dev.eventrouter.config.WorkspaceConfig;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The cost sources as the debugger shows them: each configured source, in the config's order, with its stored state
 * ({@code new} before its first poll), then the sources known only by their rows (pushes, and sources no longer
 * configured). Never a token.
 */
final class CostSourceViews {

  private static final String[] STORED = {"state", "last_poll_at", "last_success_at", "next_poll_at", "account_zone",
      "account_currency", "rows", "first_day", "last_day", "last_error"};

  private CostSourceViews() {}

  /** The sources {@code key} may see: a buyer only its ad accounts' (a pushed source names no account). */
  static JsonArray of(WorkspaceConfig workspace, JsonArray stored, AccessKey key) {
    AccessKey.Scope scope = key.scope();
    Map<String, JsonObject> byId = new LinkedHashMap<>();
    stored.stream().map(JsonObject.class::cast).forEach(s -> byId.put(s.getString("source_id"), s));
    JsonArray views = new JsonArray();
    for (CostSourceConfig source : workspace.costSources()) {
      JsonObject known = byId.remove(source.id());
      if (scope != null && !scope.adAccountIds().contains(source.account())) {
        continue;
      }
      JsonObject view = new JsonObject().put("source_id", source.id()).put("type", source.kind())
          .put("account", source.account()).put("enabled", source.enabled()).put("configured", true)
          .put("poll_interval_minutes", source.pollIntervalMinutes());
      for (String field : STORED) {
        view.put(field, known == null ? null : known.getValue(field));
      }
      if (known == null || known.getValue("state") == null) {
        view.put("state", "new").put("rows", known == null ? 0L : known.getValue("rows"));
      }
      views.add(view);
    }
    for (JsonObject rest : scope != null ? List.<JsonObject>of() : byId.values()) {
      views.add(rest.copy().put("configured", false).put("account", null).put("enabled", null)
          .put("poll_interval_minutes", null));
    }
    return views;
  }
}
