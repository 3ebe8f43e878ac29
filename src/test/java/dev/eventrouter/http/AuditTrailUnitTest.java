package dev.eventrouter.http;

import dev.eventrouter.bus.Addresses;
import dev.eventrouter.config.KeyRole;
import dev.eventrouter.config.WorkspaceConfig;
import dev.eventrouter.support.Await;
import io.vertx.core.Handler;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.client.WebClient;
import io.vertx.junit5.VertxExtension;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;

import static dev.eventrouter.support.TestApp.WS_A;
import static org.assertj.core.api.Assertions.assertThat;

/** The audit trail's entries, outcomes and refusal window, on a bare router with the audit log's side of the bus. */
@ExtendWith(VertxExtension.class)
class AuditTrailUnitTest {

  private final WorkspaceConfig workspace = Grants.workspace();
  private final Grant owner = Grants.of(workspace, "owner", KeyRole.ADMIN, null);
  private final Grant analyst = Grants.of(workspace, "analyst", KeyRole.VIEWER, null);
  private final AtomicLong now = new AtomicLong();
  private final List<JsonObject> entries = new CopyOnWriteArrayList<>();
  private AuditTrail audit;
  private WebClient client;
  private int port;

  @BeforeEach
  void start(Vertx vertx) {
    Await.result(vertx.eventBus().<JsonObject>consumer(Addresses.AUDIT_RECORD, m -> {
      entries.add(m.body());
      m.reply(new JsonObject());
    }).completion());
    audit = new AuditTrail(vertx, now::get);
    Handler<RoutingContext> answer = rc -> {
      switch (rc.request().path()) {
        case "/told" -> {
          AuditTrail.outcome(rc, "verdict refused");
          rc.response().end();
        }
        case "/named" -> {
          AuditTrail.target(rc, "deliveries of hook");
          rc.response().end();
        }
        case "/invalid" -> rc.fail(ApiException.validation(List.of(new ApiException.FieldError("x", "bad"))));
        case "/refused" -> rc.response().setStatusCode(403).end();
        case "/moved" -> rc.response().setStatusCode(300).end();
        default -> rc.response().end();
      }
    };
    port = Grants.serve(vertx, rc -> switch (String.valueOf(rc.request().getHeader("key"))) {
      case "owner" -> owner;
      case "analyst" -> analyst;
      default -> null;
    }, List.of(audit.of("integration.test", rc -> rc.request().path().substring(1)), answer));
    client = WebClient.create(vertx);
  }

  @AfterEach
  void stop() {
    client.close();
  }

  private int send(String path, String key) {
    var request = client.post(port, "127.0.0.1", path);
    if (key != null) {
      request.putHeader("key", key);
    }
    return Await.result(request.send()).statusCode();
  }

  private JsonObject entry(int n) {
    Await.until(n + " entries", Duration.ofSeconds(5), () -> entries.size() >= n);
    assertThat(entries).hasSize(n);
    return entries.get(n - 1);
  }

  @Test
  @DisplayName("an entry names the workspace, key, action, target and outcome: the status and code, the handler's "
      + "own words, its own target; a 3xx is not ok")
  void entries() {
    assertThat(send("/hook", "owner")).isEqualTo(200);
    assertThat(entry(1)).isEqualTo(new JsonObject().put("workspace_id", WS_A).put("key_name", "owner")
        .put("action", "integration.test").put("target", "hook").put("outcome", "200 ok"));
    send("/told", "owner");
    assertThat(entry(2).getString("outcome")).isEqualTo("200 verdict refused");
    send("/named", "owner");
    assertThat(entry(3).getString("target")).isEqualTo("deliveries of hook");
    send("/invalid", "owner");
    assertThat(entry(4).getString("outcome")).as("the failure's own code, not the status's first")
        .isEqualTo("400 validation_failed");
    send("/moved", "owner");
    assertThat(entry(5).getString("outcome")).isEqualTo("300 internal_error");
  }

  @Test
  @DisplayName("a request without a key's grant passes on unrecorded")
  void ungranted() {
    assertThat(send("/hook", null)).isEqualTo(200);
    send("/hook", "owner");
    assertThat(entry(1).getString("key_name")).isEqualTo("owner");
  }

  @Test
  @DisplayName("a key's refusals of an action are recorded once a minute, each key's apart")
  void refusalWindow() {
    assertThat(send("/refused", "analyst")).isEqualTo(403);
    assertThat(entry(1).getString("outcome")).isEqualTo("403 forbidden");
    now.set(AuditTrail.REFUSAL_EVERY_MS - 1);
    send("/refused", "analyst");
    send("/hook", "analyst");
    assertThat(entry(2).getString("outcome")).as("the refusal within the minute is not recorded").isEqualTo("200 ok");
    send("/refused", "owner");
    assertThat(entry(3).getString("key_name")).isEqualTo("owner");
    now.set(AuditTrail.REFUSAL_EVERY_MS);
    send("/refused", "analyst");
    assertThat(entry(4).getString("outcome")).isEqualTo("403 forbidden");
  }

  @Test
  @DisplayName("the refusals remembered are forgotten all at once past their bound, and not before")
  void refusalsBounded() {
    for (int i = 0; i < AuditTrail.MAX_REFUSERS; i++) {
      assertThat(audit.firstRefusal(owner, "action " + i)).isTrue();
    }
    assertThat(audit.firstRefusal(owner, "action 0")).as("remembered at the bound").isFalse();
    assertThat(audit.firstRefusal(owner, "action " + AuditTrail.MAX_REFUSERS)).isTrue();
    assertThat(audit.firstRefusal(owner, "action 1")).as("forgotten past it").isTrue();
    assertThat(audit.firstRefusal(owner, "action 2")).as("and remembered again from then on").isTrue();
    assertThat(audit.firstRefusal(owner, "action 1")).isFalse();
  }
}
