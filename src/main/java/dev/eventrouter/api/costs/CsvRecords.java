package dev.eventrouter.api.costs;

import dev.eventrouter.http.ApiException;
import dev.eventrouter.http.ApiException.FieldError;

import java.util.ArrayList;
import java.util.List;

/**
 * Splits CSV text into records as RFC 4180 writes them (https://www.rfc-editor.org/rfc/rfc4180): a value may be
 * double-quoted, holding the delimiter, line breaks and {@code ""} for a quote; lines end with CRLF or LF. Values are
 * trimmed, and a record whose values are all blank (an empty line, or a sheet's empty row {@code ;;;;}) is skipped.
 */
final class CsvRecords {

  /** One record: the line it starts on, counting from 1, and its values. */
  record Record(int line, List<String> values) {}

  private CsvRecords() {}

  /**
   * The delimiter the header, the first line that is not blank, uses: Binom and sheets in RU and EU locales write
   * {@code ;}, others {@code ,}.
   */
  static char delimiter(String text) {
    return text.lines().filter(line -> !line.isBlank()).findFirst().orElse("").indexOf(';') >= 0 ? ';' : ',';
  }

  /**
   * The records, or a validation error naming the line of a broken quote: after one, where each value ends is
   * unknown, so nothing more is read.
   */
  static List<Record> parse(String text, char delimiter) {
    List<Record> records = new ArrayList<>();
    List<String> values = new ArrayList<>();
    StringBuilder value = new StringBuilder();
    int line = 1;
    int start = 1;
    int quoteLine = 0; // the line of the open quote, while in one
    int i = 0;
    while (i < text.length()) {
      char c = text.charAt(i++);
      if (quoteLine > 0) {
        if (c != '"') {
          line += c == '\n' ? 1 : 0;
          value.append(c);
        } else if (i < text.length() && text.charAt(i) == '"') {
          value.append('"');
          i++;
        } else {
          quoteLine = 0;
          if (i < text.length() && !endsValue(text.charAt(i), delimiter)) {
            throw broken(line, "has text after a closing quote; write a quote inside a quoted value as \"\"");
          }
        }
      } else if (c == '"' && value.isEmpty()) { // a closed quote is followed by a value's end, checked above
        quoteLine = line;
      } else if (c == delimiter) {
        values.add(value.toString().strip());
        value.setLength(0);
      } else if (c == '\n' || c == '\r') {
        if (c == '\r' && i < text.length() && text.charAt(i) == '\n') {
          i++;
        }
        add(records, start, values, value);
        start = ++line;
      } else {
        value.append(c);
      }
    }
    if (quoteLine > 0) {
      throw broken(quoteLine, "opens a quoted value that is never closed");
    }
    add(records, start, values, value);
    return records;
  }

  private static boolean endsValue(char c, char delimiter) {
    return c == delimiter || c == '\n' || c == '\r';
  }

  private static void add(List<Record> records, int line, List<String> values, StringBuilder value) {
    values.add(value.toString().strip());
    value.setLength(0);
    if (values.stream().anyMatch(v -> !v.isEmpty())) {
      records.add(new Record(line, List.copyOf(values)));
    }
    values.clear();
  }

  private static ApiException broken(int line, String message) {
    return ApiException.validation(List.of(new FieldError("line " + line, message)));
  }
}
