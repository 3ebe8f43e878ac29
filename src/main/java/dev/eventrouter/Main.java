package dev.eventrouter;

import dev.eventrouter.cluster.ClusterSetup;
import dev.eventrouter.common.StartupException;
import dev.eventrouter.config.AppConfig;
import dev.eventrouter.config.ConfigException;
import dev.eventrouter.config.ConfigLoader;
import dev.eventrouter.db.PostgresServer;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.vertx.core.Vertx;
import io.vertx.core.VertxBuilder;
import io.vertx.core.VertxOptions;
import io.vertx.core.spi.cluster.ClusterManager;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * {@code java -jar event-router.jar [--config PATH] [--cluster]} runs the service (clustered with
 * {@code --cluster} or {@code cluster.enabled});
 * {@code java -jar event-router.jar hash-key} prints the config value for the API key on its standard input;
 * {@code java -jar event-router.jar generate-key} prints a new random API key and its config value;
 * {@code java -jar event-router.jar init [...]} writes a new config with its own workspace and secrets;
 * {@code java -jar event-router.jar postgres [--data-dir DIR] [--port PORT]} runs only the embedded PostgreSQL;
 * {@code java -jar event-router.jar telegram-webhook --workspace ID --url PUBLIC_URL} sets a workspace bot's webhook.
 */
public final class Main {

  /** How often the config file is checked for changes. */
  private static final long CONFIG_SCAN_MS = 5_000;
  private static final long CLOSE_WAIT_SECONDS = 10;
  /** Outside the ephemeral port range, and beside PostgreSQL's usual 5432. */
  static final int DEFAULT_POSTGRES_PORT = 15432;

  private Main() {}

  public static void main(String[] args) {
    String logFormatProblem = logFormatProblem(System.getenv("LOG_FORMAT"));
    if (logFormatProblem != null) {
      System.err.println(logFormatProblem);
      System.exit(2);
    }
    System.exit(run(args, System.in, System.out, System.err));
  }

  /** Not a constant: logging starts only after LOG_FORMAT has been checked, so a refusal is one clean line. */
  private static Logger log() {
    return LoggerFactory.getLogger(Main.class);
  }

  /** logback.xml picks its appender by LOG_FORMAT; any other value would silently leave the service without logs. */
  static String logFormatProblem(String logFormat) {
    return logFormat == null || logFormat.equals("text") || logFormat.equals("json") ? null
        : "LOG_FORMAT must be text (the default) or json, not '" + logFormat + "'";
  }

  /** Returns the exit code of a command, or blocks serving until the JVM is asked to stop. */
  static int run(String[] args, InputStream in, PrintStream out, PrintStream err) {
    if (args.length > 0 && args[0].equals("hash-key")) {
      return KeyCommands.hashKey(args, in, out, err);
    }
    if (args.length > 0 && args[0].equals("generate-key")) {
      return KeyCommands.generateKey(args, out, err);
    }
    if (args.length > 0 && args[0].equals("init")) {
      return InitCommand.run(args, System.getenv(), out, err);
    }
    if (args.length > 0 && args[0].equals("postgres")) {
      return postgres(args, out, err);
    }
    if (args.length > 0 && args[0].equals("postback-url")) {
      return PostbackUrlCommand.run(args, in, System.getenv(), out, err);
    }
    if (args.length > 0 && args[0].equals("telegram-webhook")) {
      return SetWebhookCommand.run(args, System.getenv(), out, err);
    }
    String configPath = null;
    boolean cluster = false;
    for (int i = 0; i < args.length; i++) {
      if (args[i].equals("--config") && i + 1 < args.length) {
        configPath = args[++i];
      } else if (args[i].equals("--cluster")) {
        cluster = true;
      } else {
        err.println("usage: java -jar event-router.jar [--config PATH] [--cluster] | hash-key < KEY_ON_STDIN"
            + " | generate-key | init [--config PATH] --bot BOT [--name NAME] [--origin URL]... [--force]"
            + " | postgres [--data-dir DIR] [--port PORT]"
            + " | telegram-webhook --workspace ID --url PUBLIC_URL"
            + " | postback-url --base PUBLIC_URL [--config PATH] < TOKEN_ON_STDIN");
        return 2;
      }
    }
    return serve(configPath, cluster, err);
  }

  private static int serve(String configPath, boolean cluster, PrintStream err) {
    ConfigLoader loader = new ConfigLoader(System.getenv(), cluster);
    Path path = loader.path(configPath);
    AppConfig initial;
    try {
      // Read once before Vert.x exists: whether it is clustered is in the config.
      initial = loader.readNow(path);
    } catch (ConfigException e) {
      err.println(e.getMessage());
      return 1;
    }
    PrometheusMeterRegistry metrics = ServiceMetrics.registry();
    VertxOptions options = ServiceMetrics.options(initial.management().httpServerMetrics());
    VertxBuilder builder = ServiceMetrics.builder(metrics);
    Vertx vertx;
    ClusterManager clusterManager = null;
    if (initial.cluster().enabled()) {
      try {
        clusterManager = ClusterSetup.clusterManager(initial.cluster());
        vertx = builder.with(ClusterSetup.options(options, initial.cluster()))
            .withClusterManager(clusterManager)
            .buildClustered().await();
      } catch (Exception e) {
        log().debug("cluster join failure", e);
        err.println("could not join the cluster on " + initial.cluster().host() + ":" + initial.cluster().port()
            + ": " + StartupException.explain(e));
        return 1;
      }
    } else {
      vertx = builder.with(options).build();
    }
    EventRouter router;
    ConfigLoader.Watched config;
    try {
      config = loader.watch(vertx, path, CONFIG_SCAN_MS).await();
      ConfigNotices.audit(vertx, config);
      if (initial.cluster().enabled()) {
        ConfigNotices.wire(vertx, loader, config).await();
      }
      router = EventRouter.start(vertx, config.live(), metrics, clusterManager).await();
    } catch (ConfigException e) {
      err.println(e.getMessage());
      closeWithin(vertx);
      return 1;
    } catch (Exception e) { // await() rethrows checked exceptions too (IOException from the embedded server)
      log().debug("start-up failure", e);
      err.println(StartupException.explain(e));
      closeWithin(vertx);
      return 1;
    }
    return serveUntilStopped(() -> {
      log().info("shutting down");
      config.retriever().close();
      router.close().eventually(vertx::close).await();
    });
  }

  /** Blocks until the JVM is asked to stop (SIGTERM, Ctrl-C), then runs {@code stop} before it exits; returns 0. */
  private static int serveUntilStopped(Runnable stop) {
    CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      stop.run();
      stopped.countDown();
    }, "shutdown"));
    try {
      stopped.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    return 0;
  }

  /**
   * {@code postgres [--data-dir DIR] [--port PORT]}: only the embedded PostgreSQL, on localhost, until the JVM is
   * asked to stop. The shared database of a cluster tried on one machine: each node's {@code database.url} names it.
   */
  private static int postgres(String[] args, PrintStream out, PrintStream err) {
    Path dataDir = Path.of("data/postgres");
    int port = DEFAULT_POSTGRES_PORT;
    try {
      for (int i = 1; i < args.length; i++) {
        if (args[i].equals("--data-dir") && i + 1 < args.length) {
          dataDir = Path.of(args[++i]);
        } else if (args[i].equals("--port") && i + 1 < args.length) {
          port = Integer.parseInt(args[++i]);
        } else {
          throw new IllegalArgumentException(args[i]);
        }
      }
    } catch (IllegalArgumentException e) {
      err.println("usage: java -jar event-router.jar postgres [--data-dir DIR] [--port PORT]");
      return 2;
    }
    PostgresServer server;
    try {
      server = startPostgres(dataDir, port, out);
    } catch (Exception e) {
      err.println(StartupException.explain(e));
      return 1;
    }
    return serveUntilStopped(() -> {
      try {
        server.close();
      } catch (Exception e) {
        log().warn("stopping PostgreSQL failed: {}", e.getMessage());
      }
    });
  }

  /**
   * Starts the {@code postgres} command's server and prints the URL the nodes need: its password is new at each
   * start, and printed only here (the operator's terminal), never logged.
   */
  static PostgresServer startPostgres(Path dataDir, int port, PrintStream out) throws IOException {
    PostgresServer server = PostgresServer.embedded(dataDir, port);
    out.println("PostgreSQL serving " + dataDir + " on localhost:" + port + "; give the nodes DATABASE_URL="
        + server.url());
    return server;
  }

  /** Closes Vert.x, but never waits long for it: a failed start must exit, whatever is left running. */
  private static void closeWithin(Vertx vertx) {
    try {
      vertx.close().await(CLOSE_WAIT_SECONDS, TimeUnit.SECONDS);
    } catch (Exception e) {
      log().warn("Vert.x did not close within {} s after a failed start; exiting anyway", CLOSE_WAIT_SECONDS);
    }
  }
}
