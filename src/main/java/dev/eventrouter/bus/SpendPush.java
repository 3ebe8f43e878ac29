package dev.eventrouter.bus;

import dev.eventrouter.event.SpendRow;

import java.time.LocalDate;
import java.util.List;
import java.util.UUID;

/**
 * A push of ad spend: what the days {@code from} to {@code to} had from {@code source} (of one object when
 * {@code level} is not null: Keitaro's push names one) is replaced by {@code rows}. Sent to this node's own verticle
 * as the record itself ({@link LocalCodec}): a push may hold 10,000 rows.
 */
public record SpendPush(UUID workspaceId, String source, LocalDate from, LocalDate to, String level, String objectId,
                        List<SpendRow> rows) {

  public SpendPush {
    rows = List.copyOf(rows);
  }
}
