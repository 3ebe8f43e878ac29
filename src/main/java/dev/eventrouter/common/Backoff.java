package dev.eventrouter.common;

import java.util.concurrent.ThreadLocalRandom;

/** Exponential backoff with jitter: about initial * 2^attempts, capped, randomised so retries do not stampede. */
public final class Backoff {

  private Backoff() {}

  /** @param attempts attempts already made before the one that just failed */
  public static long delayMs(int attempts, long initialMs, long maxMs) {
    long exponential = initialMs << Math.min(attempts, 30);
    long capped = exponential <= 0 || exponential > maxMs ? maxMs : exponential;
    // Equal jitter: half fixed, half random, so the delay never collapses to zero.
    long half = capped / 2;
    return half + ThreadLocalRandom.current().nextLong(capped - half + 1);
  }
}
