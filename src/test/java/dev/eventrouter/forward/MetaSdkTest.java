package dev.eventrouter.forward;

import com.facebook.ads.sdk.serverside.ActionSource;
import com.facebook.ads.sdk.serverside.Event;
import com.facebook.ads.sdk.serverside.EventRequest;
import com.facebook.ads.sdk.serverside.UserData;
import dev.eventrouter.common.Sha256;
import dev.eventrouter.config.ApiKeys;
import dev.eventrouter.support.Await;
import dev.eventrouter.support.FakeAdNetworks;
import dev.eventrouter.support.FakeAffiliateProgram;
import dev.eventrouter.support.MetaSdk;
import dev.eventrouter.support.TestApp;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static dev.eventrouter.support.TestApp.KEY_A;
import static dev.eventrouter.support.TestApp.WS_A;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * What Meta is sent, read with Meta's own Java Business SDK: a Meta integration per action_source the config takes,
 * each with a test code and Limited Data Use, gets every mapped event with rich user_data, a click with its landing
 * page, an invite session, a partner's postback and a conversion's status change; every request the fake Meta server
 * captured must read through the SDK's model with each field where the SDK keeps it. Real service, real PostgreSQL.
 */
class MetaSdkTest extends FakeNetworksTest {

  private static final List<String> SOURCES = List.of("business_messaging", "chat", "email", "other", "phone_call",
      "physical_store", "system_generated", "website");
  private static final String POSTBACK_TOKEN = "pb_Meta5dkReadBack7Hq2Lx9Vd4";
  private static final String LANDING = "https://promo.example.com/lp?fbclid=IwAR_sdk";
  /** What a bot sends for its user, as people type it; the hashes below are of Meta's normalised forms. */
  private static final JsonObject RICH = new JsonObject().put("email", " Mary@Example.com ")
      .put("phone", "+1 (650) 555-1212").put("first_name", "Mary").put("last_name", "Smith").put("gender", "female")
      .put("date_of_birth", "1997-02-16").put("city", "Menlo Park").put("state", "California")
      .put("zip", "94025-1234").put("country", "United States").put("external_id", "crm-42")
      .put("client_ip", "198.51.100.4").put("user_agent", "Mozilla/5.0 (Linux; Android 14)");
  private static final Map<String, String> MAPPED = Map.of("FTD", "Purchase", "DEP", "Purchase",
      "Purchase", "Purchase", "REG", "CompleteRegistration", "Subscribe", "Lead", "JoinRequest", "Lead",
      "INSTALL", "AppInstall", "TRIAL", "StartTrial", "Level Up", "Level Up");

  private static String testCode(String source) {
    return "TEST_" + source.toUpperCase();
  }

  private void start() {
    JsonObject config = ForwardingTestConfig.config(databaseUrl, fake.baseUrl());
    JsonObject workspace = config.getJsonArray("workspaces").getJsonObject(0);
    JsonArray integrations = new JsonArray();
    for (String source : SOURCES) {
      integrations.add(FakeAdNetworks.metaIntegration(fake.baseUrl()).put("id", "meta-" + source)
          .put("action_source", source).put("test_event_code", testCode(source)).put("limited_data_use", true)
          .put("data_processing_options_country", 1).put("data_processing_options_state", 1000));
    }
    workspace.put("integrations", integrations);
    workspace.put("postback_sources", new JsonArray().add(new JsonObject().put("id", "casino")
        .put("token", ApiKeys.configValue(POSTBACK_TOKEN))
        .put("macros", new JsonObject().put("click_id", "{subid}").put("event", "{goal}").put("value", "{payout}")
            .put("currency", "{currency}").put("status", "{status}").put("transaction_id", "{trans_id}"))));
    app = TestApp.start(vertx, config);
  }

  private String post(JsonObject event) {
    var response = app.postEvent(KEY_A, event.put("workspace_id", WS_A));
    assertThat(response.statusCode()).as(response.bodyAsString()).isEqualTo(200);
    return response.bodyAsJsonObject().getJsonObject("data").getString("event_id");
  }

  private void session(String path, JsonObject session) {
    var response = app.postJson(path, KEY_A, session.put("workspace_id", WS_A));
    assertThat(response.statusCode()).as(response.bodyAsString()).isEqualTo(200);
  }

  @Test
  @DisplayName("every Meta request, for every action_source, reads through Meta's SDK model with each field in place")
  void everyRequestReadsThroughTheSdk() {
    start();
    long telegramId = 9_000;
    Set<String> rich = new HashSet<>();
    Map<String, String> names = new HashMap<>();
    for (Map.Entry<String, String> mapped : MAPPED.entrySet()) {
      JsonObject event = new JsonObject().put("event_name", mapped.getKey()).put("telegram_id", telegramId++)
          .put("user_data", RICH.copy()).put("limited_data_use", true);
      if ("Purchase".equals(mapped.getValue()) || "JoinRequest".equals(mapped.getKey())) {
        event.put("value", 25.5).put("currency", "EUR");
      }
      String id = post(event);
      rich.add(id);
      names.put(id, mapped.getValue());
    }
    session("/api/v1/sessions", new JsonObject().put("session_id", "clk_sdk").put("fbclid", "IwAR_sdk")
        .put("fbp", "fb.1.1596403881668.1116446470").put("client_ip", "203.0.113.7")
        .put("user_agent", "Mozilla/5.0 (iPhone)").put("landing_url", LANDING));
    String clicked = post(new JsonObject().put("event_name", "REG").put("telegram_id", 9_100)
        .put("session_id", "clk_sdk").put("limited_data_use", false));
    session("/api/v1/sessions/invites", new JsonObject().put("telegram_id", 9_101).put("session_id", "inv_sdk"));
    String invited = post(new JsonObject().put("event_name", "Subscribe").put("telegram_id", 9_101));
    session("/api/v1/sessions", new JsonObject().put("session_id", "pb_sdk").put("fbclid", "IwAR_pb")
        .put("landing_url", LANDING));
    var answer = new FakeAffiliateProgram(app.client(), app.port(), "/api/v1/postbacks/" + POSTBACK_TOKEN
        + "?subid={subid}&goal={goal}&payout={payout}&currency={currency}&status={status}&tid={trans_id}")
        .fireGet(Map.of("subid", "pb_sdk", "goal", "FTD", "payout", "120.5", "currency", "EUR", "status",
            "approved", "trans_id", "T-pb"));
    assertThat(answer.statusCode()).as(answer.bodyAsString()).isEqualTo(200);
    String postback = answer.bodyAsJsonObject().getJsonObject("data").getString("event_id");
    JsonObject conversion = new JsonObject().put("event_name", "DEP").put("telegram_id", 9_102).put("value", 40)
        .put("currency", "USD").put("transaction_id", "T-status");
    String changed = post(conversion.copy().put("conversion_status", "pending"));
    assertThat(post(conversion.copy().put("conversion_status", "approved"))).isEqualTo(changed);

    List<String> all = new ArrayList<>(rich);
    all.addAll(List.of(clicked, invited, postback, changed));
    Await.until("every event delivered to every Meta integration", DEADLINE,
        () -> count("meta", "delivered") == (long) all.size() * SOURCES.size());

    Map<String, Set<String>> readBySource = new HashMap<>();
    for (FakeAdNetworks.Received received : fake.received("meta")) {
      EventRequest request = MetaSdk.read(received.body());
      String source = SOURCES.stream().filter(s -> testCode(s).equals(request.getTestEventCode())).findFirst()
          .orElseThrow();
      for (int i = 0; i < request.getData().size(); i++) {
        Event event = request.getData().get(i);
        String id = event.getEventId();
        readBySource.computeIfAbsent(source, s -> new HashSet<>()).add(id);
        assertThat(event.getActionSource()).isEqualTo(ActionSource.valueOf(source));
        assertThat(event.getEventTime()).isPositive();
        assertThat(event.getUserData()).isNotNull();
        assertThat(event.getDataProcessingOptions()).containsExactlyElementsOf(
            id.equals(clicked) ? List.of() : List.of("LDU"));
        if (event.getDataProcessingOptions().length > 0) {
          assertThat(event.getDataProcessingOptionsCountry()).isEqualTo(1);
          assertThat(event.getDataProcessingOptionsState()).isEqualTo(1000);
        }
        String pageless = "website".equals(source) ? "https://t.me/" + TestApp.BOT_A : null;
        if (rich.contains(id)) {
          assertThat(event.getEventName()).isEqualTo(names.get(id));
          assertRich(event.getUserData(), id);
          assertThat(MetaSdk.genders(received.body(), i)).isEqualTo(new JsonArray().add(Sha256.hex("f")));
          assertThat(event.getEventSourceUrl()).as("no session: the fallback on website events only")
              .isEqualTo(pageless);
        } else if (id.equals(clicked)) {
          assertThat(event.getEventName()).isEqualTo("CompleteRegistration");
          assertThat(event.getEventSourceUrl()).isEqualTo(LANDING);
          UserData user = event.getUserData();
          assertThat(user.getExternalIds()).containsExactly(Sha256.hex("9100"));
          assertThat(user.getFbc()).endsWith(".IwAR_sdk");
          assertThat(user.getFbp()).isEqualTo("fb.1.1596403881668.1116446470");
          assertThat(user.getClientIpAddress()).isEqualTo("203.0.113.7");
          assertThat(user.getClientUserAgent()).isEqualTo("Mozilla/5.0 (iPhone)");
        } else if (id.equals(invited)) {
          assertThat(event.getEventName()).isEqualTo("Lead");
          assertThat(event.getEventSourceUrl()).as("an invite session has no landing page").isEqualTo(pageless);
          assertThat(event.getUserData().getClientUserAgent()).as("none known, none made up").isNull();
        } else if (id.equals(postback)) {
          assertThat(event.getEventName()).isEqualTo("Purchase");
          assertThat(event.getCustomData().getValue()).isEqualTo(120.5f);
          assertThat(event.getCustomData().getCurrency()).isEqualTo("EUR");
          assertThat(event.getEventSourceUrl()).isEqualTo(LANDING);
          assertThat(event.getUserData().getFbc()).endsWith(".IwAR_pb");
        } else {
          assertThat(id).isEqualTo(changed);
          assertThat(event.getEventName()).as("the approved conversion").isEqualTo("Purchase");
          assertThat(event.getCustomData().getValue()).isEqualTo(40f);
          assertThat(event.getCustomData().getCurrency()).isEqualTo("USD");
          assertThat(event.getUserData().getExternalIds()).containsExactly(Sha256.hex("9102"));
        }
      }
    }
    assertThat(readBySource.keySet()).containsExactlyInAnyOrderElementsOf(SOURCES);
    readBySource.values().forEach(ids -> assertThat(ids).containsExactlyInAnyOrderElementsOf(all));
  }

  private static void assertRich(UserData user, String id) {
    MetaSdk.assertMary(user, id);
    assertThat(user.getExternalIds()).hasSize(2).contains(Sha256.hex("crm-42"));
    assertThat(user.getClientIpAddress()).isEqualTo("198.51.100.4");
    assertThat(user.getClientUserAgent()).isEqualTo("Mozilla/5.0 (Linux; Android 14)");
  }
}
