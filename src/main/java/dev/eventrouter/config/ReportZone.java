package dev.eventrouter.config;

import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The time zones a funnel report's days may be read in: those java.time and PostgreSQL read alike, an IANA zone of
 * the Area/Location form (Europe/Berlin, Pacific/Kiritimati, Etc/GMT-14) or UTC. An offset is refused
 * ({@code +14:00}, {@code UTC+14:00}, {@code GMT+5}): PostgreSQL reads one as a POSIX zone, whose sign is the other
 * way round (https://www.postgresql.org/docs/current/datetime-posix-timezone-specs.html), so its days would be
 * counted 28 hours off. So is a bare id that PostgreSQL takes for an abbreviation of a fixed offset before it looks
 * for a zone (CET, EET, MET, WET: no summer time there,
 * https://www.postgresql.org/docs/current/datetime-config-files.html), and the SystemV ids it no longer knows.
 */
public final class ReportZone {

  public static final String RULE = "must be an IANA time zone such as Europe/Berlin or UTC, not an offset (a fixed "
      + "UTC+03:00 is Etc/GMT-3)";

  private static final Set<String> IDS = ZoneId.getAvailableZoneIds().stream()
      .filter(id -> id.equals("UTC") || id.contains("/") && !id.startsWith("SystemV/"))
      .collect(Collectors.toUnmodifiableSet());

  private ReportZone() {}

  /** The zone of an id as {@link #RULE} asks, or null. */
  public static ZoneId of(String id) {
    return IDS.contains(id) ? ZoneId.of(id) : null;
  }

  /**
   * A workspace's report zone, or null: as {@link #of}, with one id for UTC however it is spelled, since the day
   * rows' zone is kept by id and a new id makes them again. Any other zone keeps its region id: normalized, Etc/GMT-14
   * would be +14:00, which PostgreSQL reads as UTC-14.
   */
  static ZoneId configured(String id) {
    ZoneId zone = of(id);
    return zone != null && zone.normalized().equals(ZoneOffset.UTC) ? ZoneOffset.UTC : zone;
  }
}
