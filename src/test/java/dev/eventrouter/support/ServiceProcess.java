package dev.eventrouter.support;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The packaged jar in a child JVM, run with exactly the README's command plus {@code --config}: what an operator
 * runs, and what a crash (SIGKILL) really does to it and its embedded PostgreSQL.
 */
public final class ServiceProcess {

  private final Process process;
  private boolean frozen;
  private final Path log;
  private final int port;

  private ServiceProcess(Process process, Path log, int port) {
    this.process = process;
    this.log = log;
    this.port = port;
  }

  /** Starts {@code java -jar event-router.jar --config CONFIG}, output to {@code log}. */
  public static ServiceProcess start(Path config, Path log, int port) {
    return jar(List.of("--config", config.toString()), log, port);
  }

  /**
   * Starts {@code java -jar event-router.jar ARGS}, output to {@code log}.
   *
   * @param port the port it serves on, for {@link #awaitUp}
   */
  public static ServiceProcess jar(List<String> args, Path log, int port) {
    return jar(args, log, port, Map.of(), null);
  }

  /**
   * The same with more environment variables (as a systemd unit's EnvironmentFile gives them) in a working
   * directory of its own (its WorkingDirectory; null: this one).
   */
  public static ServiceProcess jar(List<String> args, Path log, int port, Map<String, String> env, Path workingDir) {
    String jar = Path.of(System.getProperty("event-router.jar", "target/event-router.jar")).toAbsolutePath()
        .toString();
    String java = ProcessHandle.current().info().command().orElse("java");
    List<String> command = new java.util.ArrayList<>(List.of(java, "-Xmx256m", "-jar", jar));
    command.addAll(args);
    try {
      ProcessBuilder builder = new ProcessBuilder(command);
      builder.environment().putAll(env);
      Process process = builder.directory(workingDir == null ? null : workingDir.toFile())
          .redirectErrorStream(true)
          .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
          .start();
      return new ServiceProcess(process, log, port);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Stops each (SIGTERM), passing over those that have already exited: a test's own kill, or an exit it waited for. */
  public static void stopAll(List<ServiceProcess> processes) {
    for (ServiceProcess process : processes) {
      try {
        process.stop();
      } catch (AssertionError alreadyGone) {
        // exited before
      }
    }
  }

  /** A port free now, for a child to serve on. */
  public static int freePort() {
    try (java.net.ServerSocket socket = new java.net.ServerSocket(0)) {
      return socket.getLocalPort();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Waits until /health answers; returns how long that took. Fails at once if the process exits instead. */
  public Duration awaitUp(Duration timeout) {
    long start = System.nanoTime();
    HttpClient client = HttpClient.newHttpClient();
    Await.until("the service on port " + port + " to answer /health (log: " + log + ")", timeout, () -> {
      if (!process.isAlive()) {
        throw new AssertionError("the service exited with " + process.exitValue() + ":\n" + logTail());
      }
      try {
        return client.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/health"))
            .timeout(Duration.ofSeconds(1)).build(), HttpResponse.BodyHandlers.discarding()).statusCode() == 200;
      } catch (IOException notYet) {
        return false;
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return false;
      }
    });
    return Duration.ofNanos(System.nanoTime() - start);
  }

  /** Waits until its log has a line containing {@code text}. Fails at once if the process exits instead. */
  public void awaitLog(String text, Duration timeout) {
    Await.until("'" + text + "' in " + log, timeout, () -> {
      if (!process.isAlive()) {
        throw new AssertionError("the process exited with " + process.exitValue() + ":\n" + logTail());
      }
      try {
        return Files.exists(log) && Files.readString(log).contains(text);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    });
  }

  /** Waits for the process to exit by itself; returns its exit code. */
  public int awaitExit(Duration timeout) {
    try {
      if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
        throw new AssertionError("still running after " + timeout.toSeconds() + " s:\n" + logTail());
      }
      return process.exitValue();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError(e);
    }
  }

  /** SIGKILL, as an OOM killer or a power cut would: no shutdown hook runs. */
  public void kill() {
    process.destroyForcibly();
    awaitExit(Duration.ofSeconds(10));
  }

  /** SIGSTOP, as a paused VM or a stop-the-world pause would: sockets stay open, nothing answers. */
  public void freeze() {
    Signals.send("STOP", process.toHandle());
    frozen = true;
  }

  public void thaw() {
    Signals.send("CONT", process.toHandle());
    frozen = false;
  }

  /** SIGTERM, as a supervisor stopping it cleanly (a frozen process is thawed first, to hear it). */
  public void stop() {
    if (frozen) {
      thaw();
    }
    process.destroy();
    try {
      awaitExit(Duration.ofSeconds(30));
    } catch (AssertionError stuck) {
      kill(); // so that the next test finds its ports free
      throw stuck;
    }
  }

  public long pid() {
    return process.pid();
  }

  /** The JVM's own child processes (the embedded server's watchdog). */
  public List<ProcessHandle> children() {
    return process.children().toList();
  }

  public String logTail() {
    try {
      List<String> lines = Files.readAllLines(log);
      return String.join("\n", lines.subList(Math.max(0, lines.size() - 40), lines.size()));
    } catch (IOException e) {
      return "(no log: " + e.getMessage() + ")";
    }
  }
}
