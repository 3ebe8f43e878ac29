package dev.eventrouter;

import dev.eventrouter.config.ApiKeys;
import dev.eventrouter.support.Await;
import dev.eventrouter.support.FakeAdNetworks;
import dev.eventrouter.support.LoadLoop;
import dev.eventrouter.support.ServiceProcess;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.WebClient;
import io.vertx.junit5.VertxExtension;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The packaged jar killed with SIGKILL, and run again with the same command: it starts within seconds on the same
 * embedded database, nothing acknowledged is lost, and every acknowledged event reaches the networks.
 */
@ExtendWith(VertxExtension.class)
class CrashRecoveryIT {

  private static final String WORKSPACE = "7c9e6679-7425-40de-944b-e07fc1f90ae7";
  private static final String KEY = "crash-test-key-3b1f";
  private static final Duration START = Duration.ofSeconds(60);
  private static final Duration RESTART = Duration.ofSeconds(20);
  private static final int CONCURRENCY = 16;
  private static final int ACKED_BEFORE_KILL = 300;

  @TempDir
  Path dir;
  private FakeAdNetworks fake;
  private final List<ServiceProcess> processes = new ArrayList<>();
  private int port;
  private Path config;

  @BeforeEach
  void setUp(Vertx vertx) throws IOException {
    fake = FakeAdNetworks.start(vertx);
    port = ServiceProcess.freePort();
    config = dir.resolve("config.json");
    Files.writeString(config, config(fake.baseUrl()).encodePrettily());
  }

  @AfterEach
  void tearDown() {
    ServiceProcess.stopAll(processes);
    fake.stop();
  }

  @Test
  @DisplayName("kill -9 under load, then the same command: up within seconds, every 200 readable and delivered")
  void killUnderLoadThenRestart(Vertx vertx) {
    ServiceProcess first = start();
    first.awaitUp(START);

    LoadLoop load = LoadLoop.start(vertx, port, KEY, CONCURRENCY, CrashRecoveryIT::event);
    Await.until(ACKED_BEFORE_KILL + " acknowledged events", Duration.ofSeconds(60),
        () -> load.count(200) >= ACKED_BEFORE_KILL);
    first.kill();
    List<LoadLoop.Answer> answers = load.stop();
    Set<String> acknowledged = answers.stream().filter(a -> a.status() == 200).map(LoadLoop.Answer::eventId)
        .collect(Collectors.toSet());

    ServiceProcess second = start();
    Duration restart = second.awaitUp(RESTART);
    System.out.printf("crash: %d events acknowledged before SIGKILL (%d requests failed with it); "
        + "restarted in %d ms%n", acknowledged.size(), answers.size() - acknowledged.size(), restart.toMillis());

    WebClient client = WebClient.create(vertx);
    List<String> unreadable = new ArrayList<>();
    for (String eventId : List.copyOf(acknowledged)) {
      int status = client.get(port, "127.0.0.1", "/api/v1/events/" + eventId).putHeader("x-api-key", KEY)
          .send().await().statusCode();
      if (status != 200) {
        unreadable.add(eventId + " -> " + status);
      }
    }
    assertThat(unreadable).as("acknowledged events that cannot be read after the crash").isEmpty();

    Await.until("every acknowledged event delivered to both networks", Duration.ofSeconds(60),
        () -> fake.accepted("meta").keySet().containsAll(acknowledged)
            && fake.accepted("tiktok").keySet().containsAll(acknowledged));
    for (String network : new String[] {"meta", "tiktok"}) {
      long duplicates = fake.accepted(network).values().stream().filter(n -> n > 1).count();
      System.out.printf("crash: %s received %d distinct events, %d of them more than once (at-least-once "
          + "delivery across a crash)%n", network, fake.accepted(network).size(), duplicates);
    }
    client.close();
  }

  @Test
  @DisplayName("a postmaster orphaned on the data directory is stopped and the start goes on; a second instance is refused")
  void orphanedPostmasterAndSecondInstance() throws IOException {
    ServiceProcess first = start();
    first.awaitUp(START);

    ServiceProcess second = start();
    assertThat(second.awaitExit(Duration.ofSeconds(30))).as("a second instance on the same data directory exits")
        .isNotZero();
    assertThat(second.logTail()).contains("event-router cannot start: the embedded PostgreSQL in")
        .contains("is in use by another event-router").doesNotContain("\tat ");

    // Both the JVM and the watchdog die at once (as when a whole process group is killed): the postmaster is left.
    Path pidFile = dir.resolve("data/postgres/postmaster.pid");
    long orphan = Long.parseLong(Files.readAllLines(pidFile).get(0).trim());
    first.children().forEach(ProcessHandle::destroyForcibly);
    first.kill();
    assertThat(ProcessHandle.of(orphan).map(ProcessHandle::isAlive)).as("the orphaned postmaster").contains(true);

    ServiceProcess third = start();
    Duration restart = third.awaitUp(RESTART);
    System.out.printf("orphan: started again in %d ms%n", restart.toMillis());
    assertThat(third.logTail()).contains("stopping the embedded PostgreSQL (pid " + orphan + ")");
    assertThat(ProcessHandle.of(orphan).map(ProcessHandle::isAlive).orElse(false)).isFalse();

    third.stop();
    assertThat(pidFile).as("a clean stop leaves no server behind").doesNotExist();

    // A server that cannot start (here a broken setting) fails the start within seconds, not after a minute's wait.
    Files.writeString(dir.resolve("data/postgres/postgresql.conf"), "\nbroken = = =\n", StandardOpenOption.APPEND);
    ServiceProcess fourth = start();
    assertThat(fourth.awaitExit(Duration.ofSeconds(15))).isNotZero();
    assertThat(fourth.logTail()).contains("event-router cannot start: the embedded PostgreSQL in")
        .contains("did not start").contains("postgres.log");
    assertThat(Files.readString(dir.resolve("data/postgres.log"))).contains("syntax error");
  }

  private static JsonObject event(int n) {
    JsonObject event = new JsonObject().put("event_name", n % 3 == 0 ? "Purchase" : "REG").put("telegram_id", n)
        .put("workspace_id", WORKSPACE).put("session_id", "s" + n);
    return n % 3 == 0 ? event.put("value", 10).put("currency", "EUR") : event;
  }

  private ServiceProcess start() {
    ServiceProcess process = ServiceProcess.start(config, dir.resolve("service-" + processes.size() + ".log"), port);
    processes.add(process);
    return process;
  }

  private JsonObject config(String fakeBase) {
    return new JsonObject()
        .put("http", new JsonObject().put("host", "127.0.0.1").put("port", port))
        .put("management", new JsonObject().put("port", 0))
        .put("database", new JsonObject().put("data_dir", dir.resolve("data/postgres").toString()))
        .put("delivery", new JsonObject().put("request_timeout_ms", 1000).put("initial_backoff_ms", 100)
            .put("max_backoff_ms", 500).put("scan_interval_ms", 200))
        .put("workspaces", new JsonArray().add(new JsonObject().put("id", WORKSPACE).put("name", "crash")
            .put("api_keys", new JsonArray().add(ApiKeys.configValue(KEY)))
            .put("rate_limit", new JsonObject().put("per_second", 100_000).put("burst", 100_000))
            .put("bot_name", "crash_test_bot")
            .put("integrations", new JsonArray().add(FakeAdNetworks.metaIntegration(fakeBase))
                .add(FakeAdNetworks.tiktokIntegration(fakeBase)))));
  }

}
