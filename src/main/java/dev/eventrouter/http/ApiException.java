package dev.eventrouter.http;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.List;

/** A documented API error raised by a handler and rendered by {@link ErrorResponder}. */
public final class ApiException extends RuntimeException {

  /** One invalid field of a request. */
  public record FieldError(String field, String message) {}

  private final ErrorCode code;
  private final List<FieldError> details;
  private final Long retryAfterSeconds;

  public ApiException(ErrorCode code, String message, List<FieldError> details, Long retryAfterSeconds) {
    // No stack trace: these are expected outcomes, raised per request.
    super(message == null ? code.defaultMessage : message, null, false, false);
    this.code = code;
    this.details = details == null ? List.of() : List.copyOf(details);
    this.retryAfterSeconds = retryAfterSeconds;
  }

  public ApiException(ErrorCode code) {
    this(code, null, null, null);
  }

  public static ApiException validation(List<FieldError> details) {
    return new ApiException(ErrorCode.VALIDATION_FAILED, null, details, null);
  }

  public static ApiException retryLater(ErrorCode code, long retryAfterSeconds) {
    return new ApiException(code, null, null, retryAfterSeconds);
  }

  public ErrorCode code() {
    return code;
  }

  public Long retryAfterSeconds() {
    return retryAfterSeconds;
  }

  public JsonObject toJson() {
    JsonObject error = new JsonObject().put("code", code.code).put("message", getMessage());
    if (!details.isEmpty()) {
      JsonArray array = new JsonArray();
      details.forEach(d -> array.add(new JsonObject().put("field", d.field()).put("message", d.message())));
      error.put("details", array);
    }
    return new JsonObject().put("ok", false).put("error", error);
  }
}
