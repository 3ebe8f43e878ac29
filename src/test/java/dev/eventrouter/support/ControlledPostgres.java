package dev.eventrouter.support;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * An embedded PostgreSQL a test can stop and start again on the same port and data directory, or freeze with
 * SIGSTOP (as a stalled disk or a paused VM would) and thaw: outages the service must ride out without a restart.
 */
public final class ControlledPostgres implements AutoCloseable {

  private final Path dataDir;
  private final int port;
  private EmbeddedPostgres server;
  private boolean frozen;

  private ControlledPostgres(Path dataDir, int port) {
    this.dataDir = dataDir;
    this.port = port;
  }

  public static ControlledPostgres start(Path dataDir) {
    try (ServerSocket socket = new ServerSocket(0)) {
      ControlledPostgres pg = new ControlledPostgres(dataDir, socket.getLocalPort());
      socket.close();
      pg.startAgain();
      return pg;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  public String url() {
    return "postgresql://postgres@localhost:" + port + "/postgres";
  }

  public void stop() {
    try {
      server.close();
      server = null;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  public void startAgain() {
    try {
      server = EmbeddedPostgres.builder().setDataDirectory(dataDir).setCleanDataDirectory(false).setPort(port)
          .start();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** SIGSTOP to the postmaster and every backend: connections stay open, nothing answers. */
  public void freeze() {
    signal("STOP");
    frozen = true;
  }

  public void thaw() {
    signal("CONT");
    frozen = false;
  }

  private void signal(String signal) {
    try {
      long pid = Long.parseLong(Files.readAllLines(dataDir.resolve("postmaster.pid")).get(0).trim());
      Signals.send(signal, ProcessHandle.of(pid).orElseThrow());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Override
  public void close() {
    if (frozen) {
      thaw();
    }
    if (server != null) {
      stop();
    }
  }
}
