package dev.eventrouter.telegram;

import dev.eventrouter.common.CheckedRequests;
import dev.eventrouter.common.ProxyConfig;
import dev.eventrouter.common.ProxyRoutes;
import dev.eventrouter.config.TelegramConfig;
import dev.eventrouter.support.Await;
import dev.eventrouter.support.FakeTelegram;
import dev.eventrouter.support.HttpProxy;
import dev.eventrouter.support.LoopbackName;
import dev.eventrouter.support.Socks5Proxy;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.WebClient;
import io.vertx.junit5.VertxExtension;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.net.InetAddress;
import java.time.Instant;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

/** The Bot API client against the fake Bot API and against servers that answer what Telegram never would. */
@ExtendWith(VertxExtension.class)
class BotApiTest {

  private static final Instant EXPIRES = Instant.parse("2026-12-21T00:00:00Z");

  private FakeTelegram telegram;
  private BotApi api;
  private Vertx vertx;

  @BeforeEach
  void start(Vertx vertx) {
    this.vertx = vertx;
    telegram = FakeTelegram.start(vertx);
    api = new BotApi(new CheckedRequests(vertx, WebClient.create(vertx), new ProxyRoutes(vertx, 2_000)), 2_000);
  }

  private TelegramConfig bot(String apiBase, String token, String channel) {
    return new TelegramConfig(null, "tg-secret-0123456789abcdef", null, token, List.of(channel), 1, true, apiBase,
        null, null);
  }

  private BotApi.Failure failure(io.vertx.core.Future<?> call) {
    Throwable failure = Await.failure(call);
    assertThat(failure).isInstanceOf(BotApi.Failure.class);
    return (BotApi.Failure) failure;
  }

  @Test
  @DisplayName("createChatInviteLink: a join-request link of the channel, by numeric id or @username")
  void createsLinks() {
    TelegramConfig numeric = bot(telegram.baseUrl(), FakeTelegram.TOKEN, "-1001234567890");
    assertThat(Await.result(api.createInviteLink(numeric, numeric.channelId(), "n", EXPIRES)))
        .startsWith("https://t.me/+FakeLink");
    assertThat(Await.result(api.createInviteLink(bot(telegram.baseUrl(), FakeTelegram.TOKEN, "@signals"), "@signals",
        "n", EXPIRES)))
        .startsWith("https://t.me/+FakeLink");
    assertThat(telegram.calls("createChatInviteLink")).extracting(call -> call.body().getValue("chat_id"))
        .containsExactly(-1001234567890L, "@signals");
    assertThat(telegram.calls("createChatInviteLink").get(0).body()).isEqualTo(new JsonObject()
        .put("chat_id", -1001234567890L).put("name", "n").put("expire_date", EXPIRES.getEpochSecond())
        .put("creates_join_request", true));
    Await.result(api.approveJoinRequest(numeric, -1001234567890L, 42));
    assertThat(telegram.calls("approveChatJoinRequest").get(0).body().getLong("user_id")).isEqualTo(42);
  }

  @Test
  @DisplayName("a bot with a proxy calls the Bot API through it; a dead proxy is a transient failure that names it")
  void throughProxy() {
    Socks5Proxy proxy = Socks5Proxy.start(vertx, "bot", "s3cret");
    try {
      TelegramConfig direct = bot(telegram.baseUrl(), FakeTelegram.TOKEN, "-1001234567890");
      TelegramConfig proxied = new TelegramConfig(null, direct.webhookSecret(), null, direct.botToken(),
          direct.channels(), 1, true, direct.apiBase(), null,
          new ProxyConfig(ProxyConfig.SOCKS5, "127.0.0.1", proxy.port(), null, "bot", "s3cret"));
      Await.result(api.approveJoinRequest(proxied, -1001234567890L, 42));
      assertThat(telegram.calls("approveChatJoinRequest")).hasSize(1);
      assertThat(proxy.seen()).containsExactly(new Socks5Proxy.Seen("bot",
          telegram.baseUrl().substring("http://".length())));

      TelegramConfig dead = new TelegramConfig(null, direct.webhookSecret(), null, direct.botToken(),
          direct.channels(), 1, true, direct.apiBase(), null,
          new ProxyConfig(ProxyConfig.SOCKS5, "127.0.0.1", 1, null, "bot", "s3cret"));
      BotApi.Failure failed = failure(api.approveJoinRequest(dead, -1001234567890L, 42));
      assertThat(failed.transientFailure()).isTrue();
      assertThat(failed.getMessage()).startsWith("approveChatJoinRequest: no answer (")
          .endsWith(" through proxy socks5://127.0.0.1:1").doesNotContain("s3cret");
    } finally {
      proxy.stop();
    }
  }

  @Test
  @DisplayName("an api_base whose name resolves to loopback (the host's own, from /etc/hosts) is never called: a final "
      + "failure, while 127.0.0.1 as written is a local Bot API server, called as it is")
  void privateName() {
    String name = LoopbackName.get();
    TelegramConfig named = bot(telegram.baseUrl().replace("127.0.0.1", name), FakeTelegram.TOKEN, "-1");
    BotApi.Failure refused = failure(api.approveJoinRequest(named, -1L, 42));
    assertThat(refused.transientFailure()).isFalse();
    assertThat(refused.code()).isZero();
    assertThat(refused.getMessage()).isEqualTo("approveChatJoinRequest: the host of the bot's api_base resolves to a "
        + "loopback, link-local or private address; the Bot API is called at a public address, or at localhost, "
        + "127.0.0.1 or [::1] as written");
    assertThat(telegram.calls("approveChatJoinRequest")).isEmpty();

    Await.result(api.approveJoinRequest(bot(telegram.baseUrl(), FakeTelegram.TOKEN, "-1"), -1L, 42));
    assertThat(telegram.calls("approveChatJoinRequest")).hasSize(1);
  }

  @Test
  @DisplayName("through an http proxy, the Bot API is a CONNECT tunnel to the address its name was checked at, never "
      + "to the name")
  void proxyAskedForTheCheckedAddress() {
    HttpProxy proxy = HttpProxy.start(vertx, false, null, null);
    try {
      BotApi checked = new BotApi(new CheckedRequests(vertx, WebClient.create(vertx),
          host -> new InetAddress[] {InetAddress.getByAddress(host, new byte[] {8, 8, 8, 8})},
          new ProxyRoutes(vertx, 2_000)), 2_000);
      TelegramConfig bot = new TelegramConfig(null, "tg-secret-0123456789abcdef", null, FakeTelegram.TOKEN,
          List.of("-1"), 1, true, "https://api.telegram.example", null,
          new ProxyConfig(ProxyConfig.HTTP, "127.0.0.1", proxy.port(), null, null, null));
      BotApi.Failure failed = failure(checked.approveJoinRequest(bot, -1L, 42));
      assertThat(failed.transientFailure()).as("the test proxy goes to loopback only: no answer").isTrue();
      assertThat(proxy.seen()).extracting(HttpProxy.Seen::method, HttpProxy.Seen::target)
          .containsExactly(tuple("CONNECT", "8.8.8.8:443"));
    } finally {
      proxy.stop();
    }
  }

  @Test
  @DisplayName("Telegram's refusals keep its code, words and retry_after; which are worth another try")
  void refusals() {
    telegram.failNext("createChatInviteLink", 429, "Too Many Requests: retry after 7", 7);
    TelegramConfig bot = bot(telegram.baseUrl(), FakeTelegram.TOKEN, "-1");
    BotApi.Failure limited = failure(api.createInviteLink(bot, bot.channelId(), "n", EXPIRES));
    assertThat(limited.code()).isEqualTo(429);
    assertThat(limited.retryAfterSeconds()).isEqualTo(7);
    assertThat(limited.transientFailure()).isTrue();
    assertThat(limited.getMessage()).isEqualTo("createChatInviteLink: 429 Too Many Requests: retry after 7");

    telegram.failNext("approveChatJoinRequest", 400, "Bad Request: HIDE_REQUESTER_MISSING", null);
    BotApi.Failure bad = failure(api.approveJoinRequest(bot, -1L, 5));
    assertThat(bad.code()).isEqualTo(400);
    assertThat(bad.retryAfterSeconds()).isZero();
    assertThat(bad.transientFailure()).isFalse();

    BotApi.Failure wrongToken = failure(api.createInviteLink(bot(telegram.baseUrl(), "1:wrongwrongwrongwrongwrong",
        "-1"), "-1", "n", EXPIRES));
    assertThat(wrongToken.code()).isEqualTo(401);
    assertThat(wrongToken.transientFailure()).isFalse();
  }

  @Test
  @DisplayName("what Telegram never answers: a proxy's HTML, ok without a link, no answer at all; none quotes the URL")
  void oddAnswers() {
    HttpServer proxy = vertx.createHttpServer().requestHandler(request -> {
      if (request.path().endsWith("/createChatInviteLink") && request.path().contains("/ok/")) {
        request.response().putHeader("Content-Type", "application/json").end("{\"ok\":true,\"result\":{}}");
      } else {
        request.response().setStatusCode(502).end("<html>Bad Gateway</html>");
      }
    }).listen(0, "127.0.0.1").await();
    String base = "http://127.0.0.1:" + proxy.actualPort();
    BotApi.Failure gateway = failure(api.createInviteLink(bot(base, FakeTelegram.TOKEN, "-1"), "-1", "n", EXPIRES));
    assertThat(gateway.code()).isEqualTo(502);
    assertThat(gateway.getMessage()).isEqualTo("createChatInviteLink: 502 HTTP 502");
    assertThat(gateway.transientFailure()).isTrue();

    BotApi.Failure noLink = failure(api.createInviteLink(bot(base + "/ok", FakeTelegram.TOKEN, "-1"), "-1", "n",
        EXPIRES));
    assertThat(noLink.code()).isZero();
    assertThat(noLink.getMessage()).isEqualTo("createChatInviteLink answered no invite_link");

    Await.result(proxy.close());
    BotApi.Failure gone = failure(api.setWebhook(bot(base, FakeTelegram.TOKEN, "-1"), "https://x.example/h",
        List.of("message")));
    assertThat(gone.code()).isZero();
    assertThat(gone.transientFailure()).isTrue();
    assertThat(gone.getMessage()).startsWith("setWebhook: no answer (").doesNotContain(FakeTelegram.TOKEN)
        .doesNotContain("127.0.0.1");
  }
}
