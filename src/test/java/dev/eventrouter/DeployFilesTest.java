package dev.eventrouter;

import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.yaml.snakeyaml.Yaml;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * deploy/: each file read by its own tool where this machine has it (systemd-analyze, caddy, docker compose; .ci/run
 * installs them), and always against what {@code init} writes and the service needs.
 */
class DeployFilesTest {

  private static final Path DEPLOY = Path.of("deploy");

  @TempDir
  Path dir;

  /** A command's exit code and its output (standard output and error together). */
  private record Run(int exit, String output) {}

  private static Run run(Path workingDir, Map<String, String> env, String... command) throws Exception {
    Path output = Files.createTempFile("deploy-tool", ".out");
    ProcessBuilder builder = new ProcessBuilder(command).directory(workingDir.toFile()).redirectErrorStream(true)
        .redirectOutput(output.toFile());
    builder.environment().putAll(env);
    Process process = builder.start();
    if (!process.waitFor(60, TimeUnit.SECONDS)) {
      process.destroyForcibly();
      throw new AssertionError(String.join(" ", command) + " still running after 60 s");
    }
    String text = Files.readString(output);
    Files.delete(output);
    return new Run(process.exitValue(), text);
  }

  private static boolean onPath(String program) {
    return System.getenv("PATH") != null && List.of(System.getenv("PATH").split(":")).stream()
        .anyMatch(d -> Files.isExecutable(Path.of(d, program)));
  }

  /** The unit's {@code Key=value} lines (a key given twice keeps its last value). */
  private static Map<String, String> unit(String text) {
    Map<String, String> settings = new HashMap<>();
    text.lines().filter(l -> !l.startsWith("#") && l.contains("="))
        .forEach(l -> settings.put(l.substring(0, l.indexOf('=')), l.substring(l.indexOf('=') + 1)));
    return settings;
  }

  @Test
  @DisplayName("the systemd unit: the files init writes, a minute to stop, SIGTERM's 143 a clean exit, restarted on "
      + "failure; systemd-analyze verify finds nothing")
  void systemdUnit() throws Exception {
    String text = Files.readString(DEPLOY.resolve("event-router.service"));
    Map<String, String> unit = unit(text);
    assertThat(unit.get("EnvironmentFile")).isEqualTo("/etc/event-router/" + InitCommand.ENV_FILE);
    assertThat(unit.get("ExecStart")).endsWith("-jar /opt/event-router/event-router.jar --config "
        + "/etc/event-router/config.json");
    assertThat(unit.get("TimeoutStopSec")).isEqualTo("60");
    assertThat(unit.get("SuccessExitStatus")).isEqualTo("143");
    assertThat(unit.get("KillMode")).isEqualTo("mixed");
    assertThat(unit.get("Restart")).isEqualTo("on-failure");
    assertThat(unit.get("StateDirectory")).isEqualTo("event-router");
    assertThat(unit.get("WorkingDirectory")).isEqualTo("/var/lib/event-router");

    Assumptions.assumeTrue(onPath("systemd-analyze"), "systemd-analyze is not installed: the unit is read only here");
    Path copy = dir.resolve("event-router.service");
    String java = ProcessHandle.current().info().command().orElseThrow();
    // verify checks that ExecStart's program exists: a machine whose JDK is elsewhere checks the one it runs.
    Files.writeString(copy, Files.isExecutable(Path.of("/usr/bin/java")) ? text
        : text.replace("/usr/bin/java", java));
    Run verify = run(dir, Map.of(), "systemd-analyze", "verify", copy.toString());
    assertThat(verify.exit()).as(verify.output()).isZero();
    assertThat(verify.output()).as("a warning (a bad value is only ignored) fails too").isBlank();
  }

  @Test
  @DisplayName("the Caddyfile proxies to init's default address, with the domain as the guide puts it in; caddy "
      + "validate accepts it, and refuses it without a domain")
  void caddyfile() throws Exception {
    String text = Files.readString(DEPLOY.resolve("Caddyfile"));
    assertThat(text).contains("reverse_proxy {$UPSTREAM:127.0.0.1:8080}");
    JsonObject http = initConfig(dir.resolve("host"), "--bot", "acme_bot").getJsonObject("http");
    assertThat(http.getString("host") + ":" + http.getInteger("port")).isEqualTo("127.0.0.1:8080");
    assertThat(http.getJsonArray("trusted_proxies")).contains("127.0.0.1");

    Assumptions.assumeTrue(onPath("caddy"), "caddy is not installed (.ci/run installs Debian's): read only here");
    // docs/going-live.md: sudo sed -i 's/{$DOMAIN}/track.example.com/' /etc/caddy/Caddyfile
    Path edited = dir.resolve("Caddyfile");
    Files.writeString(edited, text.replace("{$DOMAIN}", "track.example.com"));
    Run valid = run(dir, Map.of(), "caddy", "validate", "--config", edited.toString(), "--adapter", "caddyfile");
    assertThat(valid.exit()).as(valid.output()).isZero();
    assertThat(valid.output()).contains("Valid configuration");
    Run noDomain = run(dir, Map.of(), "caddy", "validate", "--config", DEPLOY.resolve("Caddyfile").toAbsolutePath()
        .toString(), "--adapter", "caddyfile");
    assertThat(noDomain.exit()).as(noDomain.output()).isNotZero();
  }

  @Test
  @DisplayName("docker compose: the service unpublished behind Caddy, whose fixed address is the proxy init is told "
      + "to trust; the config and env file init writes; a minute to stop; the data in a volume; docker compose "
      + "config accepts it")
  @SuppressWarnings("unchecked")
  void compose() throws Exception {
    Path deploy = Files.createDirectories(dir.resolve("deploy"));
    Files.copy(DEPLOY.resolve("docker-compose.yml"), deploy.resolve("docker-compose.yml"));
    Files.copy(DEPLOY.resolve("Caddyfile"), deploy.resolve("Caddyfile"));
    Map<String, Object> compose = new Yaml().load(Files.readString(deploy.resolve("docker-compose.yml")));
    Map<String, Object> services = (Map<String, Object>) compose.get("services");
    Map<String, Object> router = (Map<String, Object>) services.get("event-router");
    Map<String, Object> caddy = (Map<String, Object>) services.get("caddy");
    String caddyAddress = (String) ((Map<String, Object>) ((Map<String, Object>) caddy.get("networks")).get("edge"))
        .get("ipv4_address");

    // As the compose file's comment says to run it.
    JsonObject config = initConfig(deploy, "--bot", "acme_bot", "--host", "0.0.0.0", "--trusted-proxy", caddyAddress);
    assertThat(config.getJsonObject("http").getJsonArray("trusted_proxies")).containsExactly(caddyAddress);
    assertThat(config.getJsonObject("database").getString("data_dir")).as("under the volume, from WORKDIR /app")
        .isEqualTo("data/postgres");
    assertThat(Files.readString(Path.of("Dockerfile"))).contains("WORKDIR /app", "VOLUME /app/data");
    assertThat(router.get("env_file")).isEqualTo(InitCommand.ENV_FILE);
    assertThat((List<String>) router.get("volumes")).contains("./config.json:/app/conf/config.json:ro",
        "event-router-data:/app/data");
    assertThat(router).doesNotContainKey("ports");
    assertThat(router.get("stop_grace_period")).isEqualTo("60s");
    assertThat((List<String>) caddy.get("ports")).contains("80:80", "443:443");
    assertThat(((Map<String, Object>) caddy.get("environment")).get("UPSTREAM"))
        .isEqualTo("event-router:" + config.getJsonObject("http").getInteger("port"));
    assertThat((List<String>) caddy.get("volumes")).contains("./Caddyfile:/etc/caddy/Caddyfile:ro");

    List<String> tool = onPath("docker") && run(dir, Map.of(), "docker", "compose", "version").exit() == 0
        ? List.of("docker", "compose") : onPath("docker-compose") ? List.of("docker-compose") : null;
    Assumptions.assumeTrue(tool != null, "neither docker compose nor docker-compose is installed: read only here");
    List<String> command = new ArrayList<>(tool);
    command.addAll(List.of("-f", "docker-compose.yml", "config"));
    Run valid = run(deploy, Map.of("DOMAIN", "track.example.com"), command.toArray(String[]::new));
    assertThat(valid.exit()).as(valid.output()).isZero();
    assertThat(valid.output()).contains("DOMAIN: track.example.com", "stop_grace_period: 60s");
  }

  /** Runs init into {@code directory}/config.json and reads what it wrote. */
  private static JsonObject initConfig(Path directory, String... args) throws IOException {
    Path config = directory.resolve("config.json");
    List<String> all = new ArrayList<>(List.of("init", "--config", config.toString()));
    all.addAll(List.of(args));
    ByteArrayOutputStream sink = new ByteArrayOutputStream();
    PrintStream print = new PrintStream(sink, true, StandardCharsets.UTF_8);
    assertThat(InitCommand.run(all.toArray(String[]::new), Map.of(), print, print))
        .as(sink.toString(StandardCharsets.UTF_8)).isZero();
    return new JsonObject(Files.readString(config));
  }
}
