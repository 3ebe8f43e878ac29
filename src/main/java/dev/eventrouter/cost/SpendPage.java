package dev.eventrouter.cost;

import dev.eventrouter.event.SpendRow;

import java.util.List;

/**
 * One page of a platform's report: its rows, the cursor of the next page (null on the last), and the usage its
 * headers report.
 */
record SpendPage(List<SpendRow> rows, String next, Usage usage) {}
