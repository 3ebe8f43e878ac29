package dev.eventrouter.store;

import java.time.Instant;
import java.util.UUID;

/**
 * One condition of one workspace about one subject (an integration, a postback source, a channel; "" for the
 * workspace), as kept between alert rounds.
 *
 * @param activeSince when the condition was first seen holding; null while it does not
 * @param firing      whether it fires: it holds, and has held long enough
 * @param told        what the last message said: {@link #FIRING}, {@link #RESOLVED}, or null before any
 * @param lastSentAt  when the last message was queued; null before any
 * @param pending     occurrences since the last message, told in the next summary
 * @param detail      the latest words about them (the network's, Telegram's, the partner's), or null
 */
public record AlertState(UUID workspaceId, String condition, String subject, Instant activeSince, boolean firing,
                         String told, Instant lastSentAt, long pending, String detail) {

  public static final String FIRING = "firing";
  public static final String RESOLVED = "resolved";
}
