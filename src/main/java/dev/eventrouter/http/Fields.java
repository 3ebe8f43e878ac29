package dev.eventrouter.http;

import dev.eventrouter.common.UuidText;
import dev.eventrouter.http.ApiException.FieldError;
import io.netty.util.NetUtil;
import io.vertx.core.json.JsonObject;

import java.net.URI;
import java.net.URISyntaxException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.regex.Pattern;

/**
 * Reads the fields of one request body, collecting one error per bad field, so a client fixes them all in one go.
 * {@code null} counts as absent. Call {@link #throwIfInvalid()} when done.
 */
public final class Fields {

  // The alphabet Telegram allows in a /start payload.
  public static final Pattern SESSION_ID = Pattern.compile("[A-Za-z0-9_-]{1,64}");
  /** Printable ASCII without spaces: click ids and cookie values. */
  public static final String TOKEN = "[!-~]";

  private final JsonObject body;
  private final List<FieldError> errors = new ArrayList<>();

  public Fields(JsonObject body, Set<String> known) {
    this.body = body;
    for (String field : body.fieldNames()) {
      if (!known.contains(field)) {
        errors.add(new FieldError(field, "unknown field"));
      }
    }
  }

  /** The workspace the body names, when it names one well-formed; used to answer 403 before anything else. */
  static UUID namedWorkspace(JsonObject body) {
    return UuidText.parse(body.getValue("workspace_id"));
  }

  public Object raw(String field) {
    return body.getValue(field);
  }

  public void error(String field, String message) {
    errors.add(new FieldError(field, message));
  }

  public void throwIfInvalid() {
    if (!errors.isEmpty()) {
      throw ApiException.validation(errors);
    }
  }

  public UUID workspaceId() {
    UUID id = namedWorkspace(body);
    if (id == null) {
      error("workspace_id", raw("workspace_id") == null ? "required" : "must be a UUID string");
    }
    return id;
  }

  public long telegramId() {
    Object value = raw("telegram_id");
    if ((value instanceof Integer || value instanceof Long) && ((Number) value).longValue() > 0) {
      return ((Number) value).longValue();
    }
    error("telegram_id", value == null ? "required" : "must be a JSON integer from 1 to 9223372036854775807");
    return 0;
  }

  public String sessionId(boolean required) {
    Object value = raw("session_id");
    if (value == null && !required) {
      return null;
    }
    if (value instanceof String text && SESSION_ID.matcher(text).matches()) {
      return text;
    }
    error("session_id", value == null ? "required" : "must be 1 to 64 characters of A-Z a-z 0-9 _ -");
    return null;
  }

  /** An optional string matching the pattern (which sets the allowed length too). */
  public String optional(String field, Pattern pattern, String rule) {
    Object value = raw(field);
    if (value == null) {
      return null;
    }
    if (value instanceof String text && pattern.matcher(text).matches()) {
      return text;
    }
    error(field, rule);
    return null;
  }

  /** An optional absolute http(s) URL. */
  public String url(String field, int maxLength) {
    Object value = raw(field);
    if (value == null) {
      return null;
    }
    if (value instanceof String text && text.length() <= maxLength) {
      try {
        URI uri = BrowserUrl.parse(text);
        if (("http".equalsIgnoreCase(uri.getScheme()) || "https".equalsIgnoreCase(uri.getScheme()))
            && uri.getHost() != null) {
          return text;
        }
      } catch (URISyntaxException invalid) {
        // reported below
      }
    }
    error(field, "must be an absolute http(s) URL of at most " + maxLength + " characters");
    return null;
  }

  /** An optional JSON boolean. */
  public Boolean optionalBoolean(String field) {
    Object value = raw(field);
    if (value != null && !(value instanceof Boolean)) {
      error(field, "must be true or false");
    }
    return value instanceof Boolean b ? b : null;
  }

  /** An optional IPv4 or IPv6 literal; never resolved as a host name. */
  public String ipAddress(String field) {
    Object value = raw(field);
    if (value == null) {
      return null;
    }
    if (value instanceof String text && (NetUtil.isValidIpV4Address(text) || NetUtil.isValidIpV6Address(text))) {
      return text;
    }
    error(field, "must be an IPv4 or IPv6 address");
    return null;
  }

  /** An optional instant, as ISO-8601 text or epoch milliseconds, between {@code earliest} and {@code latest}. */
  public Instant instant(String field, Instant earliest, Instant latest) {
    Object value = raw(field);
    if (value == null) {
      return null;
    }
    Instant instant = null;
    if (value instanceof Integer || value instanceof Long) {
      instant = Instant.ofEpochMilli(((Number) value).longValue());
    } else if (value instanceof String text) {
      try {
        instant = OffsetDateTime.parse(text).toInstant();
      } catch (DateTimeParseException invalid) {
        // reported below
      }
    }
    if (instant != null && !instant.isBefore(earliest) && !instant.isAfter(latest)) {
      return instant;
    }
    error(field, "must be an ISO-8601 instant (2026-01-31T12:00:00Z) or epoch milliseconds, not in the future");
    return null;
  }
}
