package dev.eventrouter.session;

import dev.eventrouter.store.Batcher;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.RowSet;
import io.vertx.sqlclient.Tuple;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.function.BiConsumer;

/**
 * A source whose lookups, when many events arrive together, are answered by one query for all of them rather than
 * one round trip each. The query receives the users as parallel arrays ($1 workspace ids, $2 telegram ids, then
 * whatever {@code moreParameters} adds) and returns rows of (1-based position in the arrays, session_id).
 *
 * <p>Use from the context (verticle) that created it.
 */
final class BatchedSessionSource implements SessionSource {

  /** A user whose session is looked up. */
  record User(UUID workspaceId, long telegramId) {}

  private static final int BATCH_SIZE = 500;
  private static final int MAX_IN_FLIGHT = 4;
  private static final int MAX_PENDING = 20_000;

  private final Pool pool;
  private final String name;
  private final String sql;
  private final BiConsumer<Tuple, List<User>> moreParameters;
  private final Batcher<User, Optional<String>> batches;

  BatchedSessionSource(Vertx vertx, Pool pool, String name, String sql, BiConsumer<Tuple, List<User>> moreParameters) {
    this.pool = pool;
    this.name = name;
    this.sql = sql;
    this.moreParameters = moreParameters;
    this.batches = new Batcher<>(vertx, this::lookupAll, BATCH_SIZE, 0, MAX_IN_FLIGHT, MAX_PENDING);
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public Future<Optional<String>> lookup(UUID workspaceId, long telegramId) {
    return batches.submit(new User(workspaceId, telegramId));
  }

  private Future<List<Optional<String>>> lookupAll(List<User> users) {
    // Built one by one: Tuple.of(a, b) would spread an array b as its varargs.
    Tuple params = Tuple.tuple()
        .addArrayOfUUID(users.stream().map(User::workspaceId).toArray(UUID[]::new))
        .addArrayOfLong(users.stream().map(User::telegramId).toArray(Long[]::new));
    moreParameters.accept(params, users);
    return pool.preparedQuery(sql).execute(params).map(rows -> byPosition(rows, users.size()));
  }

  private static List<Optional<String>> byPosition(RowSet<Row> rows, int size) {
    List<Optional<String>> found = new ArrayList<>(Collections.nCopies(size, Optional.empty()));
    for (Row row : rows) {
      found.set((int) (row.getLong(0) - 1), Optional.of(row.getString(1)));
    }
    return found;
  }
}
