package dev.eventrouter.http;

import dev.eventrouter.config.RateLimitConfig;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;

class IpRateLimiterUnitTest {

  private final AtomicLong now = new AtomicLong(1_000_000_000L);

  @Test
  @DisplayName("each address has its own bucket: the burst, then a token per 1/per_second; Retry-After in seconds")
  void perAddress() {
    IpRateLimiter limiter = new IpRateLimiter(new RateLimitConfig(0.5, 2), now::get);
    assertThat(limiter.tryAcquire("198.51.100.1")).isZero();
    assertThat(limiter.tryAcquire("198.51.100.1")).isZero();
    assertThat(limiter.tryAcquire("198.51.100.1")).as("a token every 2 s").isEqualTo(2);
    assertThat(limiter.tryAcquire("198.51.100.2")).as("another visitor").isZero();
    now.addAndGet(2_000_000_000L);
    assertThat(limiter.tryAcquire("198.51.100.1")).isZero();
    assertThat(limiter.tryAcquire("198.51.100.1")).isEqualTo(2);
  }

  @Test
  @DisplayName("past the limit of buckets, those of callers gone quiet (full again) are dropped, busy ones kept")
  void sweep() {
    IpRateLimiter limiter = new IpRateLimiter(new RateLimitConfig(1, 2), now::get, 2);
    limiter.tryAcquire("a");
    limiter.tryAcquire("b");
    limiter.tryAcquire("b");
    limiter.tryAcquire("c");
    assertThat(limiter.size()).isEqualTo(3);
    now.addAndGet(1_000_000_000L); // a and c are full again; b has one token of two
    limiter.tryAcquire("d");
    assertThat(limiter.size()).as("a and c swept, b and d kept").isEqualTo(2);
    assertThat(limiter.tryAcquire("b")).as("b's bucket was kept, not refilled").isZero();
    assertThat(limiter.tryAcquire("b")).isEqualTo(1);
  }

  @Test
  @DisplayName("IPv6 clients are counted per /64, IPv4 ones per address")
  void perSlash64() {
    assertThat(IpRateLimiter.client("2001:db8:1:2:aaaa:bbbb:cccc:dddd")).isEqualTo("2001:db8:1:2::/64");
    assertThat(IpRateLimiter.client("2001:db8:1:2::1")).isEqualTo(IpRateLimiter.client("2001:db8:1:2:ffff::9"));
    assertThat(IpRateLimiter.client("2001:db8:1:3::1")).isNotEqualTo(IpRateLimiter.client("2001:db8:1:2::1"));
    assertThat(IpRateLimiter.client("203.0.113.7")).isEqualTo("203.0.113.7");
    assertThat(IpRateLimiter.client("not an address")).isEqualTo("not an address");
    IpRateLimiter limiter = new IpRateLimiter(new RateLimitConfig(0.001, 2), () -> 0L);
    assertThat(limiter.tryAcquire("2001:db8::1")).isZero();
    assertThat(limiter.tryAcquire("2001:db8::2")).isZero();
    assertThat(limiter.tryAcquire("2001:db8::3")).as("the same /64's third request").isPositive();
    assertThat(limiter.tryAcquire("2001:db8:0:1::3")).as("another /64").isZero();
    assertThat(limiter.size()).isEqualTo(2);
  }
}
