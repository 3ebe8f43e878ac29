package dev.eventrouter.store;

import io.vertx.core.Future;
import io.vertx.pgclient.PgException;

import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * An {@link EventWriter} that fails every write the way PostgreSQL would, as Okapi's TenantStoreFaulty does for its
 * tenant store: so the service's answers to a failing database are tested without stopping one.
 */
public final class FaultyEventWriter implements EventWriter {

  private final PgException failure;
  private final AtomicInteger writes = new AtomicInteger();

  private FaultyEventWriter(PgException failure) {
    this.failure = failure;
  }

  /** The connection is gone (SQLSTATE 08006): nothing stored, the service is unavailable. */
  public static FaultyEventWriter connectionLost() {
    return new FaultyEventWriter(new PgException("terminating connection", "FATAL", "08006", null));
  }

  /** A value PostgreSQL cannot take (SQLSTATE 22P05): the request itself is wrong. */
  public static FaultyEventWriter refusesData() {
    return new FaultyEventWriter(new PgException("unsupported Unicode escape sequence", "ERROR", "22P05", null));
  }

  @Override
  public Future<List<WriteResult>> insertBatch(List<NewEvent> batch) {
    writes.incrementAndGet();
    return Future.failedFuture(failure);
  }

  /** How many batches were attempted. */
  public int writes() {
    return writes.get();
  }
}
