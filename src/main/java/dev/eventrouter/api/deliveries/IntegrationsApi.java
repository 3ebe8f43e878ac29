package dev.eventrouter.api.deliveries;

import dev.eventrouter.api.events.EventValidator;
import dev.eventrouter.bus.Addresses;
import dev.eventrouter.bus.CredentialTest;
import dev.eventrouter.config.IntegrationConfig;
import dev.eventrouter.config.Network;
import dev.eventrouter.config.WorkspaceConfig;
import dev.eventrouter.event.DeliveryFilter;
import dev.eventrouter.event.EventFilter;
import dev.eventrouter.event.EventIds;
import dev.eventrouter.http.ApiException.FieldError;
import dev.eventrouter.http.ApiException;
import dev.eventrouter.http.AuditTrail;
import dev.eventrouter.http.Edge;
import dev.eventrouter.http.ErrorCode;
import dev.eventrouter.http.Responses;
import dev.eventrouter.http.StoreClient;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.regex.Pattern;

/**
 * {@code GET /api/v1/integrations}: the key's workspace's integrations, each with its settings, whether it is paused,
 * its deliveries of recent events by state, and its match-key coverage (the share of its delivered events that
 * carried each key the network matches people with). And
 * {@code POST /api/v1/integrations/{integration_id}/test}: one test event through one integration of the key's
 * workspace, so a new token is checked before real traffic; answered with the network's verdict in its own words.
 * The event carries a test_event_code (the request's, else the integration's), so it lands in the network's test
 * tool; without either, nothing is sent.
 */
public final class IntegrationsApi {

  /** The test event's name, as the bot would send it, when the request names none. */
  public static final String DEFAULT_TEST_EVENT = "REG";
  public static final String WEBHOOK_TEST_CODE = "TEST";
  /** A Snapchat or Google credential test's code: it only marks the test, which goes to the network's validation. */
  static final String VALIDATE_TEST_CODE = "VALIDATE";
  /** The networks' test codes are short letters and digits (Meta's TEST12345, TikTok's TEST67890). */
  static final Pattern TEST_EVENT_CODE = Pattern.compile("[A-Za-z0-9_-]{1,64}");

  /** How far back the summary looks by default, and at most: the 7 days the networks take events for. */
  static final int DEFAULT_WINDOW_HOURS = 24;
  static final int MAX_WINDOW_HOURS = 168;
  private static final Pattern WINDOW_HOURS = Pattern.compile("[1-9][0-9]{0,2}");

  private final StoreClient bus;
  private final BreakerWatch breakers;

  public IntegrationsApi(StoreClient bus, BreakerWatch breakers) {
    this.bus = bus;
    this.breakers = breakers;
  }

  public void summary(RoutingContext rc) {
    WorkspaceConfig workspace = Edge.workspace(rc);
    String hours = query(rc, "window_hours", WINDOW_HOURS, "must be a whole number of hours from 1 to "
        + MAX_WINDOW_HOURS);
    int windowHours = hours == null ? DEFAULT_WINDOW_HOURS : Integer.parseInt(hours);
    if (windowHours > MAX_WINDOW_HOURS) {
      throw ApiException.validation(List.of(new FieldError("window_hours",
          "must be a whole number of hours from 1 to " + MAX_WINDOW_HOURS)));
    }
    Instant since = Instant.now().minus(Duration.ofHours(windowHours)).truncatedTo(ChronoUnit.SECONDS);
    JsonObject ask = new JsonObject().put("workspace_id", workspace.id().toString())
        .put("from_event_id", EventIds.firstIdAt(since));
    bus.ask(Addresses.INTEGRATIONS_SUMMARY, ask, rc)
        .onSuccess(stored -> Responses.ok(rc, new JsonObject().put("window_hours", windowHours)
            .put("since", since.toString()).put("events", events(stored))
            .put("integrations", summaries(workspace, stored, Instant.now()))))
        .onFailure(rc::fail);
  }

  /** The window's events: how many were accepted, and by how their session was found (every source named). */
  private static JsonObject events(JsonObject stored) {
    JsonObject counted = stored.getJsonObject("events_by_session_source");
    JsonObject bySource = new JsonObject();
    EventFilter.SESSION_SOURCES.forEach(source -> bySource.put(source, counted.getLong(source, 0L)));
    long accepted = bySource.stream().mapToLong(e -> (Long) e.getValue()).sum();
    return new JsonObject().put("accepted", accepted).put("by_session_source", bySource);
  }

  /** Each configured integration, in the config's order, with what the store and the breakers' notices tell. */
  private JsonArray summaries(WorkspaceConfig workspace, JsonObject stored, Instant now) {
    JsonArray list = new JsonArray();
    for (IntegrationConfig integration : workspace.integrations()) {
      JsonObject known = stored.getJsonObject("integrations").getJsonObject(integration.id(), new JsonObject());
      JsonObject deliveries = new JsonObject();
      DeliveryFilter.STATES.forEach(state -> deliveries.put(state,
          known.getJsonObject("deliveries", new JsonObject()).getLong(state, 0L)));
      list.add(new JsonObject()
          .put("integration_id", integration.id())
          .put("network", integration.network().id)
          .put("enabled", integration.enabled())
          .put("dry_run", integration.dryRun())
          .put("test_event_code", integration.testEventCode())
          .put("proxy", integration.proxy() == null ? null : integration.proxy().toString()) // never its credentials
          .put("events", integration.events() == null ? null : new JsonArray(integration.events().stream().sorted()
              .toList()))
          .put("paused", stored.getJsonObject("paused").getJsonObject(integration.id()))
          .put("breaker_open_until", instant(breakers.openUntil(workspace.id(), integration.id(), now)))
          .put("deliveries", deliveries)
          .put("match_keys", known.getJsonObject("match_keys")));
    }
    return list;
  }

  public void test(RoutingContext rc) {
    WorkspaceConfig workspace = Edge.workspace(rc);
    String id = rc.pathParam("integration_id");
    IntegrationConfig integration = integration(workspace, id);
    if ("".equals(integration.pixel()) || "".equals(integration.accessToken())) {
      throw new ApiException(ErrorCode.INTEGRATION_NOT_CONFIGURED); // as init writes it: disabled, to fill in
    }
    String eventName = query(rc, "event_name", EventValidator.EVENT_NAME,
        "must be 1 to 50 characters of letters, digits, '_', '-' and inner spaces");
    String code = query(rc, "test_event_code", TEST_EVENT_CODE, "must be 1 to 64 characters of letters and digits");
    code = code != null ? code : integration.testEventCode();
    if (code == null && integration.network() == Network.WEBHOOK) {
      code = WEBHOOK_TEST_CODE; // a webhook has no test tool: the code only tells the receiver it is a test
    }
    Network network = integration.network();
    if (code == null && (network == Network.SNAPCHAT || network == Network.GOOGLE_ADS)) {
      code = VALIDATE_TEST_CODE; // no code there: any sends to their validation, which counts nothing
    }
    String name = eventName == null ? DEFAULT_TEST_EVENT : eventName;
    if (integration.google() != null && !integration.google().actions().containsKey(name)) {
      throw ApiException.validation(List.of(new FieldError("event_name", "this integration has no conversion action "
          + "for " + name + " (its conversion_actions: " + String.join(", ", integration.google().actions().keySet())
          + ")")));
    }
    if (code == null) {
      throw new ApiException(ErrorCode.TEST_EVENT_CODE_REQUIRED);
    }
    CredentialTest test = new CredentialTest(workspace.id(), id, name, code, bus.timeoutMs());
    bus.askForwarder(Addresses.integrationTest(integration.network().id), test.toJson(), rc)
        .onSuccess(verdict -> {
          AuditTrail.outcome(rc, "verdict " + verdict.getString("verdict"));
          Responses.ok(rc, verdict);
        })
        .onFailure(rc::fail);
  }

  /** The workspace's integration of this id, else the documented 404. */
  static IntegrationConfig integration(WorkspaceConfig workspace, String id) {
    return workspace.integrations().stream().filter(i -> i.id().equals(id)).findFirst()
        .orElseThrow(() -> new ApiException(ErrorCode.NOT_FOUND, "This workspace has no integration " + id + ".",
            null, null));
  }

  private static String instant(Instant at) {
    return at == null ? null : at.toString();
  }

  /** An optional query parameter, null when absent; a 400 naming it when it does not match. */
  private static String query(RoutingContext rc, String name, Pattern pattern, String rule) {
    String value = rc.queryParams().get(name);
    if (value != null && !pattern.matcher(value).matches()) {
      throw ApiException.validation(List.of(new FieldError(name, rule)));
    }
    return value;
  }
}
