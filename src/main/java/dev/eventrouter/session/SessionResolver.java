package dev.eventrouter.session;

import dev.eventrouter.common.LogSafe;
import dev.eventrouter.event.Resolution;
import io.vertx.core.Future;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * Finds the session of an event: the supplied one as is; otherwise the first source, in order, that knows one. A
 * source that fails or exceeds its time budget is logged and skipped; it never fails the event.
 */
public final class SessionResolver {

  private static final Logger LOG = LoggerFactory.getLogger(SessionResolver.class);

  private final List<SessionSource> sources;
  private final LongSupplier sourceTimeoutMs;

  /** @param sourceTimeoutMs each source's time budget, read per lookup so a config reload applies at once */
  public SessionResolver(List<SessionSource> sources, LongSupplier sourceTimeoutMs) {
    this.sources = List.copyOf(sources);
    this.sourceTimeoutMs = sourceTimeoutMs;
  }

  public Future<Resolution> resolve(UUID workspaceId, long telegramId, String suppliedSessionId) {
    if (suppliedSessionId != null) {
      return Future.succeededFuture(Resolution.supplied(suppliedSessionId));
    }
    return tryFrom(0, workspaceId, telegramId);
  }

  private Future<Resolution> tryFrom(int index, UUID workspaceId, long telegramId) {
    if (index == sources.size()) {
      return Future.succeededFuture(Resolution.none());
    }
    SessionSource source = sources.get(index);
    return source.lookup(workspaceId, telegramId)
        .timeout(sourceTimeoutMs.getAsLong(), TimeUnit.MILLISECONDS)
        .transform(found -> {
          if (found.failed()) {
            LOG.warn("session source {} skipped: {}", source.name(), LogSafe.describe(found.cause()));
          } else if (found.result().isPresent()) {
            return Future.succeededFuture(new Resolution(found.result().get(), source.name()));
          }
          return tryFrom(index + 1, workspaceId, telegramId);
        });
  }
}
