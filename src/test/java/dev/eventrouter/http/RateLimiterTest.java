package dev.eventrouter.http;

import dev.eventrouter.config.RateLimitConfig;
import dev.eventrouter.config.WorkspaceConfig;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;

class RateLimiterTest {

  private static final UUID WS = UUID.randomUUID();
  private final AtomicLong nanos = new AtomicLong();

  private RateLimiter limiter(double perSecond, double burst) {
    return new RateLimiter(workspaces(perSecond, burst), 0.5, nanos::get);
  }

  private static List<WorkspaceConfig> workspaces(double perSecond, double burst) {
    return List.of(new WorkspaceConfig(WS, "w", List.of(), List.of(), new RateLimitConfig(perSecond, burst), null, 28,
        List.of(), Map.of(), null));
  }

  @Test
  @DisplayName("a reload keeps an empty bucket empty when the limit is unchanged, and starts anew when it changed")
  void reloadKeepsBuckets() {
    RateLimiter limiter = limiter(0.01, 2);
    limiter.tryAcquire(WS, false);
    limiter.tryAcquire(WS, false);
    assertThat(limiter.tryAcquire(WS, false)).isPositive();

    RateLimiter same = limiter.reloaded(workspaces(0.01, 2));
    assertThat(same.tryAcquire(WS, false)).as("same limit: still empty").isPositive();

    RateLimiter changed = same.reloaded(workspaces(0.01, 5));
    assertThat(changed.tryAcquire(WS, false)).as("new limit: a new, full bucket").isZero();
  }

  @Test
  @DisplayName("a full bucket admits the burst, then refuses with the seconds until the next token")
  void burstThenRefuse() {
    RateLimiter limiter = limiter(0.5, 3);

    for (int i = 0; i < 3; i++) {
      assertThat(limiter.tryAcquire(WS, false)).isZero();
    }
    assertThat(limiter.tryAcquire(WS, false)).isEqualTo(2);
  }

  @Test
  @DisplayName("tokens come back at per_second, never beyond the burst")
  void refill() {
    RateLimiter limiter = limiter(10, 2);
    limiter.tryAcquire(WS, false);
    limiter.tryAcquire(WS, false);
    assertThat(limiter.tryAcquire(WS, false)).isEqualTo(1);

    nanos.addAndGet(100_000_000); // 0.1 s = one token
    assertThat(limiter.tryAcquire(WS, false)).isZero();
    assertThat(limiter.tryAcquire(WS, false)).isPositive();

    nanos.addAndGet(60_000_000_000L); // a minute: the bucket is full again, at 2
    assertThat(limiter.tryAcquire(WS, false)).isZero();
    assertThat(limiter.tryAcquire(WS, false)).isZero();
    assertThat(limiter.tryAcquire(WS, false)).isPositive();
  }

  @Test
  @DisplayName("Retry-After counts only the missing part of a token; a refusal takes nothing; no bucket, no limit")
  void partialToken() {
    RateLimiter limiter = limiter(0.25, 1);
    assertThat(limiter.tryAcquire(WS, false)).isZero();

    nanos.addAndGet(3_000_000_000L); // three quarters of a token back: one more second to wait
    assertThat(limiter.tryAcquire(WS, false)).isEqualTo(1);
    nanos.addAndGet(1_000_000_000L);
    assertThat(limiter.tryAcquire(WS, false)).as("the refusal took no token").isZero();
    assertThat(limiter.tryAcquire(UUID.randomUUID(), false)).isZero();
  }

  @Test
  @DisplayName("publishable keys draw from a bucket of their own, a share of the limit: emptying it leaves the API "
      + "keys' bucket whole, and a reload keeps both")
  void publishableShare() {
    RateLimiter limiter = limiter(0.001, 10);
    for (int i = 0; i < 5; i++) {
      assertThat(limiter.tryAcquire(WS, true)).as("publishable %d", i).isZero();
    }
    assertThat(limiter.tryAcquire(WS, true)).as("half the burst of 10").isPositive();
    RateLimiter reloaded = limiter.reloaded(workspaces(0.001, 10));
    assertThat(reloaded.tryAcquire(WS, true)).as("still empty after a reload").isPositive();
    for (int i = 0; i < 10; i++) {
      assertThat(reloaded.tryAcquire(WS, false)).as("API key %d", i).isZero();
    }
    assertThat(reloaded.tryAcquire(WS, false)).isPositive();
    assertThat(reloaded.tryAcquire(UUID.randomUUID(), true)).as("unknown workspace").isZero();
    assertThat(RateLimiter.shareOf(new RateLimitConfig(10, 3), 0.25)).isEqualTo(new RateLimitConfig(2.5, 1));
    assertThat(RateLimiter.shareOf(new RateLimitConfig(10, 8), 0.5)).isEqualTo(new RateLimitConfig(5, 4));
  }
}
