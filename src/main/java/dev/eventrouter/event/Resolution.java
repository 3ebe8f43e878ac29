package dev.eventrouter.event;

/**
 * The session an event is linked to and where it came from.
 *
 * @param sessionId the session, or null when none was found
 * @param source    {@code supplied}, {@code invite}, {@code analytics}, {@code last_known} or {@code none}
 */
public record Resolution(String sessionId, String source) {

  public static final String SUPPLIED = "supplied";
  public static final String NONE = "none";

  public static Resolution supplied(String sessionId) {
    return new Resolution(sessionId, SUPPLIED);
  }

  public static Resolution none() {
    return new Resolution(null, NONE);
  }
}
