package dev.eventrouter.http;

import dev.eventrouter.config.WorkspaceConfig;

import java.util.List;
import java.util.UUID;
import java.util.function.LongSupplier;

/** Who may call, and how often: rebuilt when the config is reloaded, shared by all HttpVerticle instances. */
public final class AccessControl {

  private volatile ApiKeyAuthenticator authenticator;
  private volatile RateLimiter rateLimiter;

  public AccessControl(List<WorkspaceConfig> workspaces, LongSupplier nanoClock) {
    authenticator = new ApiKeyAuthenticator(workspaces);
    rateLimiter = new RateLimiter(workspaces, nanoClock);
  }

  /** Keys are replaced; rate-limit buckets carry over for the workspaces whose limit is unchanged. */
  public void update(List<WorkspaceConfig> workspaces) {
    authenticator = new ApiKeyAuthenticator(workspaces);
    rateLimiter = rateLimiter.reloaded(workspaces);
  }

  WorkspaceConfig authenticate(String key) {
    return authenticator.authenticate(key);
  }

  long tryAcquire(UUID workspaceId) {
    return rateLimiter.tryAcquire(workspaceId);
  }
}
