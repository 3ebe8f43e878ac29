package dev.eventrouter.event;

import java.time.Clock;
import java.time.Instant;

/**
 * Time-ordered 64-bit event ids: 41 bits of milliseconds since 2024-01-01, 10 bits of node id, 12 bits of sequence.
 * The node id is leased from PostgreSQL at start (a sequence), so every process, restarted or on another host,
 * has its own; ids stay unique even when the clock steps back.
 */
public final class EventIds {

  public static final String PREFIX = "evt_";
  public static final int NODE_BITS = 10;
  public static final int MAX_NODES = 1 << NODE_BITS;
  private static final int SEQUENCE_BITS = 12;
  private static final long SEQUENCE_MASK = (1L << SEQUENCE_BITS) - 1;
  private static final long EPOCH_MS = 1_704_067_200_000L; // 2024-01-01T00:00:00Z
  /** The time the first id stands for: no event is older. */
  public static final Instant EPOCH = Instant.ofEpochMilli(EPOCH_MS);

  private final Clock clock;
  private final long node;
  private long lastMs = -1;
  private long sequence;

  public EventIds(int node, Clock clock) {
    if (node < 0 || node >= MAX_NODES) {
      throw new IllegalArgumentException("node id must be in [0, " + MAX_NODES + ")");
    }
    this.node = node;
    this.clock = clock;
  }

  public synchronized long next() {
    long now = clock.millis() - EPOCH_MS;
    if (now > lastMs) {
      lastMs = now;
      sequence = 0;
    } else if (++sequence > SEQUENCE_MASK) {
      // The clock stood still or stepped back and this millisecond is used up: borrow the next one.
      lastMs++;
      sequence = 0;
    }
    return (lastMs << (NODE_BITS + SEQUENCE_BITS)) | (node << SEQUENCE_BITS) | sequence;
  }

  /** The smallest id made at or after the given instant (on any node): where a time range of ids starts. */
  public static long firstIdAt(Instant at) {
    return (at.toEpochMilli() - EPOCH_MS) << (NODE_BITS + SEQUENCE_BITS);
  }

  public static String format(long id) {
    return PREFIX + id;
  }
}
