package dev.eventrouter.cost;

import java.util.List;

/**
 * How much a request asks for: days per request, then rows per page, each stepped down when the platform asks for
 * less data, as PostHog's Meta importer does (30, 7, 1 days; 500, 100, 50 rows:
 * https://github.com/PostHog/posthog/tree/master/posthog/temporal/data_imports/sources/meta_ads). Once at one day and
 * the smallest page, the platform's refusal stands.
 */
final class RangePlan {

  static final List<Integer> DAY_STEPS = List.of(30, 7, 1);

  private final int maxDays;
  private final List<Integer> days;
  private final List<Integer> limits;
  private int dayStep;
  private int limitStep;

  RangePlan(int maxDays, List<Integer> limits) {
    this.maxDays = maxDays;
    this.days = DAY_STEPS.stream().filter(d -> d < maxDays).toList();
    this.limits = List.copyOf(limits);
    this.dayStep = -1; // maxDays itself first
    this.limitStep = 0;
  }

  int days() {
    return dayStep < 0 ? maxDays : days.get(dayStep);
  }

  int limit() {
    return limits.get(limitStep);
  }

  /** Steps down the days, else the page size; false when both are at their least. */
  boolean shrink() {
    if (dayStep + 1 < days.size()) {
      dayStep++;
      return true;
    }
    if (limitStep + 1 < limits.size()) {
      limitStep++;
      return true;
    }
    return false;
  }
}
