package dev.eventrouter.api.costs;

import dev.eventrouter.event.SpendRow;

import java.time.LocalDate;
import java.util.List;

/**
 * One push of costs, read and checked: the rows it carries and the period it replaces.
 *
 * @param source who pushed it ({@code push} unless named; {@code keitaro} for Keitaro's route)
 * @param from   the earliest row's day
 * @param to     the latest row's day
 */
public record CostPush(String source, List<SpendRow> rows, LocalDate from, LocalDate to) {

  public CostPush {
    rows = List.copyOf(rows);
  }
}
