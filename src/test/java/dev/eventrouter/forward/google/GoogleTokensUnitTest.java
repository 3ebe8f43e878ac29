package dev.eventrouter.forward.google;

import dev.eventrouter.common.CheckedRequests;
import dev.eventrouter.common.ProxyRoutes;
import dev.eventrouter.config.DataProcessing;
import dev.eventrouter.config.GoogleAdsConfig;
import dev.eventrouter.config.IntegrationConfig;
import dev.eventrouter.config.Network;
import dev.eventrouter.forward.Outbound;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.WebClient;
import io.vertx.junit5.VertxExtension;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.assertj.core.api.Assertions.assertThat;

/** Access tokens from a real HTTP token endpoint: one refresh in flight, kept until near expiry, refused in words. */
@ExtendWith(VertxExtension.class)
class GoogleTokensUnitTest {

  private final List<HttpServerRequest> held = new CopyOnWriteArrayList<>();
  private final List<String> forms = new CopyOnWriteArrayList<>();
  private HttpServer server;
  private Outbound out;
  private WebClient client;

  @BeforeEach
  void start(Vertx vertx) {
    server = vertx.createHttpServer().requestHandler(request -> {
      request.setExpectMultipart(true);
      request.endHandler(v -> {
        forms.add(request.formAttributes().get("refresh_token") + " " + request.formAttributes().get("grant_type")
            + " " + request.formAttributes().get("client_secret"));
        held.add(request);
      });
    }).listen(0, "127.0.0.1").await();
    client = WebClient.create(vertx);
    out = new Outbound(new CheckedRequests(vertx, client, new ProxyRoutes(vertx, 2_000)));
  }

  @AfterEach
  void stop() {
    server.close().await();
    client.close();
  }

  private IntegrationConfig integration(String refreshToken) {
    GoogleAdsConfig google = new GoogleAdsConfig("1234567890", null, "dev", "client", "secret",
        "http://127.0.0.1:" + server.actualPort() + "/token", Map.of("FTD", "1"));
    return new IntegrationConfig("g", Network.GOOGLE_ADS, "1234567890", refreshToken, "http://127.0.0.1", "v22",
        null, null, null, true, false, null, DataProcessing.NONE, null, true, Set.of("approved"), null, google);
  }

  private void answer(int status, JsonObject body) {
    long deadline = System.nanoTime() + 5_000_000_000L;
    while (held.isEmpty() && System.nanoTime() < deadline) {
      Thread.onSpinWait();
    }
    HttpServerRequest request = held.remove(0);
    request.response().setStatusCode(status).putHeader("Content-Type", "application/json").end(body.encode());
  }

  @Test
  @DisplayName("three asking at once share one refresh; the token is kept, then refreshed once invalidated")
  void oneRefreshInFlight() {
    GoogleTokens tokens = new GoogleTokens();
    IntegrationConfig integration = integration("refresh-1");
    List<Future<GoogleTokens.Token>> asked = List.of(tokens.token(out, integration, 5_000),
        tokens.token(out, integration, 5_000), tokens.token(out, integration, 5_000));
    answer(200, new JsonObject().put("access_token", "ya29.one").put("expires_in", 3599));
    for (Future<GoogleTokens.Token> token : asked) {
      assertThat(token.await().value()).isEqualTo("ya29.one");
    }
    assertThat(forms).containsExactly("refresh-1 refresh_token secret");
    assertThat(tokens.token(out, integration, 5_000).await().value()).as("kept").isEqualTo("ya29.one");
    assertThat(forms).hasSize(1);

    tokens.invalidate(integration);
    Future<GoogleTokens.Token> again = tokens.token(out, integration, 5_000);
    answer(200, new JsonObject().put("access_token", "ya29.two"));
    assertThat(again.await().value()).isEqualTo("ya29.two");
    assertThat(forms).hasSize(2);
  }

  @Test
  @DisplayName("a token about to expire is refreshed; a refused refresh is answered as Google's response, not kept")
  void expiryAndRefusal() {
    GoogleTokens tokens = new GoogleTokens();
    IntegrationConfig integration = integration("refresh-2");
    Future<GoogleTokens.Token> first = tokens.token(out, integration, 5_000);
    answer(200, new JsonObject().put("access_token", "ya29.short").put("expires_in", 1));
    assertThat(first.await().value()).isEqualTo("ya29.short");
    Future<GoogleTokens.Token> second = tokens.token(out, integration, 5_000);
    answer(400, new JsonObject().put("error", "invalid_grant").put("error_description", "revoked"));
    GoogleTokens.Token refused = second.await();
    assertThat(refused.value()).isNull();
    assertThat(refused.refusal().statusCode()).isEqualTo(400);
    assertThat(refused.refusal().bodyAsJsonObject().getString("error")).isEqualTo("invalid_grant");
    Future<GoogleTokens.Token> third = tokens.token(out, integration, 5_000);
    answer(200, new JsonObject().put("access_token", "").put("expires_in", 3599));
    assertThat(third.await().refusal()).as("an empty token is no token").isNotNull();
    assertThat(forms).hasSize(3);

    IntegrationConfig other = integration("refresh-3");
    Future<GoogleTokens.Token> another = tokens.token(out, other, 5_000);
    answer(200, new JsonObject().put("access_token", "ya29.other").put("expires_in", "soon"));
    assertThat(another.await().value()).as("another refresh token, another credential").isEqualTo("ya29.other");
    assertThat(tokens.token(out, other, 5_000).await().value()).as("an hour when the lifetime is unreadable")
        .isEqualTo("ya29.other");
  }

  @Test
  @DisplayName("an answer without a usable token is a refusal: another status, a number for a token, no JSON")
  void unusableAnswers() {
    GoogleTokens tokens = new GoogleTokens();
    IntegrationConfig integration = integration("refresh-4");
    Future<GoogleTokens.Token> created = tokens.token(out, integration, 5_000);
    answer(201, new JsonObject().put("access_token", "ya29.created"));
    assertThat(created.await().refusal().statusCode()).isEqualTo(201);
    Future<GoogleTokens.Token> number = tokens.token(out, integration, 5_000);
    answer(200, new JsonObject().put("access_token", 7));
    assertThat(number.await().refusal()).isNotNull();
    Future<GoogleTokens.Token> text = tokens.token(out, integration, 5_000);
    long deadline = System.nanoTime() + 5_000_000_000L;
    while (held.isEmpty() && System.nanoTime() < deadline) {
      Thread.onSpinWait();
    }
    held.remove(0).response().setStatusCode(200).end("not json");
    assertThat(text.await().refusal()).isNotNull();
    assertThat(forms).hasSize(3);
  }
}
