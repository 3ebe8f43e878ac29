package dev.eventrouter.config;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;

/**
 * The config in force, replaced while running when the file changes: a valid new config applies to what comes next
 * (new events, new deliveries); an invalid one is logged and ignored. HTTP, database, cluster and roles settings need
 * a restart.
 */
public final class LiveConfig {

  private static final Logger LOG = LoggerFactory.getLogger(LiveConfig.class);

  private final AtomicReference<AppConfig> current;
  private final List<Consumer<AppConfig>> listeners = new CopyOnWriteArrayList<>();

  public LiveConfig(AppConfig initial) {
    this.current = new AtomicReference<>(initial);
  }

  public AppConfig current() {
    return current.get();
  }

  public void onChange(Consumer<AppConfig> listener) {
    listeners.add(listener);
  }

  public void replace(AppConfig next) {
    AppConfig before = current.get();
    if (!before.http().equals(next.http()) || !before.database().equals(next.database())
        || !before.cluster().equals(next.cluster()) || !before.roles().equals(next.roles())) {
      LOG.warn("config reload: http, database, cluster and roles settings change only on restart; the rest "
          + "applies now");
    }
    AppConfig applied = before.reloadedFrom(next);
    current.set(applied);
    listeners.forEach(listener -> listener.accept(applied));
    LOG.info("config reloaded: {} workspaces", applied.workspaces().size());
  }
}
