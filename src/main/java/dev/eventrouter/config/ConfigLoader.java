package dev.eventrouter.config;

import io.vertx.config.ConfigRetriever;
import io.vertx.config.ConfigRetrieverOptions;
import io.vertx.config.ConfigStoreOptions;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BiConsumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads the JSON config file through vertx-config, replaces {@code ${ENV_NAME}} inside string values from the
 * environment, lets {@code DATABASE_URL} override {@code database.url} and {@code --cluster} turn the cluster on,
 * then parses and validates it.
 */
public final class ConfigLoader {

  public static final String DEFAULT_PATH = "conf/config.json";
  public static final String CONFIG_ENV = "EVENT_ROUTER_CONFIG";
  public static final String DATABASE_URL_ENV = "DATABASE_URL";

  private static final Logger LOG = LoggerFactory.getLogger(ConfigLoader.class);
  private static final Pattern PLACEHOLDER = Pattern.compile("\\$\\{([A-Za-z_][A-Za-z0-9_]*)}");

  private final Map<String, String> env;
  private final boolean cluster;

  public ConfigLoader(Map<String, String> env) {
    this(env, false);
  }

  /** @param cluster {@code --cluster} was given: the cluster is on, whatever the file says */
  public ConfigLoader(Map<String, String> env, boolean cluster) {
    this.env = env;
    this.cluster = cluster;
  }

  /** The config path: {@code --config PATH} wins over {@code EVENT_ROUTER_CONFIG}, then the default. */
  public Path path(String cliPath) {
    if (cliPath != null) {
      return Path.of(cliPath);
    }
    return Path.of(env.getOrDefault(CONFIG_ENV, DEFAULT_PATH));
  }

  /** Reads the file now, on this thread: before Vert.x exists, to learn how to build it. */
  public AppConfig readNow(Path path) {
    if (!Files.isRegularFile(path)) {
      throw new ConfigException("config file not found: " + path.toAbsolutePath());
    }
    JsonObject json;
    try {
      json = new JsonObject(Files.readString(path));
    } catch (IOException | RuntimeException e) {
      throw new ConfigException(path + ": not a valid JSON object (" + e.getMessage() + ")");
    }
    return resolve(json);
  }

  /** Reads the file once. */
  public Future<AppConfig> load(Vertx vertx, Path path) {
    return read(vertx, path, 0).map(watched -> {
      watched.retriever().close();
      return watched.live().current();
    });
  }

  /**
   * A config file being watched: the config in force, the reader to close on shutdown, the file's content as last
   * applied, and who is told of a changed file refused (its content, and why).
   */
  public record Watched(LiveConfig live, ConfigRetriever retriever, AtomicReference<JsonObject> applied,
                        List<BiConsumer<JsonObject, ConfigException>> refusals) {

    public void onRefused(BiConsumer<JsonObject, ConfigException> listener) {
      refusals.add(listener);
    }
  }

  /**
   * Reads the file, then scans it every {@code scanPeriodMs} and hands each valid new version to the live config; an
   * invalid one is logged, by path of the bad values only, and ignored. One reader does both, so the first scan
   * compares with what was read at start and a file that did not change never causes a reload.
   */
  public Future<Watched> watch(Vertx vertx, Path path, long scanPeriodMs) {
    return read(vertx, path, scanPeriodMs).onSuccess(watched -> watched.retriever().listen(change ->
        apply(watched, change.getNewConfiguration())));
  }

  /**
   * Reads the file now, without waiting for the next scan (another cluster member reloaded its config, so this one
   * may have changed too), and applies it if it changed. Completes with whether it did.
   */
  public Future<Boolean> rescan(Watched watched) {
    return watched.retriever().getConfig().map(json -> apply(watched, json));
  }

  private boolean apply(Watched watched, JsonObject raw) {
    synchronized (watched) {
      if (raw.equals(watched.applied().get())) {
        return false;
      }
      try {
        AppConfig next = resolve(raw);
        watched.applied().set(raw); // before the listeners run: the audit log names the file's digest
        watched.live().replace(next);
        return true;
      } catch (ConfigException e) {
        LOG.warn("config change ignored, the running config stays: {}", e.getMessage());
        watched.refusals().forEach(listener -> listener.accept(raw, e));
        return false;
      }
    }
  }

  private Future<Watched> read(Vertx vertx, Path path, long scanPeriodMs) {
    if (!Files.isRegularFile(path)) {
      return Future.failedFuture(new ConfigException("config file not found: " + path.toAbsolutePath()));
    }
    ConfigRetriever retriever = retriever(vertx, path, scanPeriodMs);
    return retriever.getConfig()
        .recover(e -> Future.failedFuture(
            new ConfigException(path + ": not a valid JSON object (" + e.getMessage() + ")")))
        .map(json -> new Watched(new LiveConfig(resolve(json)), retriever, new AtomicReference<>(json),
            new CopyOnWriteArrayList<>()))
        .onFailure(e -> retriever.close());
  }

  private static ConfigRetriever retriever(Vertx vertx, Path path, long scanPeriodMs) {
    ConfigStoreOptions file = new ConfigStoreOptions()
        .setType("file").setFormat("json").setConfig(new JsonObject().put("path", path.toString()));
    // A scan period of 0 means no scan (the retriever's default would scan every 5 s).
    return ConfigRetriever.create(vertx, new ConfigRetrieverOptions().setIncludeDefaultStores(false).addStore(file)
        .setScanPeriod(scanPeriodMs));
  }

  /** Substitutes the environment into raw config JSON and parses it. */
  public AppConfig resolve(JsonObject raw) {
    List<String> problems = new ArrayList<>();
    JsonObject json = substitute(raw, "", problems);
    if (!problems.isEmpty()) {
      throw new ConfigException(problems);
    }
    String databaseUrl = env.get(DATABASE_URL_ENV);
    if (databaseUrl != null && !databaseUrl.isBlank()) {
      JsonObject database = json.getValue("database") instanceof JsonObject db ? db : new JsonObject();
      json.put("database", database.put("url", databaseUrl));
    }
    if (cluster) {
      JsonObject section = json.getValue("cluster") instanceof JsonObject c ? c : new JsonObject();
      json.put("cluster", section.put("enabled", true));
    }
    return ConfigParser.parse(json);
  }

  private JsonObject substitute(JsonObject json, String path, List<String> problems) {
    JsonObject out = new JsonObject();
    json.forEach(entry -> out.put(entry.getKey(),
        substituteValue(entry.getValue(), path.isEmpty() ? entry.getKey() : path + "." + entry.getKey(), problems)));
    return out;
  }

  private Object substituteValue(Object value, String path, List<String> problems) {
    if (value instanceof JsonObject object) {
      return substitute(object, path, problems);
    }
    if (value instanceof JsonArray array) {
      JsonArray out = new JsonArray();
      for (int i = 0; i < array.size(); i++) {
        out.add(substituteValue(array.getValue(i), path + "[" + i + "]", problems));
      }
      return out;
    }
    if (value instanceof String text) {
      Matcher matcher = PLACEHOLDER.matcher(text);
      StringBuilder result = new StringBuilder();
      while (matcher.find()) {
        String replacement = env.get(matcher.group(1));
        if (replacement == null) {
          problems.add(path + ": environment variable " + matcher.group(1) + " is not set");
          replacement = "";
        }
        matcher.appendReplacement(result, Matcher.quoteReplacement(replacement));
      }
      matcher.appendTail(result);
      return result.toString();
    }
    return value;
  }
}
