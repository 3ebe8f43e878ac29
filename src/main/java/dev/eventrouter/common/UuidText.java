package dev.eventrouter.common;

import java.util.UUID;
import java.util.regex.Pattern;

/** A UUID written as text, strictly (8-4-4-4-12 hex digits): {@link UUID#fromString} alone accepts shorter forms. */
public final class UuidText {

  private static final Pattern UUID_TEXT =
      Pattern.compile("[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}");

  private UuidText() {}

  /** The UUID, or null when the value is not a string in the canonical form. */
  public static UUID parse(Object value) {
    return value instanceof String text && UUID_TEXT.matcher(text).matches() ? UUID.fromString(text) : null;
  }
}
