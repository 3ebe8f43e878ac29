package dev.eventrouter.http;

import dev.eventrouter.bus.Addresses;
import dev.eventrouter.bus.CredentialTest;
import dev.eventrouter.config.IntegrationConfig;
import dev.eventrouter.config.Network;
import dev.eventrouter.config.WorkspaceConfig;
import dev.eventrouter.http.ApiException.FieldError;
import io.vertx.ext.web.RoutingContext;

import java.util.List;
import java.util.regex.Pattern;

/**
 * {@code POST /api/v1/integrations/{integration_id}/test}: one test event through one integration of the key's
 * workspace, so a new token is checked before real traffic; answered with the network's verdict in its own words.
 * The event carries a test_event_code (the request's, else the integration's), so it lands in the network's test
 * tool; without either, nothing is sent.
 */
final class IntegrationsApi {

  /** The test event's name, as the bot would send it, when the request names none. */
  static final String DEFAULT_TEST_EVENT = "REG";
  static final String WEBHOOK_TEST_CODE = "TEST";
  /** The networks' test codes are short letters and digits (Meta's TEST12345, TikTok's TEST67890). */
  static final Pattern TEST_EVENT_CODE = Pattern.compile("[A-Za-z0-9_-]{1,64}");

  private final StoreClient bus;

  IntegrationsApi(StoreClient bus) {
    this.bus = bus;
  }

  void test(RoutingContext rc) {
    WorkspaceConfig workspace = Edge.workspace(rc);
    String id = rc.pathParam("integration_id");
    IntegrationConfig integration = workspace.integrations().stream().filter(i -> i.id().equals(id)).findFirst()
        .orElseThrow(() -> new ApiException(ErrorCode.NOT_FOUND, "This workspace has no integration " + id + ".",
            null, null));
    String eventName = query(rc, "event_name", EventValidator.EVENT_NAME,
        "must be 1 to 50 characters of letters, digits, '_', '-' and inner spaces");
    String code = query(rc, "test_event_code", TEST_EVENT_CODE, "must be 1 to 64 characters of letters and digits");
    code = code != null ? code : integration.testEventCode();
    if (code == null && integration.network() == Network.WEBHOOK) {
      code = WEBHOOK_TEST_CODE; // a webhook has no test tool: the code only tells the receiver it is a test
    }
    if (code == null) {
      throw new ApiException(ErrorCode.TEST_EVENT_CODE_REQUIRED);
    }
    CredentialTest test = new CredentialTest(workspace.id(), id, eventName == null ? DEFAULT_TEST_EVENT : eventName,
        code, bus.timeoutMs());
    bus.askForwarder(Addresses.integrationTest(integration.network().id), test.toJson(), rc)
        .onSuccess(verdict -> Responses.ok(rc, verdict))
        .onFailure(rc::fail);
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
