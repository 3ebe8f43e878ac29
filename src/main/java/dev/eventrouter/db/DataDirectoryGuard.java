package dev.eventrouter.db;

import dev.eventrouter.common.StartupException;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Stream;

/**
 * Ties an embedded PostgreSQL to the one process that runs it, so that a crash never leaves the next start stuck:
 * <ul>
 *   <li>a lock file beside the data directory is held while this process runs; the operating system drops it when
 *       the process dies, even by {@code kill -9}, so a second instance on the same directory stops with a clear
 *       message instead of fighting over it;</li>
 *   <li>a postmaster still running on the directory while nobody holds the lock was left by a process that died: it
 *       is shut down before ours starts;</li>
 *   <li>a watchdog child process shuts our postmaster down when this JVM dies without stopping it: it waits for the
 *       end of its standard input, a pipe from this JVM that the kernel closes when the JVM dies.</li>
 * </ul>
 * PostgreSQL's shutdown modes: https://www.postgresql.org/docs/current/server-shutdown.html (SIGINT is "fast":
 * clients are disconnected, and the server stops cleanly, so the next start needs no crash recovery).
 */
final class DataDirectoryGuard implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(DataDirectoryGuard.class);
  private static final Duration ORPHAN_STOP_WAIT = Duration.ofSeconds(30);

  private final Path dataDir;
  private final FileChannel lockChannel;
  private final FileLock lock;
  private Process watchdog;

  private DataDirectoryGuard(Path dataDir, FileChannel lockChannel, FileLock lock) {
    this.dataDir = dataDir;
    this.lockChannel = lockChannel;
    this.lock = lock;
  }

  /** Takes the directory for this process, shutting down a postmaster that a dead process left running on it. */
  static DataDirectoryGuard claim(Path dataDir) throws IOException {
    Path absolute = dataDir.toAbsolutePath().normalize();
    Path lockFile = absolute.resolveSibling(absolute.getFileName() + ".lock");
    FileChannel channel = FileChannel.open(lockFile, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
    FileLock lock;
    try {
      lock = channel.tryLock();
    } catch (OverlappingFileLockException heldHere) {
      lock = null;
    }
    if (lock == null) {
      channel.close();
      throw new StartupException("the embedded PostgreSQL in " + absolute + " is in use by another event-router "
          + "(" + lockFile + " is locked): stop that one, or give this one another database.data_dir");
    }
    DataDirectoryGuard guard = new DataDirectoryGuard(absolute, channel, lock);
    try {
      guard.stopOrphan();
    } catch (RuntimeException | IOException e) {
      guard.close();
      throw e;
    }
    return guard;
  }

  /** Runs the library's start; see {@link StartWatch}. */
  EmbeddedPostgres start(EmbeddedPostgres.Builder builder) throws IOException {
    return new StartWatch(this::serverRunning).start(builder);
  }

  private boolean serverRunning() {
    try {
      return postmaster().isPresent();
    } catch (IOException unreadable) {
      return true; // not known to be dead: let the library's own wait decide
    }
  }

  /** Starts the watchdog for the postmaster now running on the directory. */
  void watch() throws IOException {
    Optional<ProcessHandle> postmaster = postmaster();
    if (postmaster.isEmpty()) {
      return;
    }
    // "$0" is the postmaster's pid; read returns at end of input, which comes only when this JVM is gone.
    watchdog = new ProcessBuilder("sh", "-c", "read -r _; kill -INT \"$0\" 2>/dev/null",
        String.valueOf(postmaster.get().pid()))
        .redirectOutput(ProcessBuilder.Redirect.DISCARD)
        .redirectError(ProcessBuilder.Redirect.DISCARD)
        .start();
  }

  /** A clean stop: the watchdog goes first (killed, so it never signals), then the lock. */
  @Override
  public void close() throws IOException {
    if (watchdog != null) {
      watchdog.destroyForcibly();
    }
    try {
      lock.release();
    } finally {
      lockChannel.close();
    }
  }

  private void stopOrphan() throws IOException {
    Optional<ProcessHandle> orphan = postmaster();
    if (orphan.isEmpty()) {
      return;
    }
    ProcessHandle postmaster = orphan.get();
    // Backends still attached to the old shared memory would stop a new postmaster from starting: wait for them too.
    List<ProcessHandle> family = Stream.concat(Stream.of(postmaster),
        postmaster.descendants()).toList();
    LOG.warn("stopping the embedded PostgreSQL (pid {}) that an earlier event-router left running on {}",
        postmaster.pid(), dataDir);
    signal(postmaster.pid(), "INT");
    if (!exited(family, ORPHAN_STOP_WAIT)) {
      LOG.warn("the old PostgreSQL did not stop within {} s; killing it", ORPHAN_STOP_WAIT.toSeconds());
      family.forEach(ProcessHandle::destroyForcibly);
      if (!exited(family, ORPHAN_STOP_WAIT)) {
        throw new StartupException("the PostgreSQL (pid " + postmaster.pid() + ") left running on " + dataDir
            + " does not stop: kill it by hand, then start again");
      }
    }
  }

  /** The live postmaster named by the directory's postmaster.pid, if any (a stale file is PostgreSQL's to handle). */
  private Optional<ProcessHandle> postmaster() throws IOException {
    Path pidFile = dataDir.resolve("postmaster.pid");
    if (!Files.isRegularFile(pidFile)) {
      return Optional.empty();
    }
    List<String> lines = Files.readAllLines(pidFile);
    long pid;
    try {
      pid = Long.parseLong(lines.isEmpty() ? "" : lines.get(0).trim());
    } catch (NumberFormatException unreadable) {
      return Optional.empty();
    }
    // A pid of another program (reused after a reboot) is not ours to stop.
    return ProcessHandle.of(pid).filter(ProcessHandle::isAlive).filter(p -> named(p, "postgres"));
  }

  static boolean named(ProcessHandle process, String program) {
    return process.info().command().map(c -> Path.of(c).getFileName().toString().equals(program)).orElse(false);
  }

  private static void signal(long pid, String signal) throws IOException {
    try {
      // The shell's own kill: present wherever sh is, unlike /bin/kill in minimal images.
      new ProcessBuilder("sh", "-c", "kill -" + signal + " \"$0\"", String.valueOf(pid))
          .redirectOutput(ProcessBuilder.Redirect.DISCARD).redirectError(ProcessBuilder.Redirect.DISCARD)
          .start().waitFor(5, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while signalling pid " + pid, e);
    }
  }

  private static boolean exited(List<ProcessHandle> processes, Duration within) {
    long deadline = System.nanoTime() + within.toNanos();
    for (ProcessHandle process : processes) {
      try {
        process.onExit().get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
      } catch (TimeoutException stillRunning) {
        return false;
      } catch (ExecutionException e) {
        if (process.isAlive()) {
          return false;
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return false;
      }
    }
    return true;
  }
}
