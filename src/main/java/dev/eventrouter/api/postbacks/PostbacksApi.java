package dev.eventrouter.api.postbacks;

import dev.eventrouter.bus.Addresses;
import dev.eventrouter.config.PostbackSource;
import dev.eventrouter.config.WorkspaceConfig;
import dev.eventrouter.event.Postback;
import dev.eventrouter.http.AccessControl;
import dev.eventrouter.http.ApiException;
import dev.eventrouter.http.Edge;
import dev.eventrouter.http.ErrorCode;
import dev.eventrouter.http.JsonBody;
import dev.eventrouter.http.PostbackSources;
import dev.eventrouter.http.RawBody;
import dev.eventrouter.http.Responses;
import dev.eventrouter.http.StoreClient;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * {@code GET|POST /api/v1/postbacks/{token}}: a partner's postback, as affiliate trackers take them. The token in the
 * path is the only credential (a partner cannot set a header): checked by digest, then the source's rate limit,
 * both before any body is read; an unknown token is answered as any unknown path. Parameters come from the query
 * string and, for a POST, a form or JSON body. A postback that was understood gets 200 whether it matched a click or
 * not (partners retry on anything else); one that was not gets the documented error, and both are logged for the
 * debugger. Also the workspace's own views: the postback log and each source's URL template.
 */
public final class PostbacksApi {

  private static final String SOURCE = "postback_source";
  private static final String FORM = "application/x-www-form-urlencoded";

  private final AccessControl access;
  private final StoreClient store;

  public PostbacksApi(AccessControl access, StoreClient store) {
    this.access = access;
    this.store = store;
  }

  /**
   * The route's path: its token is read from the path by {@link #authenticate}, not as a path parameter, as
   * vertx-web decodes the whole query string strictly to add one (and refuses a partner's stray {@code %} before
   * any handler).
   */
  public static final String ROUTE = "\\/postbacks\\/[^/]+";
  /** The route under either prefix: it reads its own query, leniently ({@link PostbackParams#decode}). */
  public static final Pattern PATHS = Pattern.compile("/(api/)?v1" + ROUTE);

  /** The token and the source's rate limit, from the path and headers alone. */
  public void authenticate(RoutingContext rc) {
    String path = rc.request().path();
    PostbackSources.Entry source = access.postbackSource(path.substring(path.lastIndexOf('/') + 1));
    if (source == null) {
      rc.fail(new ApiException(ErrorCode.NOT_FOUND));
      return;
    }
    long retryAfter = access.tryAcquirePostback(source);
    if (retryAfter > 0) {
      rc.fail(ApiException.retryLater(ErrorCode.RATE_LIMITED, retryAfter));
      return;
    }
    rc.put(SOURCE, source);
    rc.next();
  }

  public void handle(RoutingContext rc) {
    Instant receivedAt = Instant.now();
    PostbackSources.Entry entry = rc.get(SOURCE);
    WorkspaceConfig workspace = entry.workspace();
    PostbackSource source = entry.source();
    Set<String> readNames = PostbackReader.readNames(source);
    PostbackParams params = PostbackRepairs.repair(sent(rc), readNames);
    String method = rc.request().method().name();
    String macro = PostbackReader.unexpanded(params, readNames);
    if (macro != null) {
      String name = PostbackParams.shown(macro);
      refuse(rc, Postback.refused(workspace.id(), source.id(), method, params.logged(), Postback.MACRO_NOT_EXPANDED,
              "parameter " + name + " holds an unexpanded macro", receivedAt, params.repairs()),
          new ApiException(ErrorCode.MACRO_NOT_EXPANDED, "Parameter '" + name + "' still holds the partner's "
              + "macro, not a value: fix the macro's name in the postback URL at the partner.",
              List.of(new ApiException.FieldError(name, "unexpanded macro")), null));
      return;
    }
    Postback postback;
    try {
      postback = PostbackReader.read(params, workspace, source, method, receivedAt);
    } catch (ApiException invalid) {
      refuse(rc, Postback.refused(workspace.id(), source.id(), method, params.logged(), Postback.REFUSED,
          invalid.toJson().encode(), receivedAt, params.repairs()), invalid);
      return;
    }
    store.ask(Addresses.POSTBACKS_RECORD, postback.toJson(), rc)
        .onSuccess(answer -> Responses.ok(rc, answer))
        .onFailure(rc::fail);
  }

  /** Logs a postback that was not understood, then answers its error (logged or not: the partner must learn why). */
  private void refuse(RoutingContext rc, Postback refused, ApiException error) {
    store.ask(Addresses.POSTBACKS_RECORD, refused.toJson(), rc).onComplete(logged -> rc.fail(error));
  }

  /**
   * The query string's parameters, then a form's or a JSON object's whose names the query does not carry (a JSON
   * value that is not text is read as its JSON text). Both are decoded leniently ({@link PostbackParams#decode}).
   */
  private static List<PostbackParams.Param> sent(RoutingContext rc) {
    String query = rc.request().query();
    List<PostbackParams.Param> params = new ArrayList<>(PostbackParams.decode(query == null ? "" : query));
    Buffer body = RawBody.of(rc);
    if (body.length() > 0) {
      Set<String> inQuery = new HashSet<>();
      params.forEach(p -> inQuery.add(PostbackParams.lower(p.name())));
      body(rc, body).stream().filter(p -> !inQuery.contains(PostbackParams.lower(p.name()))).forEach(params::add);
    }
    return params;
  }

  private static List<PostbackParams.Param> body(RoutingContext rc, Buffer body) {
    String type = rc.request().getHeader(HttpHeaders.CONTENT_TYPE);
    String mediaType = type == null ? "" : type.split(";", 2)[0].trim().toLowerCase(Locale.ROOT);
    if (mediaType.equals("application/json")) {
      // What PostgreSQL cannot store is the reader's to refuse or the log's to clean, as for a query string.
      List<PostbackParams.Param> params = new ArrayList<>();
      JsonBody.parseAnyText(body).forEach(e -> {
        if (e.getValue() != null) {
          params.add(new PostbackParams.Param(e.getKey(), String.valueOf(e.getValue())));
        }
      });
      return params;
    }
    if (mediaType.equals(FORM)) {
      return PostbackParams.decode(body.toString(StandardCharsets.ISO_8859_1));
    }
    throw new ApiException(ErrorCode.UNSUPPORTED_MEDIA_TYPE, "A postback's body must be a form "
        + "(application/x-www-form-urlencoded) or JSON (application/json); or send its parameters in the URL.",
        null, null);
  }

  /** {@code GET /api/v1/postbacks}: the workspace's postback log, newest first; {@code outcome}, {@code before}. */
  public void list(RoutingContext rc) {
    WorkspaceConfig workspace = Edge.workspace(rc);
    String outcome = rc.queryParams().get("outcome");
    if (outcome != null && !List.of(Postback.MATCHED, Postback.UNMATCHED, Postback.DUPLICATE,
        Postback.MACRO_NOT_EXPANDED, Postback.REFUSED).contains(outcome)) {
      throw ApiException.validation(List.of(new ApiException.FieldError("outcome",
          "must be matched, unmatched, duplicate, macro_not_expanded or refused")));
    }
    long before = Long.MAX_VALUE;
    String given = rc.queryParams().get("before");
    if (given != null) {
      if (!given.matches("[0-9]{1,18}")) {
        throw ApiException.validation(List.of(new ApiException.FieldError("before", "must be a postback_id")));
      }
      before = Long.parseLong(given);
    }
    store.ask(Addresses.POSTBACKS_LIST, new JsonObject().put("workspace_id", workspace.id().toString())
            .put("before", before).put("outcome", outcome).put("limit", 50), rc)
        .onSuccess(page -> Responses.ok(rc, page))
        .onFailure(rc::fail);
  }

  /**
   * {@code GET /api/v1/postback-sources}: each source of the workspace with its URL template, {@code <token>} where
   * its token goes (only its digest is kept; {@code postback-url} prints the URL with the token filled in).
   */
  public void sources(RoutingContext rc) {
    WorkspaceConfig workspace = Edge.workspace(rc);
    String base = origin(rc);
    JsonArray sources = new JsonArray();
    workspace.postbackSources().forEach(source -> sources.add(new JsonObject().put("id", source.id())
        .put("click_id_holds", source.clickIdHolds())
        .put("url_template", source.urlTemplate(base, "<token>"))));
    Responses.ok(rc, new JsonObject().put("sources", sources));
  }

  /** This service's address as the request reached it (scheme and host). */
  private static String origin(RoutingContext rc) {
    String host = rc.request().authority() == null ? "localhost" : rc.request().authority().toString();
    return rc.request().scheme() + "://" + host;
  }

}
