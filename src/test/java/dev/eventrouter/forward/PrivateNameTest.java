package dev.eventrouter.forward;

import dev.eventrouter.support.Await;
import dev.eventrouter.support.FakeTelegram;
import dev.eventrouter.support.HttpProxy;
import dev.eventrouter.support.LoopbackName;
import dev.eventrouter.support.TestApp;
import io.vertx.core.MultiMap;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.sqlclient.Row;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.util.List;

import static dev.eventrouter.support.TestApp.KEY_A;
import static dev.eventrouter.support.TestApp.WS_A;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A host name that resolves to loopback (the test host's own, from /etc/hosts), named where the service sends, in
 * the real service on a real PostgreSQL, without allow_private_network: the config takes it (it looks public), and
 * each request is refused when it is about to be sent, for good, directly or through a proxy (which is asked
 * nothing), while the fake receivers on 127.0.0.1 get nothing.
 */
class PrivateNameTest extends FakeNetworksTest {

  private static final String REFUSED = " URL resolves to a loopback, link-local or private address; set "
      + "allow_private_network to send there";

  @Test
  @DisplayName("Meta directly and TikTok through an http proxy, at a name resolving to loopback: each delivery fails "
      + "for good with a clear last_error, the credential test answers refused, and neither the networks nor the "
      + "proxy are asked anything")
  void integrations() {
    String name = LoopbackName.get();
    HttpProxy proxy = HttpProxy.start(vertx, false, null, null);
    try {
      String base = fake.baseUrl().replace("127.0.0.1", name);
      JsonObject config = ForwardingTestConfig.config(databaseUrl, fake.baseUrl(), new JsonObject()
          .put("api_base", base).put("allow_private_network", false));
      config.getJsonArray("workspaces").getJsonObject(0).getJsonArray("integrations").getJsonObject(1)
          .put("api_base", base).put("allow_private_network", false)
          .put("proxy", "http://127.0.0.1:" + proxy.port());
      app = TestApp.start(vertx, config);

      var posted = app.postEvent(KEY_A, new JsonObject().put("workspace_id", WS_A).put("event_name", "FTD")
          .put("telegram_id", 555).put("value", 20).put("currency", "EUR"));
      assertThat(posted.statusCode()).as(posted.bodyAsString()).isEqualTo(200);
      long id = Long.parseLong(posted.bodyAsJsonObject().getJsonObject("data").getString("event_id")
          .substring("evt_".length()));
      Await.until("both failed", DEADLINE, () -> count("meta", "failed") == 1 && count("tiktok", "failed") == 1);
      List<Row> rows = app.rows("SELECT network, attempts, last_error FROM deliveries WHERE event_id = $1 "
          + "ORDER BY network", id);
      assertThat(rows).extracting(row -> row.getString("network") + ": " + row.getInteger("attempts") + ", "
          + row.getString("last_error"))
          .containsExactly("meta: 1, the host of the meta" + REFUSED, "tiktok: 1, the host of the tiktok" + REFUSED);

      var test = app.post("/api/v1/integrations/meta-main/test?test_event_code=TEST123",
          MultiMap.caseInsensitiveMultiMap().add("x-api-key", KEY_A), Buffer.buffer());
      assertThat(test.statusCode()).as(test.bodyAsString()).isEqualTo(200);
      assertThat(test.bodyAsJsonObject().getJsonObject("data").getString("verdict")).isEqualTo("refused");
      assertThat(test.bodyAsJsonObject().getJsonObject("data").getString("message"))
          .isEqualTo("the host of the meta" + REFUSED);

      assertThat(fake.received("meta")).isEmpty();
      assertThat(fake.received("tiktok")).isEmpty();
      assertThat(proxy.seen()).isEmpty();
    } finally {
      proxy.stop();
    }
  }

  @Test
  @DisplayName("a Telegram pass_through to a name resolving to loopback: the update is acknowledged, its pass-through "
      + "fails for good with a clear last_error, and the bot's backend gets nothing")
  void passThrough() {
    String name = LoopbackName.get();
    FakeTelegram telegram = FakeTelegram.start(vertx);
    try {
      JsonObject config = ForwardingTestConfig.config(databaseUrl, fake.baseUrl());
      config.getJsonArray("workspaces").getJsonObject(0).put("integrations", new JsonArray())
          .put("telegram", new JsonObject().put("webhook_secret", "tg-secret-0123456789abcdef")
              .put("pass_through", new JsonObject().put("url", telegram.backendUrl().replace("127.0.0.1", name))));
      app = TestApp.start(vertx, config);

      var answer = app.post("/telegram/" + WS_A + "/webhook", MultiMap.caseInsensitiveMultiMap()
          .add("Content-Type", "application/json").add("X-Telegram-Bot-Api-Secret-Token", "tg-secret-0123456789abcdef"),
          new JsonObject().put("update_id", 990).put("poll", new JsonObject().put("id", "5")).toBuffer());
      assertThat(answer.statusCode()).as(answer.bodyAsString()).isEqualTo(200);
      Await.until("the pass-through ended", DEADLINE, () -> !app.rows("SELECT 1 FROM telegram_outbox WHERE "
          + "update_id = 990 AND done_at IS NOT NULL").isEmpty());
      Row job = app.rows("SELECT kind, status, last_error FROM telegram_outbox WHERE update_id = 990").get(0);
      assertThat(job.getString("kind")).isEqualTo("pass_through");
      assertThat(job.getString("status")).isEqualTo("failed");
      assertThat(job.getString("last_error")).isEqualTo("the host of the pass_through" + REFUSED);
      assertThat(telegram.passed()).isEmpty();
    } finally {
      telegram.close();
    }
  }
}
