package dev.eventrouter.api.access;

import dev.eventrouter.bus.Addresses;
import dev.eventrouter.config.AccessKey;
import dev.eventrouter.config.KeyRole;
import dev.eventrouter.http.ApiException;
import dev.eventrouter.http.Edge;
import dev.eventrouter.http.Grant;
import dev.eventrouter.http.Responses;
import dev.eventrouter.http.StoreClient;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * {@code GET /api/v1/access}: what the request's key is (its workspace, name, role, scope, expiry and what it may
 * do), for the page to show and to hide what the role cannot do; {@code GET /api/v1/audit}: the workspace's audit
 * log, newest first, for admins.
 */
public final class AccessApi {

  static final int DEFAULT_LIMIT = 50;
  static final int MAX_LIMIT = 200;

  private final StoreClient store;

  public AccessApi(StoreClient store) {
    this.store = store;
  }

  public void access(RoutingContext rc) {
    Grant grant = Edge.grant(rc);
    AccessKey key = grant.key();
    AccessKey.Scope scope = key.scope();
    Responses.ok(rc, new JsonObject().put("workspace_id", grant.workspace().id().toString())
        .put("key_name", key.name()).put("role", key.role().id)
        .put("scope", scope == null ? null : new JsonObject().put("campaign_ids", new JsonArray(scope.campaignIds()))
            .put("ad_account_ids", new JsonArray(scope.adAccountIds())))
        .put("expires_at", key.expiresAt() == null ? null : key.expiresAt().toString())
        .put("can", new JsonObject().put("read", key.role().may(KeyRole.Permission.READ))
            .put("read_all", key.role().may(KeyRole.Permission.READ_ALL))
            .put("act", key.role().may(KeyRole.Permission.ACT))
            .put("audit", key.role().may(KeyRole.Permission.ACT))
            .put("ingest", key.role().may(KeyRole.Permission.INGEST))));
  }

  /** A page of entries; {@code before} (an entry's id) continues below it, {@code limit} 1 to 200. */
  public void audit(RoutingContext rc) {
    List<ApiException.FieldError> errors = new ArrayList<>();
    rc.queryParams().names().stream().filter(name -> !Set.of("before", "limit").contains(name)).sorted()
        .forEach(name -> errors.add(new ApiException.FieldError(name, "is not a parameter of the audit log")));
    Long before = number(rc.queryParams().get("before"), "before", "must be an entry's id", errors);
    Long limit = number(rc.queryParams().get("limit"), "limit", "must be 1 to " + MAX_LIMIT, errors);
    if (limit != null && (limit < 1 || limit > MAX_LIMIT)) {
      errors.add(new ApiException.FieldError("limit", "must be 1 to " + MAX_LIMIT));
    }
    if (!errors.isEmpty()) {
      throw ApiException.validation(errors);
    }
    int pageSize = limit == null ? DEFAULT_LIMIT : limit.intValue();
    store.ask(Addresses.AUDIT_LIST, new JsonObject().put("workspace_id", Edge.workspace(rc).id().toString())
            .put("before", before).put("limit", pageSize), rc)
        .onSuccess(page -> {
          JsonArray entries = page.getJsonArray("entries");
          Long next = entries.size() < pageSize ? null : entries.getJsonObject(entries.size() - 1).getLong("id");
          Responses.ok(rc, page.put("next_before", next));
        })
        .onFailure(rc::fail);
  }

  private static Long number(String text, String field, String rule, List<ApiException.FieldError> errors) {
    if (text == null) {
      return null;
    }
    if (!text.matches("[0-9]{1,18}")) {
      errors.add(new ApiException.FieldError(field, rule));
      return null;
    }
    return Long.parseLong(text);
  }
}
