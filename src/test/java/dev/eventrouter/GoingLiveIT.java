package dev.eventrouter;

import dev.eventrouter.support.Await;
import dev.eventrouter.support.FakeAdNetworks;
import dev.eventrouter.support.ServiceProcess;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.ext.web.client.WebClient;
import io.vertx.junit5.VertxExtension;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * docs/going-live.md with the packaged jar, as far as one machine allows: {@code init} makes the config, the buyer
 * fills in the Meta dataset id and token and turns it on, the service starts from its own working directory with the
 * token from the environment file (as the systemd unit runs it), and the bot's first deposit, sent with the printed
 * key, reaches a fake Meta; the printed publishable key and postback token work too.
 */
@ExtendWith(VertxExtension.class)
class GoingLiveIT {

  private static final Duration START = Duration.ofSeconds(90);

  @TempDir
  Path dir;
  private final List<ServiceProcess> processes = new ArrayList<>();
  private FakeAdNetworks fake;

  @AfterEach
  void tearDown() {
    ServiceProcess.stopAll(processes);
    if (fake != null) {
      fake.stop();
    }
  }

  @Test
  @DisplayName("init, Meta filled in and enabled, the service started as the systemd unit runs it: the event sent "
      + "with the printed API key is delivered to Meta; the printed publishable key and postback token work")
  void initThenFirstDeposit(Vertx vertx) throws IOException {
    Path etc = Files.createDirectories(dir.resolve("etc"));
    Path state = Files.createDirectories(dir.resolve("state"));
    Path config = etc.resolve("config.json");
    Path initLog = dir.resolve("init.log");
    ServiceProcess init = ServiceProcess.jar(List.of("init", "--config", config.toString(), "--name", "Acme",
        "--bot", "acme_bot", "--origin", "https://lp.acme.example"), initLog, 0);
    processes.add(init);
    assertThat(init.awaitExit(Duration.ofSeconds(60))).as(init.logTail()).isZero();
    String printed = Files.readString(initLog);
    String apiKey = InitCommandTest.secret(printed, "API key:");
    String publishable = InitCommandTest.secret(printed, "Publishable key:");
    String postbackToken = InitCommandTest.secret(printed, "Postback token:");

    // What the guide has the buyer do: the dataset id and "enabled": true in the config, the token in the env file.
    // Only for this machine: the fake's address, a free port, the management listener on any port.
    fake = FakeAdNetworks.start(vertx);
    int port = ServiceProcess.freePort();
    JsonObject live = new JsonObject(Files.readString(config));
    live.getJsonObject("http").put("port", port);
    live.put("management", new JsonObject().put("port", 0));
    JsonObject workspace = live.getJsonArray("workspaces").getJsonObject(0);
    JsonObject meta = integration(workspace, "meta");
    meta.put("pixel_id", "1234567890").put("enabled", true)
        .put("api_base", fake.baseUrl()).put("allow_private_network", true);
    Files.writeString(config, live.encodePrettily());
    Path envFile = etc.resolve(InitCommand.ENV_FILE);
    Files.writeString(envFile, Files.readString(envFile).replace("META_ACCESS_TOKEN=",
        "META_ACCESS_TOKEN=" + FakeAdNetworks.META_TOKEN));

    ServiceProcess service = ServiceProcess.jar(List.of("--config", config.toString()), dir.resolve("service.log"),
        port, environmentFile(envFile), state);
    processes.add(service);
    service.awaitUp(START);
    assertThat(state.resolve("data/postgres")).as("the data in its working directory").isDirectory();

    WebClient client = WebClient.create(vertx);
    String workspaceId = workspace.getString("id");
    HttpResponse<Buffer> stored = client.post(port, "127.0.0.1", "/api/v1/events/custom")
        .putHeader("x-api-key", apiKey).putHeader("Idempotency-Key", "ftd-first")
        .sendJsonObject(new JsonObject().put("event_name", "FTD").put("telegram_id", 123456789L)
            .put("workspace_id", workspaceId).put("value", 50).put("currency", "USD")).await();
    assertThat(stored.statusCode()).as(stored.bodyAsString()).isEqualTo(200);
    String eventId = stored.bodyAsJsonObject().getJsonObject("data").getString("event_id");
    Await.until("the deposit delivered to Meta", Duration.ofSeconds(60),
        () -> fake.accepted("meta").containsKey(eventId));
    assertThat(fake.lastEvent("meta", eventId).getString("event_name")).isEqualTo("Purchase");
    assertThat(fake.received("tiktok")).as("TikTok is still disabled").isEmpty();

    HttpResponse<Buffer> session = client.post(port, "127.0.0.1", "/api/v1/sessions")
        .putHeader("x-api-key", publishable).putHeader("Origin", "https://lp.acme.example")
        .sendJsonObject(new JsonObject().put("workspace_id", workspaceId).put("fbclid", "IwAR-live")).await();
    assertThat(session.statusCode()).as(session.bodyAsString()).isEqualTo(200);
    String sessionId = session.bodyAsJsonObject().getJsonObject("data").getString("session_id");
    HttpResponse<Buffer> postback = client.get(port, "127.0.0.1", "/api/v1/postbacks/" + postbackToken
        + "?subid=" + sessionId + "&event=REG").send().await();
    assertThat(postback.statusCode()).as(postback.bodyAsString()).isEqualTo(200);
    assertThat(postback.bodyAsJsonObject().getJsonObject("data").getString("outcome")).isEqualTo("matched");
    client.close();
  }

  private static JsonObject integration(JsonObject workspace, String id) {
    JsonArray integrations = workspace.getJsonArray("integrations");
    return integrations.stream().map(JsonObject.class::cast).filter(i -> i.getString("id").equals(id)).findFirst()
        .orElseThrow();
  }

  /** {@code NAME=value} lines, as systemd's EnvironmentFile and compose's env_file read them; # starts a comment. */
  private static Map<String, String> environmentFile(Path file) throws IOException {
    Map<String, String> env = new LinkedHashMap<>();
    for (String line : Files.readAllLines(file)) {
      int equals = line.indexOf('=');
      if (!line.isBlank() && !line.startsWith("#") && equals > 0) {
        env.put(line.substring(0, equals), line.substring(equals + 1));
      }
    }
    return env;
  }
}
