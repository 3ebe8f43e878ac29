package dev.eventrouter.http;

import dev.eventrouter.config.RateLimitConfig;

import io.netty.util.NetUtil;

import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;

/**
 * A token bucket per client (an IPv4 address, an IPv6 /64), for the requests of publishable keys: a prelanding
 * page's key is public, so besides its workspace's limit each caller gets its own. Buckets of callers who went quiet (full again) are dropped when
 * there are many, so memory stays bounded whatever the number of addresses.
 */
final class IpRateLimiter {

  /** Above this many buckets, the full ones are swept out on the next request. */
  static final int SWEEP_ABOVE = 100_000;

  private final RateLimitConfig config;
  private final LongSupplier nanoClock;
  private final int sweepAbove;
  private final Map<String, TokenBucket> buckets = new ConcurrentHashMap<>();

  IpRateLimiter(RateLimitConfig config, LongSupplier nanoClock) {
    this(config, nanoClock, SWEEP_ABOVE);
  }

  IpRateLimiter(RateLimitConfig config, LongSupplier nanoClock, int sweepAbove) {
    this.config = config;
    this.nanoClock = nanoClock;
    this.sweepAbove = sweepAbove;
  }

  /** Takes one token for this address: 0 to go on, else the seconds until one is free (for Retry-After). */
  long tryAcquire(String ip) {
    long now = nanoClock.getAsLong();
    if (buckets.size() > sweepAbove) {
      buckets.values().removeIf(bucket -> bucket.fullAt(now));
    }
    return buckets.computeIfAbsent(client(ip), k -> new TokenBucket(config, now)).take(now);
  }

  /**
   * Whom a bucket is for: an IPv4 address, or an IPv6 address's /64. One subscriber usually holds a whole /64
   * (https://www.rfc-editor.org/rfc/rfc6177), so counting each of its 2^64 addresses apart would be no limit at all.
   */
  static String client(String ip) {
    byte[] address = NetUtil.createByteArrayFromIpAddressString(ip);
    if (address == null || address.length == 4) {
      return ip;
    }
    Arrays.fill(address, 8, 16, (byte) 0);
    return NetUtil.bytesToIpAddress(address) + "/64";
  }

  int size() {
    return buckets.size();
  }
}
