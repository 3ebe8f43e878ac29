package dev.eventrouter.store;

import dev.eventrouter.event.FunnelQuery;

import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

import static dev.eventrouter.store.FunnelRollups.SUMMED;
import static dev.eventrouter.store.FunnelRollups.SUMS;

/**
 * Which rollup rows a funnel report adds up ({@link FunnelReports}): the coarsest layer that answers it, as a
 * subquery and its parameters.
 */
final class FunnelLayers {

  /**
   * A report's rows carry their day in the report's zone ($4), a date: an hour's is worked out for each hourly row,
   * a day row's is its own (or it is not read).
   */
  private static final String DAY_OF_HOUR = "(hour AT TIME ZONE $4)::date AS day";

  private FunnelLayers() {}

  /**
   * The rows a report adds up, from the coarsest layer that answers it: the hourly totals when it neither groups nor
   * filters by any dimension but the day; else, when the workspace's day rows are in its report zone
   * ({@code dayLayer}), the days wholly inside its range (and the hours at its edges), or, grouped by the days of
   * another zone, those days shifted ({@link #shiftedDays}); else the hours. Each part is summed by what the report
   * reads before the parts are added up. Binds the day layer's bounds into {@code params}.
   */
  static String source(FunnelQuery query, List<String> groupBy, boolean dayLayer, List<Object> params) {
    Reading read = Reading.of(query, groupBy);
    String hoursFrom = "funnel_rollup WHERE workspace_id = $1 AND ";
    String allHours = read.part(DAY_OF_HOUR, hoursFrom + "hour >= $2 AND hour < $3");
    if (read.dimensions().isEmpty()) {
      return read.part(DAY_OF_HOUR, "funnel_rollup_total WHERE workspace_id = $1 AND hour >= $2 AND hour < $3");
    }
    if (!dayLayer) {
      return allHours; // a changed report_timezone whose day rows the next round makes again
    }
    ZoneId dayZone = query.dayZone();
    boolean sameDays = !read.day() || query.zone().normalized().equals(dayZone.normalized());
    if (!sameDays) {
      String shifted = shiftedDays(query, read, params);
      return shifted != null ? shifted : allHours;
    }
    LocalDate firstDay = LocalDate.ofInstant(query.from(), dayZone);
    if (firstDay.atStartOfDay(dayZone).toInstant().isBefore(query.from())) {
      firstDay = firstDay.plusDays(1);
    }
    LocalDate endDay = LocalDate.ofInstant(query.to(), dayZone);
    if (!firstDay.isBefore(endDay)) {
      return allHours;
    }
    // Each part its own range, so each is an index range (an OR of two ranges would be read as a scan).
    List<String> parts = new ArrayList<>();
    Instant daysStart = firstDay.atStartOfDay(dayZone).toInstant();
    Instant daysEnd = endDay.atStartOfDay(dayZone).toInstant();
    if (query.from().isBefore(daysStart)) {
      parts.add(read.part(DAY_OF_HOUR, hoursFrom + "hour >= $2 AND hour < "
          + bind(params, daysStart.atOffset(ZoneOffset.UTC))));
    }
    if (daysEnd.isBefore(query.to())) {
      parts.add(read.part(DAY_OF_HOUR, hoursFrom + "hour >= " + bind(params, daysEnd.atOffset(ZoneOffset.UTC))
          + " AND hour < $3"));
    }
    // Read by day, these are days of the query's zone (sameDays).
    parts.add(read.part("day", "funnel_rollup_day WHERE workspace_id = $1 AND day >= " + bind(params, firstDay)
        + " AND day < " + bind(params, endDay)));
    return String.join(" UNION ALL ", parts);
  }

  /**
   * What a report reads of its rows: the dimensions it groups or filters by, and whether their day.
   *
   * @param dimensions in the order of {@link FunnelQuery#DIMENSIONS}
   */
  private record Reading(List<String> dimensions, boolean day) {

    static Reading of(FunnelQuery query, List<String> groupBy) {
      return new Reading(FunnelQuery.DIMENSIONS.stream()
          .filter(d -> groupBy.contains(d) || query.filters().containsKey(d)).toList(),
          groupBy.contains(FunnelQuery.DAY) || query.filters().containsKey(FunnelQuery.DAY));
    }

    /** The dimensions read, each after {@code prefix} and followed by a comma. */
    String columns(String prefix) {
      return dimensions.stream().map(d -> prefix + d + ", ").collect(Collectors.joining());
    }

    /**
     * The rows of {@code from} (a table and its conditions) summed by this reading: its day ({@code day}, an
     * expression; none when the day is not read), the dimensions read (the only ones a report's parts carry), and
     * the step.
     */
    String part(String day, String from) {
      return "SELECT " + (this.day ? day : "NULL::date AS day") + ", " + columns("") + "step, " + SUMMED
          + " FROM " + from + " GROUP BY " + (this.day ? "1, " : "") + columns("") + "step";
    }
  }

  /**
   * The days of a zone other than the day layer's, from the day layer: a day of the query's zone is the layer's day
   * of the same date, plus the hours it begins earlier (or minus those it begins later) and minus the hours it ends
   * earlier (or plus those it ends later), read from the hourly layer. So a month reads its days and a few hours a
   * day (two for Europe/Berlin against UTC), not every hour. Each row carries the date of its day in the query's zone.
   * Null (read the hours) when the range is not whole days of the query's zone, or a day's edge is not a whole hour
   * (a zone offset by a half hour).
   */
  private static String shiftedDays(FunnelQuery query, Reading read, List<Object> params) {
    ZoneId zone = query.zone();
    ZoneId dayZone = query.dayZone();
    LocalDate first = LocalDate.ofInstant(query.from(), zone);
    LocalDate end = LocalDate.ofInstant(query.to(), zone);
    if (!first.atStartOfDay(zone).toInstant().equals(query.from())
        || !end.atStartOfDay(zone).toInstant().equals(query.to())) {
      return null;
    }
    List<OffsetDateTime> edgeHours = new ArrayList<>();
    List<LocalDate> edgeDays = new ArrayList<>();
    List<Integer> signs = new ArrayList<>();
    for (LocalDate day = first; day.isBefore(end); day = day.plusDays(1)) {
      Instant start = day.atStartOfDay(zone).toInstant();
      Instant layerStart = day.atStartOfDay(dayZone).toInstant();
      Instant layerEnd = day.plusDays(1).atStartOfDay(dayZone).toInstant();
      Instant nextStart = day.plusDays(1).atStartOfDay(zone).toInstant();
      if (!wholeHour(start) || !wholeHour(layerStart) || !wholeHour(layerEnd) || !wholeHour(nextStart)) {
        return null;
      }
      // Begins earlier than the layer's day: add those hours; later: take them away. The same at the end, reversed.
      edge(start, layerStart, day, edgeHours, edgeDays, signs);
      edge(layerEnd, nextStart, day, edgeHours, edgeDays, signs);
    }
    String edgeSums = String.join(", ", SUMS.stream().map(sum -> "r." + sum + " * l.sign AS " + sum).toList());
    // An edge hour counts for two days (added to one, taken from the next), so each is summed by what the report
    // reads before it is labelled: a few rows an hour, not one per hour and combination of every dimension, twice.
    // A day row's date is its day's in the query's zone too. The edge hours' own condition (each hour once) lets
    // the planner read them by the key; the join only labels them.
    String dayRows = read.part("day", "funnel_rollup_day WHERE workspace_id = $1 AND day >= " + bind(params, first)
        + " AND day < " + bind(params, end));
    String hourSums = "SELECT hour, " + read.columns("") + "step, " + SUMMED + " FROM funnel_rollup"
        + " WHERE workspace_id = $1 AND hour = ANY(" + bind(params, edgeHours.stream().distinct()
        .toArray(OffsetDateTime[]::new)) + "::timestamptz[]) GROUP BY hour, " + read.columns("") + "step";
    String edges = "SELECT l.day, " + read.columns("r.") + "r.step, " + edgeSums + " FROM (" + hourSums + ") r"
        + " JOIN unnest(" + bind(params, edgeHours.toArray(OffsetDateTime[]::new)) + "::timestamptz[], "
        + bind(params, edgeDays.toArray(LocalDate[]::new)) + "::date[], "
        + bind(params, signs.toArray(Integer[]::new)) + "::int[]) AS l(hour, day, sign) ON r.hour = l.hour";
    return dayRows + " UNION ALL " + edges;
  }

  /**
   * The hours between {@code from} and {@code to} for {@code day}: added (1) when {@code from} comes first, taken
   * away (-1) when {@code to} does.
   */
  private static void edge(Instant from, Instant to, LocalDate day, List<OffsetDateTime> hours,
                           List<LocalDate> days, List<Integer> signs) {
    boolean added = from.isBefore(to);
    for (Instant hour = added ? from : to; hour.isBefore(added ? to : from); hour = hour.plus(Duration.ofHours(1))) {
      hours.add(hour.atOffset(ZoneOffset.UTC));
      days.add(day);
      signs.add(added ? 1 : -1);
    }
  }

  private static boolean wholeHour(Instant instant) {
    return instant.getEpochSecond() % 3600 == 0 && instant.getNano() == 0;
  }

  /** Adds a parameter; its placeholder. */
  /** Binds a value as the next parameter: its placeholder. */
  static String bind(List<Object> params, Object value) {
    params.add(value);
    return "$" + params.size();
  }
}
