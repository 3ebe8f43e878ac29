package dev.eventrouter.config;

public record RateLimitConfig(double perSecond, double burst) {

  public static final RateLimitConfig DEFAULT = new RateLimitConfig(1000, 2000);
}
