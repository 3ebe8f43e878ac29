package dev.eventrouter.common;

import com.sun.management.OperatingSystemMXBean;

import java.lang.management.ManagementFactory;
import java.util.function.DoubleSupplier;
import java.util.function.LongSupplier;

/**
 * The host's CPU use over windows that each caller marks for itself. The JDK's {@code getCpuLoad()} answers the use
 * since its previous call by anyone in the process (it reads a container's cgroup limits), so two pacers calling it
 * (the rollups, the cost import) would each see a window the other cut short. Here every call folds into one running
 * sum of busy time, and a window reads its own stretch of that sum.
 */
public final class HostLoad {

  /** The CPU use (0 to 1) from which a pacer keeps to its budget: ingest is using the machine. */
  public static final double BUSY = 0.5;

  private static final HostLoad HOST = new HostLoad(
      ((OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())::getCpuLoad, System::nanoTime);

  private final DoubleSupplier sincePreviousCall;
  private final LongSupplier nanoClock;
  private long sampledAt;
  /** Nanoseconds the host's CPUs were busy, summed over every call so far (busy share times elapsed time). */
  private double busyNanos;

  HostLoad(DoubleSupplier sincePreviousCall, LongSupplier nanoClock) {
    this.sincePreviousCall = sincePreviousCall;
    this.nanoClock = nanoClock;
    sincePreviousCall.getAsDouble();
    this.sampledAt = nanoClock.getAsLong();
  }

  /** This host's. */
  public static HostLoad host() {
    return HOST;
  }

  /**
   * How long after work that took {@code workMs} a pacer may go on while the host is busy, to keep to
   * {@code budgetPercent} of the time (100: no pause). The rollups' rounds and the cost polls' pages both cost
   * PostgreSQL work that on a host ingest keeps busy would come out of ingest, so past the budget they fall behind
   * instead.
   */
  public static long budgetedPauseMs(long workMs, int budgetPercent) {
    return workMs * (100 - budgetPercent) / budgetPercent;
  }

  /** A window that starts now. */
  public Window window() {
    return new Window();
  }

  /** One look: when it was taken, the busy sum then, and the share of the stretch it closed. */
  private record Sample(long at, double busyNanos, double load) {}

  /** Folds in the use since the previous call (unknown counts as busy). */
  private synchronized Sample sample() {
    double load = sincePreviousCall.getAsDouble();
    long now = nanoClock.getAsLong();
    double share = load < 0 ? 1 : Math.min(1, load);
    busyNanos += share * (now - sampledAt);
    sampledAt = now;
    return new Sample(now, busyNanos, share);
  }

  /** One caller's stretch of the host's use; used from one thread at a time. */
  public final class Window {
    private long from;
    private double busyFrom;

    private Window() {
      mark();
    }

    /** Starts the window from now (leaving out the caller's own work before now). */
    public void mark() {
      start(sample());
    }

    /** The host's CPU use since the window started, 0 to 1; the next window starts now. */
    public double look() {
      Sample now = sample();
      long elapsed = now.at() - from;
      double load = elapsed > 0 ? (now.busyNanos() - busyFrom) / elapsed : now.load();
      start(now);
      return load;
    }

    private void start(Sample sample) {
      from = sample.at();
      busyFrom = sample.busyNanos();
    }
  }
}
