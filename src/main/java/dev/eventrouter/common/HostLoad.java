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

  private static final HostLoad HOST = new HostLoad(
      ((OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())::getCpuLoad, System::nanoTime);

  private final DoubleSupplier sincePreviousCall;
  private final LongSupplier nanoClock;
  private long sampledAt;
  /** Nanoseconds the host's CPUs were busy, summed over every call so far (busy share times elapsed time). */
  private double busyNanos;
  private double lastLoad;

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

  /** A window that starts now. */
  public Window window() {
    return new Window();
  }

  /** Folds in the use since the previous call (unknown counts as busy); returns {now, busy sum}. */
  private synchronized double[] sample() {
    double load = sincePreviousCall.getAsDouble();
    long now = nanoClock.getAsLong();
    lastLoad = load < 0 ? 1 : Math.min(1, load);
    busyNanos += lastLoad * (now - sampledAt);
    sampledAt = now;
    return new double[] {now, busyNanos, lastLoad};
  }

  /** One caller's stretch of the host's use; used from one thread at a time. */
  public final class Window {
    private double from;
    private double busyFrom;

    private Window() {
      mark();
    }

    /** Starts the window from now (leaving out the caller's own work before now). */
    public void mark() {
      double[] sample = sample();
      from = sample[0];
      busyFrom = sample[1];
    }

    /** The host's CPU use since the window started, 0 to 1; the next window starts now. */
    public double look() {
      double[] sample = sample();
      double elapsed = sample[0] - from;
      double load = elapsed > 0 ? (sample[1] - busyFrom) / elapsed : sample[2];
      from = sample[0];
      busyFrom = sample[1];
      return load;
    }
  }
}
