package dev.eventrouter.config;

import java.util.List;

/**
 * Where a conversion stands, in the four words the field's trackers share (BeMob's New / Confirmed / Declined /
 * Chargeback, https://docs.bemob.com/en/postbacks-for-selected-statuses; RedTrack's pending / approved / declined):
 * an event without one is {@link #APPROVED}, as every event was before statuses existed.
 */
public final class ConversionStatus {

  public static final String PENDING = "pending";
  public static final String APPROVED = "approved";
  public static final String REJECTED = "rejected";
  public static final String CHARGEBACK = "chargeback";

  /** Every status, in the order a conversion usually moves through them. */
  public static final List<String> ALL = List.of(PENDING, APPROVED, REJECTED, CHARGEBACK);

  private ConversionStatus() {}

  /** The status of a stored event, whose column is null for events stored before statuses existed. */
  public static String orApproved(String status) {
    return status == null ? APPROVED : status;
  }
}
