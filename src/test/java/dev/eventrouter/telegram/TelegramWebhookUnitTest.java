package dev.eventrouter.telegram;

import dev.eventrouter.bus.Addresses;
import dev.eventrouter.bus.IngestReply;
import dev.eventrouter.bus.IngestRequest;
import dev.eventrouter.bus.TelegramUpdate;
import dev.eventrouter.common.Sha256;
import dev.eventrouter.config.ApiKeys;
import dev.eventrouter.config.HttpConfig;
import dev.eventrouter.config.PublishableKey;
import dev.eventrouter.config.RateLimitConfig;
import dev.eventrouter.config.TelegramConfig;
import dev.eventrouter.config.WorkspaceConfig;
import dev.eventrouter.event.InviteSession;
import dev.eventrouter.http.AccessControl;
import dev.eventrouter.http.JsonBody;
import dev.eventrouter.support.Await;
import dev.eventrouter.support.EdgeServer;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.eventbus.Message;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.ext.web.client.WebClient;
import io.vertx.junit5.VertxExtension;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;

import static dev.eventrouter.support.ApiAssertions.assertError;
import static org.assertj.core.api.Assertions.assertThat;

/** The Telegram webhook receiver at the HTTP edge, the store's side of the bus answered by the test. */
@ExtendWith(VertxExtension.class)
class TelegramWebhookUnitTest {

  private static final UUID WS = UUID.fromString("7c9e6679-7425-40de-944b-e07fc1f90ae7");
  private static final UUID WITH_START = UUID.fromString("8c9e6679-7425-40de-944b-e07fc1f90ae7");
  private static final UUID NO_TELEGRAM = UUID.fromString("9c9e6679-7425-40de-944b-e07fc1f90ae7");
  /** Invite links, approvals and a pass-through. */
  private static final UUID FULL = UUID.fromString("ac9e6679-7425-40de-944b-e07fc1f90ae7");
  private static final String POOLED_LINK = "https://t.me/+Pooled";
  private static final String SECRET = "tg-secret-0123456789abcdef";
  private static final long USER = 555000111;

  private WebClient client;
  private int port;
  private final List<Message<JsonObject>> asked = new CopyOnWriteArrayList<>();
  /** What was handed the store's Telegram side: it answers the session a link's name carries, as for no stored link. */
  private final List<TelegramUpdate> queued = new CopyOnWriteArrayList<>();
  private final List<JsonObject> linkAsks = new CopyOnWriteArrayList<>();
  private volatile boolean poolBroken;

  private static final String LANDING = "https://lp.example";

  private static byte[] hash(String key) {
    return HexFormat.of().parseHex(ApiKeys.configValue(key).substring(ApiKeys.PREFIX.length()));
  }

  private static WorkspaceConfig workspace(UUID id, TelegramConfig telegram) {
    return new WorkspaceConfig(id, "w", List.of(hash("key-" + id)),
        List.of(new PublishableKey(hash("pk-" + id), List.of(LANDING))), new RateLimitConfig(1000, 1000), "tg_bot", 28,
        List.of(), Map.of(), telegram);
  }

  @BeforeEach
  void start(Vertx vertx) {
    for (String address : List.of(Addresses.SESSIONS_INVITE, Addresses.EVENTS_INGEST, Addresses.SESSIONS_CAPTURE)) {
      Await.result(vertx.eventBus().<JsonObject>consumer(address, message -> {
        asked.add(message);
        message.reply(address.equals(Addresses.EVENTS_INGEST)
            ? new IngestReply("evt_42", "s", IngestReply.PROCESSED, false) : new JsonObject());
      }).completion());
    }
    Await.result(vertx.eventBus().<JsonObject>consumer(Addresses.TELEGRAM_UPDATE, message -> {
      TelegramUpdate update = TelegramUpdate.fromJson(message.body());
      queued.add(update);
      // The store knows one link of its pool; for any other the update's own session stands.
      message.reply(new JsonObject().put("session_id", POOLED_LINK.equals(update.inviteLink()) ? "pooled_s"
          : update.namedSession()));
    }).completion());
    Await.result(vertx.eventBus().<JsonObject>consumer(Addresses.SESSIONS_INVITE_LINK, message -> {
      linkAsks.add(message.body());
      if (poolBroken) {
        message.fail(503, "not done");
      } else {
        message.reply(new JsonObject().put("invite_link", "https://t.me/+L1"));
      }
    }).completion());
    HttpConfig http = new HttpConfig("127.0.0.1", 0, 4096, 1, 500);
    TelegramConfig full = new TelegramConfig("tg_bot", SECRET, "BotStart", "1:abcdefghijklmnopqrstuvwxyz", List.of("-100123"), 5, true,
        TelegramConfig.DEFAULT_API_BASE, new TelegramConfig.PassThrough("https://bot.example/hook", null, false), null);
    AccessControl access = new AccessControl(List.of(workspace(FULL, full),
        workspace(WS, TelegramConfig.receiverOnly("tg_bot", SECRET, null)),
        workspace(WITH_START, TelegramConfig.receiverOnly("tg_bot", SECRET, "BotStart")), workspace(NO_TELEGRAM, null)), http,
        System::nanoTime);
    port = EdgeServer.deploy(vertx, http, access);
    client = WebClient.create(vertx);
  }

  @AfterEach
  void stop() {
    client.close();
  }

  private HttpResponse<Buffer> send(UUID workspace, String secret, String body) {
    var request = client.post(port, "127.0.0.1", "/telegram/" + workspace + "/webhook")
        .putHeader("Content-Type", "application/json");
    if (secret != null) {
      request.putHeader(TelegramWebhook.SECRET_HEADER, secret);
    }
    return Await.result(request.sendBuffer(Buffer.buffer(body)));
  }

  private JsonObject handled(UUID workspace, JsonObject update) {
    HttpResponse<Buffer> response = send(workspace, SECRET, update.encode());
    assertThat(response.statusCode()).as(response.bodyAsString()).isEqualTo(200);
    return response.bodyAsJsonObject().getJsonObject("data");
  }

  private static JsonObject message(long updateId, String text) {
    return new JsonObject().put("update_id", updateId).put("message", new JsonObject().put("message_id", 1)
        .put("from", new JsonObject().put("id", USER).put("is_bot", false).put("first_name", "Ann"))
        .put("chat", new JsonObject().put("id", USER).put("type", "private")).put("date", 1795406060)
        .put("text", text));
  }

  private static JsonObject link(String name) {
    return new JsonObject().put("invite_link", "https://t.me/+AbCdEf123").put("name", name)
        .put("creates_join_request", true);
  }

  private static JsonObject joinRequest(long updateId, String linkName) {
    return new JsonObject().put("update_id", updateId).put("chat_join_request", new JsonObject()
        .put("chat", new JsonObject().put("id", -100123).put("type", "channel"))
        .put("from", new JsonObject().put("id", USER)).put("user_chat_id", USER).put("date", 1795406060)
        .put("invite_link", link(linkName)));
  }

  private static JsonObject memberUpdate(long updateId, String oldStatus, String newStatus, String linkName) {
    return new JsonObject().put("update_id", updateId).put("chat_member", new JsonObject()
        .put("chat", new JsonObject().put("id", -100123).put("type", "channel"))
        .put("from", new JsonObject().put("id", USER)).put("date", 1795406060)
        .put("old_chat_member", new JsonObject().put("status", oldStatus)
            .put("user", new JsonObject().put("id", USER)))
        .put("new_chat_member", new JsonObject().put("status", newStatus)
            .put("user", new JsonObject().put("id", USER)))
        .put("invite_link", link(linkName).put("creates_join_request", false)));
  }

  @Test
  @DisplayName("/start <session>: the user's invite session; with the workspace's start_event, that event too, "
      + "once per update")
  void start() {
    JsonObject plain = handled(WS, message(1, "/start Xq3v9Lk2RgWm0a1bC4dE5f"));
    assertThat(plain).isEqualTo(new JsonObject().put("handled", true).put("session_id", "Xq3v9Lk2RgWm0a1bC4dE5f")
        .put("telegram_id", USER).putNull("event_id"));
    assertThat(asked).hasSize(1);
    assertThat(InviteSession.fromJson(asked.get(0).body()))
        .isEqualTo(new InviteSession(WS, USER, "Xq3v9Lk2RgWm0a1bC4dE5f", null, InviteSession.START, "tg_bot", null));
    assertThat(queued).as("no link and no pass-through: the store's Telegram side is not asked").isEmpty();

    asked.clear();
    JsonObject withEvent = handled(WITH_START, message(2, "/start@tg_bot abc-123 "));
    assertThat(withEvent.getString("event_id")).isEqualTo("evt_42");
    assertThat(asked.get(0).address()).as("the session first, so the event finds it").isEqualTo(
        Addresses.SESSIONS_INVITE);
    IngestRequest ingest = sentRequest(asked.get(1));
    assertThat(ingest.event().eventName()).isEqualTo("BotStart");
    assertThat(ingest.event().telegramId()).isEqualTo(USER);
    assertThat(ingest.event().sessionId()).isEqualTo("abc-123");
    assertThat(ingest.event().workspaceId()).isEqualTo(WITH_START);
    assertThat(ingest.idempotencyKey()).isEqualTo("telegram-update-2");
    assertThat(ingest.requestHash()).isEqualTo(ingest.event().contentHash());
  }

  @Test
  @DisplayName("a join request, or a member joining, through a link named er:<session>: the invite session and a "
      + "JoinRequest event")
  void joins() {
    JsonObject request = handled(WS, joinRequest(10, "er:sess_1"));
    assertThat(request.getString("session_id")).isEqualTo("sess_1");
    assertThat(queued).as("the link, for the store to tell its session; nothing to pass through or approve here")
        .containsExactly(new TelegramUpdate(WS, "", 10, null, "https://t.me/+AbCdEf123", "sess_1", null));
    assertThat(InviteSession.fromJson(asked.get(0).body()))
        .isEqualTo(new InviteSession(WS, USER, "sess_1", "https://t.me/+AbCdEf123", InviteSession.JOIN_REQUEST,
            "tg_bot", null));
    IngestRequest ingest = sentRequest(asked.get(1));
    assertThat(ingest.event().eventName()).isEqualTo(UpdateReader.JOIN_EVENT);
    assertThat(ingest.idempotencyKey()).isEqualTo("telegram-update-10");

    asked.clear();
    JsonObject oddOld = memberUpdate(14, "left", "member", "er:sess_3");
    oddOld.getJsonObject("chat_member").put("old_chat_member", "none");
    assertThat(handled(WS, oddOld).getBoolean("handled")).as("no old membership to speak of: a join").isTrue();
    JsonObject noUrl = joinRequest(15, "er:sess_4");
    noUrl.getJsonObject("chat_join_request").getJsonObject("invite_link").remove("invite_link");
    assertThat(handled(WS, noUrl).getBoolean("handled")).isTrue();
    assertThat(InviteSession.fromJson(asked.get(asked.size() - 2).body()).inviteLink()).isNull();
    JsonObject oddUrl = joinRequest(16, "er:sess_5");
    oddUrl.getJsonObject("chat_join_request").getJsonObject("invite_link").put("invite_link", 5);
    assertThat(handled(WS, oddUrl).getString("session_id")).isEqualTo("sess_5");
    assertThat(InviteSession.fromJson(asked.get(asked.size() - 2).body()).inviteLink()).isNull();
    asked.clear();
    assertThat(handled(WS, memberUpdate(11, "left", "member", "er:sess_2")).getBoolean("handled")).isTrue();
    assertThat(sentRequest(asked.get(1)).event().sessionId()).isEqualTo("sess_2");
    asked.clear();
    assertThat(handled(WS, memberUpdate(12, "member", "member", "er:sess_2")).getBoolean("handled"))
        .as("already a member: no join").isFalse();
    assertThat(handled(WS, memberUpdate(13, "member", "left", "er:sess_2")).getBoolean("handled")).isFalse();
    assertThat(asked).isEmpty();
  }

  @Test
  @DisplayName("with a pass-through every update is queued whole; a join through a pooled link takes the store's "
      + "session and is queued for approval")
  void queuedForTheStore() {
    JsonObject hello = message(50, "hello");
    assertThat(handled(FULL, hello)).isEqualTo(new JsonObject().put("handled", false));
    assertThat(queued).containsExactly(new TelegramUpdate(FULL, "", 50, hello.encode(), null, null, null));
    assertThat(asked).as("nothing to attribute").isEmpty();

    queued.clear();
    JsonObject join = joinRequest(51, "event-router");
    join.getJsonObject("chat_join_request").getJsonObject("invite_link").put("invite_link", POOLED_LINK);
    JsonObject joined = handled(FULL, join);
    assertThat(joined.getString("session_id")).isEqualTo("pooled_s");
    assertThat(queued).containsExactly(new TelegramUpdate(FULL, "", 51, join.encode(), POOLED_LINK, null,
        new JsonObject().put("chat_id", -100123L).put("user_id", USER)));
    assertThat(InviteSession.fromJson(asked.get(0).body()))
        .isEqualTo(new InviteSession(FULL, USER, "pooled_s", POOLED_LINK, InviteSession.JOIN_REQUEST, "tg_bot",
            "-100123"));
    assertThat(sentRequest(asked.get(1)).event().eventName()).isEqualTo(UpdateReader.JOIN_EVENT);

    queued.clear();
    asked.clear();
    JsonObject start = message(52, "/start s_52");
    JsonObject started = handled(FULL, start);
    assertThat(started.getString("session_id")).isEqualTo("s_52");
    assertThat(queued).containsExactly(new TelegramUpdate(FULL, "", 52, start.encode(), null, "s_52", null));
    assertThat(sentRequest(asked.get(1)).event().eventName()).isEqualTo("BotStart");
  }

  @Test
  @DisplayName("an update whose text holds U+0000 or a lone surrogate is acknowledged and passed through as it came; "
      + "a field PostgreSQL cannot hold is not read: no session, no event")
  void unstorableText() {
    String nul = "{\"update_id\":5001,\"message\":{\"message_id\":1,\"from\":{\"id\":" + USER
        + ",\"is_bot\":false,\"first_name\":\"Ann\"},\"chat\":{\"id\":" + USER
        + ",\"type\":\"private\"},\"date\":1795406060,\"text\":\"hello\\u0000world\"}}";
    HttpResponse<Buffer> answered = send(FULL, SECRET, nul);
    assertThat(answered.statusCode()).as(answered.bodyAsString()).isEqualTo(200);
    assertThat(answered.bodyAsJsonObject().getJsonObject("data")).isEqualTo(new JsonObject().put("handled", false));
    assertThat(queued).containsExactly(new TelegramUpdate(FULL, "", 5001, nul, null, null, null));

    queued.clear();
    String surrogateStart = message(5002, "/start s_1").encode().replace("/start s_1", "/start s_1\\ud800");
    assertThat(send(FULL, SECRET, surrogateStart).statusCode()).isEqualTo(200);
    assertThat(queued).containsExactly(new TelegramUpdate(FULL, "", 5002, surrogateStart, null, null, null));

    queued.clear();
    JsonObject join = joinRequest(5003, "event-router");
    join.getJsonObject("chat_join_request").getJsonObject("invite_link").put("invite_link", "LINK");
    join.getJsonObject("chat_join_request").put("bio", "BIO");
    String escaped = join.encode().replace("LINK", "https://t.me/+a\\u0000b").replace("BIO", "lone \\ud83d here");
    assertThat(send(FULL, SECRET, escaped).statusCode()).isEqualTo(200);
    assertThat(queued).as("passed through and approved, its link not looked up")
        .containsExactly(new TelegramUpdate(FULL, "", 5003, escaped, null, null,
            new JsonObject().put("chat_id", -100123L).put("user_id", USER)));
    assertThat(asked).as("no session, no event").isEmpty();
    assertThat(JsonBody.storable("https://t.me/+a\u0000b")).isFalse();
  }

  private HttpResponse<Buffer> capture(UUID workspace) {
    return Await.result(client.post(port, "127.0.0.1", "/api/v1/sessions").putHeader("x-api-key", "key-" + workspace)
        .sendJsonObject(new JsonObject().put("workspace_id", workspace.toString()).put("fbclid", "IwAR-1")));
  }

  @Test
  @DisplayName("a visitor's capture (publishable key) asks the pool to keep its reserve; the bot's own asks for none")
  void visitorsLeaveTheReserve() {
    HttpResponse<Buffer> visitor = Await.result(client.post(port, "127.0.0.1", "/api/v1/sessions")
        .putHeader("x-api-key", "pk-" + FULL).putHeader("Origin", LANDING)
        .sendJsonObject(new JsonObject().put("workspace_id", FULL.toString())));
    assertThat(visitor.statusCode()).as(visitor.bodyAsString()).isEqualTo(200);
    assertThat(linkAsks).singleElement().satisfies(ask -> assertThat(ask.getInteger("reserve")).isEqualTo(1));
    linkAsks.clear();
    assertThat(capture(FULL).statusCode()).isEqualTo(200);
    assertThat(linkAsks).singleElement().satisfies(ask -> assertThat(ask.getInteger("reserve")).isZero());
  }

  @Test
  @DisplayName("a capture of a workspace with a channel answers the session's invite link from the pool; none when "
      + "the workspace makes none or the pool cannot answer, and the capture still succeeds")
  void captureInviteLink() {
    HttpResponse<Buffer> withLink = capture(FULL);
    assertThat(withLink.statusCode()).as(withLink.bodyAsString()).isEqualTo(200);
    JsonObject data = withLink.bodyAsJsonObject().getJsonObject("data");
    assertThat(data.getString("invite_link")).isEqualTo("https://t.me/+L1");
    assertThat(linkAsks).containsExactly(new JsonObject().put("workspace_id", FULL.toString())
        .put("chat_id", "-100123").put("session_id", data.getString("session_id")).put("reserve", 0));

    HttpResponse<Buffer> receiverOnly = capture(WS);
    assertThat(receiverOnly.statusCode()).isEqualTo(200);
    assertThat(receiverOnly.bodyAsJsonObject().getJsonObject("data").containsKey("invite_link")).isFalse();
    assertThat(linkAsks).hasSize(1);

    poolBroken = true;
    HttpResponse<Buffer> broken = capture(FULL);
    assertThat(broken.statusCode()).as(broken.bodyAsString()).isEqualTo(200);
    assertThat(broken.bodyAsJsonObject().getJsonObject("data").containsKey("invite_link")).isFalse();
    assertThat(broken.bodyAsJsonObject().getJsonObject("data").getString("start_link")).startsWith("https://t.me/");
    assertThat(linkAsks).hasSize(2);
  }

  @Test
  @DisplayName("a join to another chat of the bot than the workspace's channel is passed through, neither "
      + "attributed nor approved")
  void joinsOfOtherChats() {
    JsonObject join = joinRequest(60, "er:sess_60");
    join.getJsonObject("chat_join_request").getJsonObject("invite_link").put("invite_link", POOLED_LINK);
    join.getJsonObject("chat_join_request").getJsonObject("chat").put("id", -100999);
    assertThat(handled(FULL, join)).isEqualTo(new JsonObject().put("handled", false));
    assertThat(queued).as("passed through only: no link to look up, no session, no approval")
        .containsExactly(new TelegramUpdate(FULL, "", 60, join.encode(), null, null, null));
    JsonObject member = memberUpdate(61, "left", "member", "er:sess_61");
    member.getJsonObject("chat_member").getJsonObject("chat").put("id", -100999);
    assertThat(handled(FULL, member)).isEqualTo(new JsonObject().put("handled", false));
    assertThat(asked).as("no invite session, no JoinRequest event").isEmpty();

    queued.clear();
    JsonObject ours = joinRequest(62, "er:sess_62");
    assertThat(handled(FULL, ours).getString("session_id")).isEqualTo("sess_62");
    assertThat(queued.get(0).approve()).isEqualTo(new JsonObject().put("chat_id", -100123L).put("user_id", USER));
    assertThat(asked).hasSize(2);
  }

  @Test
  @DisplayName("a leaver: a member (or restricted member) of the channel who left or was removed; nobody without a "
      + "channel, for a join, or for any other update; the full receiver asks the store once for a leaver")
  void leaver() {
    JsonObject left = new JsonObject().put("update_id", 80).put("chat_member", new JsonObject()
        .put("chat", new JsonObject().put("id", -100123L).put("type", "channel"))
        .put("old_chat_member", new JsonObject().put("status", "member").put("user", new JsonObject().put("id", USER)))
        .put("new_chat_member", new JsonObject().put("status", "left").put("user", new JsonObject().put("id", USER))));
    JsonObject change = left.getJsonObject("chat_member");
    assertThat(UpdateReader.leaver(left, List.of("-100123"))).isEqualTo(USER);
    assertThat(UpdateReader.leaver(left, List.of())).isNull();
    change.getJsonObject("new_chat_member").put("status", "kicked");
    assertThat(UpdateReader.leaver(left, List.of("-100123"))).isEqualTo(USER);
    change.getJsonObject("old_chat_member").put("status", "restricted");
    assertThat(UpdateReader.leaver(left, List.of("-100123"))).isEqualTo(USER);
    change.getJsonObject("old_chat_member").put("status", "left");
    assertThat(UpdateReader.leaver(left, List.of("-100123"))).as("was no member").isNull();
    change.getJsonObject("old_chat_member").put("status", "member");
    change.getJsonObject("new_chat_member").put("status", "administrator");
    assertThat(UpdateReader.leaver(left, List.of("-100123"))).as("still in").isNull();
    change.getJsonObject("new_chat_member").put("status", "left").put("user", new JsonObject().put("id", 0));
    assertThat(UpdateReader.leaver(left, List.of("-100123"))).as("no user id").isNull();
    change.remove("old_chat_member");
    assertThat(UpdateReader.leaver(left, List.of("-100123"))).isNull();
    change.put("old_chat_member", new JsonObject().put("status", "member")).remove("new_chat_member");
    assertThat(UpdateReader.leaver(left, List.of("-100123"))).isNull();
    assertThat(UpdateReader.leaver(joinRequest(81, "er:s"), List.of("-100123"))).isNull();
  }

  @Test
  @DisplayName("the receiver tells the store of a leaver of its channel, and of nobody else")
  void leaverToldToStore(Vertx vertx) {
    List<JsonObject> told = new CopyOnWriteArrayList<>();
    Await.result(vertx.eventBus().<JsonObject>consumer(Addresses.TELEGRAM_LEFT, message -> {
      told.add(message.body());
      message.reply(new JsonObject().put("event_id", "evt_1"));
    }).completion());
    JsonObject left = new JsonObject().put("update_id", 82).put("chat_member", new JsonObject()
        .put("chat", new JsonObject().put("id", -100123L).put("type", "channel"))
        .put("old_chat_member", new JsonObject().put("status", "member").put("user", new JsonObject().put("id", USER)))
        .put("new_chat_member", new JsonObject().put("status", "left").put("user", new JsonObject().put("id", USER))));
    assertThat(send(FULL, SECRET, left.encode()).statusCode()).isEqualTo(200);
    assertThat(told).containsExactly(new JsonObject().put("workspace_id", FULL.toString()).put("telegram_id", USER));
    left.getJsonObject("chat_member").getJsonObject("chat").put("id", -100999L);
    assertThat(send(FULL, SECRET, left.put("update_id", 83).encode()).statusCode()).isEqualTo(200);
    assertThat(told).as("another chat").hasSize(1);
  }

  @Test
  @DisplayName("a join is the channel's by its chat's id, or its username for an @username; other updates, and "
      + "any join without a channel, are the workspace's")
  void ofChannel() {
    JsonObject join = joinRequest(70, "er:s");
    JsonObject chat = join.getJsonObject("chat_join_request").getJsonObject("chat");
    assertThat(UpdateReader.ofChannel(join, List.of("-100123"))).isTrue();
    assertThat(UpdateReader.ofChannel(join, List.of("-100124"))).isFalse();
    assertThat(UpdateReader.ofChannel(join, List.of())).isTrue();
    assertThat(UpdateReader.ofChannel(join, List.of("@mychannel"))).as("no username").isFalse();
    chat.put("username", "MyChannel");
    assertThat(UpdateReader.ofChannel(join, List.of("@mychannel"))).isTrue();
    assertThat(UpdateReader.ofChannel(join, List.of("@otherchannel"))).isFalse();
    chat.put("username", 5);
    assertThat(UpdateReader.ofChannel(join, List.of("@mychannel"))).isFalse();
    chat.put("id", "-100123");
    assertThat(UpdateReader.ofChannel(join, List.of("-100123"))).as("an id that is no number").isFalse();
    chat.put("id", -100123.5);
    assertThat(UpdateReader.ofChannel(join, List.of("-100123"))).isFalse();
    join.getJsonObject("chat_join_request").put("chat", "-100123");
    assertThat(UpdateReader.ofChannel(join, List.of("-100123"))).isFalse();
    join.getJsonObject("chat_join_request").remove("chat");
    assertThat(UpdateReader.ofChannel(join, List.of("-100123"))).isFalse();

    JsonObject member = memberUpdate(71, "left", "member", "er:s");
    assertThat(UpdateReader.ofChannel(member, List.of("-100123"))).isTrue();
    assertThat(UpdateReader.ofChannel(member, List.of("-100999"))).isFalse();
    member.put("chat_join_request", "odd");
    assertThat(UpdateReader.ofChannel(member, List.of("-100999"))).as("a join request that is no object: the member's")
        .isFalse();
    assertThat(UpdateReader.ofChannel(member, List.of("-100123"))).isTrue();
    member.getJsonObject("chat_member").put("chat", new JsonObject().put("id", -100999));
    member.put("chat_join_request", new JsonObject().put("chat", new JsonObject().put("id", -100123)));
    assertThat(UpdateReader.ofChannel(member, List.of("-100123"))).as("the join request's chat first").isTrue();
    assertThat(UpdateReader.ofChannel(new JsonObject().put("chat_member", "odd"), List.of("-100123"))).isFalse();
    assertThat(UpdateReader.ofChannel(message(72, "/start s"), List.of("-100123"))).isTrue();
  }

  @Test
  @DisplayName("a join request's chat and user are what approveChatJoinRequest takes; no other update has them")
  void approval() {
    assertThat(UpdateReader.approval(joinRequest(40, "er:s")))
        .isEqualTo(new JsonObject().put("chat_id", -100123L).put("user_id", USER));
    assertThat(UpdateReader.approval(message(41, "/start s"))).isNull();
    JsonObject noUser = joinRequest(42, "er:s");
    noUser.getJsonObject("chat_join_request").remove("from");
    assertThat(UpdateReader.approval(noUser)).isNull();
    JsonObject noChat = joinRequest(43, "er:s");
    noChat.getJsonObject("chat_join_request").put("chat", new JsonObject().put("id", "x"));
    assertThat(UpdateReader.approval(noChat)).isNull();
    noChat.getJsonObject("chat_join_request").put("chat", "x");
    assertThat(UpdateReader.approval(noChat)).isNull();
  }

  @Test
  @DisplayName("updates that say nothing of attribution are acknowledged and ignored")
  void ignored() {
    for (JsonObject update : List.of(message(20, "hello"), message(21, "/start"), message(22, "/start bad payload!"),
        message(23, "/start " + "x".repeat(65)), message(24, "/startabc"),
        joinRequest(25, "promo link"), joinRequest(26, "er:"), joinRequest(27, "er:" + "x".repeat(30)),
        new JsonObject().put("update_id", 28).put("edited_message", new JsonObject().put("text", "/start s1")),
        new JsonObject().put("update_id", 29).put("callback_query", new JsonObject()),
        new JsonObject().put("update_id", 30).put("message", new JsonObject().put("text", "/start s1")),
        new JsonObject().put("update_id", 31).put("message", new JsonObject().put("text", "/start s1")
            .put("from", new JsonObject().put("id", 0))),
        new JsonObject().put("update_id", 32).put("chat_join_request", new JsonObject()
            .put("from", new JsonObject().put("id", USER))),
        // Fields of the wrong kind are no attribution either (and no error: Telegram would send them again).
        new JsonObject().put("update_id", 0).put("message", "text"),
        new JsonObject().put("update_id", 33).put("message", new JsonObject().put("text", 5)),
        message(34, "/start s1").put("message", message(34, "/start s1").getJsonObject("message")
            .put("from", "ann")),
        message(35, "/start s1").put("message", message(35, "/start s1").getJsonObject("message")
            .put("from", new JsonObject().put("id", "555"))),
        message(36, "/start s1").put("message", message(36, "/start s1").getJsonObject("message")
            .put("from", new JsonObject().put("id", 1.5))),
        new JsonObject().put("update_id", 37).put("chat_join_request", "join"),
        joinRequest(38, "er:s1").put("chat_join_request", joinRequest(38, "er:s1").getJsonObject("chat_join_request")
            .put("invite_link", "https://t.me/+x")),
        joinRequest(39, "er:s1").put("chat_join_request", joinRequest(39, "er:s1").getJsonObject("chat_join_request")
            .put("invite_link", new JsonObject().put("name", 7))),
        new JsonObject().put("update_id", 40).put("chat_member", "joined"),
        memberUpdate(41, "left", "member", "er:s1").put("chat_member", memberUpdate(41, "left", "member", "er:s1")
            .getJsonObject("chat_member").put("new_chat_member", "member")),
        memberUpdate(44, "left", "kicked", "er:s1"),
        joinRequest(45, "er:s1").put("chat_join_request", joinRequest(45, "er:s1").getJsonObject("chat_join_request")
            .put("invite_link", new JsonObject().put("name", "promo"))),
        joinRequest(46, "er:s1").put("chat_join_request", joinRequest(46, "er:s1").getJsonObject("chat_join_request")
            .putNull("from")))) {
      assertThat(handled(WS, update)).as(update.encode()).isEqualTo(new JsonObject().put("handled", false));
    }
    assertThat(asked).isEmpty();
  }

  @Test
  @DisplayName("a join through a link that needs approval: the join request was the conversion, so the join is the "
      + "funnel's join step alone, no event")
  void approvedJoin() {
    JsonObject join = memberUpdate(47, "left", "member", "er:s1");
    join.getJsonObject("chat_member").put("invite_link", link("er:s1"));
    assertThat(handled(WS, join)).isEqualTo(new JsonObject().put("handled", true).put("session_id", "s1")
        .put("telegram_id", USER).putNull("event_id"));
    assertThat(asked).hasSize(1);
    assertThat(InviteSession.fromJson(asked.get(0).body()).via()).isEqualTo(InviteSession.JOIN);
  }

  @Test
  @DisplayName("refused: another workspace's or a missing secret (401), a workspace without Telegram or none (404), "
      + "a body that is no update (400)")
  void refused() {
    String update = message(40, "/start s1").encode();
    assertError(send(WS, "wrong-secret-0123456789", update), 401, "unauthorized");
    assertError(send(WS, null, update), 401, "unauthorized");
    assertError(send(WS, SECRET.substring(1), update), 401, "unauthorized");
    assertError(send(NO_TELEGRAM, SECRET, update), 404, "not_found");
    assertError(send(UUID.randomUUID(), SECRET, update), 404, "not_found");
    assertError(Await.result(client.post(port, "127.0.0.1", "/telegram/not-a-uuid/webhook")
        .putHeader("Content-Type", "application/json").putHeader(TelegramWebhook.SECRET_HEADER, SECRET)
        .sendBuffer(Buffer.buffer(update))), 404, "not_found");
    assertError(send(WS, SECRET, "[1]"), 400, "invalid_json");
    String big = message(48, "x".repeat(20_000)).encode();
    assertThat(send(WS, SECRET, big).statusCode()).as("an update over http.max_body_bytes (4096 here)").isEqualTo(200);
    assertError(send(WS, SECRET, message(49, "x".repeat(TelegramWebhook.MAX_UPDATE_BYTES)).encode()), 413,
        "payload_too_large");
    for (String bad : List.of("{}", "{\"update_id\": \"1\"}", "{\"update_id\": -1}", "{\"update_id\": 1.5}")) {
      assertThat(assertError(send(WS, SECRET, bad), 400, "validation_failed").getJsonArray("details")
          .getJsonObject(0).getString("field")).as(bad).isEqualTo("update_id");
    }
    assertThat(asked).isEmpty();
    assertThat(Sha256.sameSecret(SECRET, SECRET)).isTrue();
    assertThat(Sha256.sameSecret(SECRET, SECRET + "x")).isFalse();
    assertThat(Sha256.sameSecret(SECRET, null)).isFalse();
  }

  /** The ingest request a test store was sent: the record itself, as the local codec carries it. */
  private static IngestRequest sentRequest(Message<?> message) {
    return (IngestRequest) message.body();
  }
}
