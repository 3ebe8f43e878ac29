package dev.eventrouter.forward;

import dev.eventrouter.support.Await;
import dev.eventrouter.support.TestApp;
import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import static dev.eventrouter.support.ApiAssertions.assertError;
import static dev.eventrouter.support.TestApp.KEY_A;
import static dev.eventrouter.support.TestApp.KEY_B;
import static dev.eventrouter.support.TestApp.WS_A;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code GET /api/v1/deliveries} and {@code POST /api/v1/deliveries/redeliver} on a real PostgreSQL with a few
 * thousand failed deliveries, forwarded again to the fake networks.
 */
class BulkRedeliveryTest extends FakeNetworksTest {

  private static final int EVENTS = 3000;

  private List<String> postMany(int n, String name) {
    List<Future<HttpResponse<Buffer>>> answers = app.postConcurrently(n, i -> TestApp.jsonHeaders(KEY_A),
        i -> new JsonObject().put("event_name", name).put("telegram_id", 10_000 + i).put("workspace_id", WS_A));
    List<String> ids = new ArrayList<>();
    for (Future<HttpResponse<Buffer>> answer : answers) {
      assertThat(answer.result().statusCode()).isEqualTo(200);
      ids.add(answer.result().bodyAsJsonObject().getJsonObject("data").getString("event_id"));
    }
    return ids;
  }

  private JsonObject redeliver(JsonObject filter) {
    var answer = app.postJson("/api/v1/deliveries/redeliver", KEY_A, filter);
    assertThat(answer.statusCode()).as(answer.bodyAsString()).isEqualTo(200);
    return answer.bodyAsJsonObject().getJsonObject("data");
  }

  @Test
  @DisplayName("three thousand failed deliveries are listed page by page and re-queued in bounded calls, each "
      + "delivered once again; a second pass re-queues nothing")
  void thousandsRequeued() {
    app = TestApp.start(vertx, ForwardingTestConfig.config(databaseUrl, fake.baseUrl()));
    List<String> ids = postMany(EVENTS, "REG");
    Await.until("all delivered", DEADLINE, () -> count("meta", "delivered") == EVENTS
        && count("tiktok", "delivered") == EVENTS);
    // As if Meta had refused them all for good.
    app.rows("UPDATE deliveries SET status = 'failed', last_error = 'meta HTTP 400 code 100: x' "
        + "WHERE network = 'meta'");
    fake.reset();

    Set<String> listed = new HashSet<>();
    String cursor = null;
    int pages = 0;
    do {
      var page = app.get("/api/v1/deliveries?status=failed&integration_id=meta-main&limit=1000"
          + (cursor == null ? "" : "&cursor=" + cursor), KEY_A);
      assertThat(page.statusCode()).as(page.bodyAsString()).isEqualTo(200);
      JsonObject data = page.bodyAsJsonObject().getJsonObject("data");
      data.getJsonArray("deliveries").stream().map(JsonObject.class::cast).forEach(d -> {
        assertThat(d.getString("status")).isEqualTo("failed");
        assertThat(d.getString("event_name")).isEqualTo("REG");
        assertThat(d.getString("mapped_event")).isEqualTo("CompleteRegistration");
        listed.add(d.getString("event_id"));
      });
      cursor = data.getString("next_cursor");
      pages++;
    } while (cursor != null);
    assertThat(listed).containsExactlyInAnyOrderElementsOf(ids);
    assertThat(pages).isBetween(3, 4);
    assertThat(app.get("/api/v1/deliveries?status=failed", TestApp.KEY_B).bodyAsJsonObject().getJsonObject("data")
        .getJsonArray("deliveries")).as("another workspace sees none of them").isEmpty();

    int requeued = 0;
    JsonObject answer;
    do {
      answer = redeliver(new JsonObject().put("integration_id", "meta-main").put("limit", 1000));
      assertThat(answer.getInteger("requeued")).isLessThanOrEqualTo(1000);
      requeued += answer.getInteger("requeued");
    } while (answer.getBoolean("more"));
    assertThat(requeued).isEqualTo(EVENTS);

    Await.until("all delivered again", DEADLINE, () -> count("meta", "delivered") == EVENTS);
    assertThat(fake.accepted("meta")).hasSize(EVENTS).allSatisfy((id, n) -> assertThat(n).isOne());
    assertThat(fake.received("tiktok")).as("TikTok's were not touched").isEmpty();
    assertThat(redeliver(new JsonObject()).getInteger("requeued")).as("nothing left to re-queue").isZero();
  }

  @Test
  @DisplayName("the filters choose: event name, time range, state; a bad filter is a 400 naming each field")
  void filters() {
    app = TestApp.start(vertx, ForwardingTestConfig.config(databaseUrl, fake.baseUrl()));
    List<String> regs = postMany(3, "REG");
    List<String> subs = postMany(2, "Subscribe");
    Await.until("all delivered", DEADLINE, () -> count("meta", "delivered") == 5);
    app.rows("UPDATE deliveries SET status = 'failed' WHERE network = 'meta'");

    JsonObject onlySubs = redeliver(new JsonObject().put("event_name", "Subscribe").put("status",
        new JsonArray().add("failed")));
    assertThat(onlySubs.getInteger("requeued")).isEqualTo(2);
    assertThat(onlySubs.getBoolean("more")).isFalse();
    Await.until("the two delivered again", DEADLINE, () -> count("meta", "delivered") == 2);
    assertThat(fake.accepted("meta").keySet()).containsAll(subs);

    JsonObject future = redeliver(new JsonObject().put("since", "2099-01-01T00:00:00Z")
        .put("until", "2099-01-02T00:00:00Z"));
    assertThat(future.getInteger("requeued")).as("no event in that range").isZero();
    var listed = app.get("/api/v1/deliveries?status=failed,expired&event_name=REG", KEY_A).bodyAsJsonObject()
        .getJsonObject("data").getJsonArray("deliveries");
    // Oldest event first: by id, which is not the order the concurrent posts were made in.
    assertThat(listed.stream().map(d -> ((JsonObject) d).getString("event_id"))).containsExactlyElementsOf(
        regs.stream().sorted(Comparator.comparingLong(id -> Long.parseLong(id.substring(4)))).toList());

    var bad = app.get("/api/v1/deliveries?status=lost&limit=0&since=yesterday&colour=red", KEY_A);
    JsonObject error = assertError(bad, 400, "validation_failed");
    assertThat(error.getJsonArray("details").stream().map(d -> ((JsonObject) d).getString("field")))
        .containsExactlyInAnyOrder("status", "limit", "since", "colour");
    assertError(app.postJson("/api/v1/deliveries/redeliver", KEY_A,
        new JsonObject().put("status", new JsonArray().add("delivered"))), 400, "validation_failed");
    assertError(app.postJson("/api/v1/deliveries/redeliver", KEY_B, new JsonObject().put("workspace_id", WS_A)),
        403, "forbidden");
    assertThat(count("meta", "failed")).as("the refused calls changed nothing").isEqualTo(3);
  }
}
