package dev.eventrouter.session;

import io.vertx.core.Future;

import java.util.Optional;
import java.util.UUID;

/** One place a session can be found for an event that came without one. */
public interface SessionSource {

  /** How events resolved by this source are marked: {@code invite}, {@code analytics}, {@code last_known}. */
  String name();

  /** The session of this user of this workspace, if this source knows one. */
  Future<Optional<String>> lookup(UUID workspaceId, long telegramId);
}
