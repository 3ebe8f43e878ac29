package dev.eventrouter.http;

import dev.eventrouter.config.ApiKeys;
import dev.eventrouter.config.PostbackSource;
import dev.eventrouter.config.WorkspaceConfig;

import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.function.LongSupplier;

/**
 * The postback sources of every workspace, by the digest of their URL token, each with a token bucket at its
 * workspace's rate limit: one partner firing too fast never takes the workspace's own API budget. Rebuilt when the
 * config is reloaded; a source whose limit is unchanged keeps its bucket.
 */
public final class PostbackSources {

  /** Tokens are made at least this long (generate-postback-token makes 32): a shorter one is no token of ours. */
  static final int MIN_TOKEN_LENGTH = 24;
  static final int MAX_TOKEN_LENGTH = 200;

  /** A source, its workspace, and its rate limit's bucket. */
  public record Entry(WorkspaceConfig workspace, PostbackSource source, TokenBucket bucket) {}

  private final Map<String, Entry> byDigest = new HashMap<>();
  private final LongSupplier nanoClock;

  public PostbackSources(List<WorkspaceConfig> workspaces, LongSupplier nanoClock, PostbackSources before) {
    this.nanoClock = nanoClock;
    long now = nanoClock.getAsLong();
    for (WorkspaceConfig workspace : workspaces) {
      for (PostbackSource source : workspace.postbackSources()) {
        String digest = HexFormat.of().formatHex(source.tokenHash());
        Entry old = before == null ? null : before.byDigest.get(digest);
        TokenBucket bucket = old != null && old.bucket().config().equals(workspace.rateLimit()) ? old.bucket()
            : new TokenBucket(workspace.rateLimit(), now);
        byDigest.put(digest, new Entry(workspace, source, bucket));
      }
    }
  }

  /** The source of this URL token, or null: compared by digest, as API keys are. */
  public Entry find(String token) {
    if (token == null || token.length() < MIN_TOKEN_LENGTH || token.length() > MAX_TOKEN_LENGTH) {
      return null;
    }
    return byDigest.get(HexFormat.of().formatHex(ApiKeys.digest(token)));
  }

  /** 0 when the source may post now, else the seconds until it may (Retry-After). */
  public long tryAcquire(Entry entry) {
    return entry.bucket().take(nanoClock.getAsLong());
  }
}
