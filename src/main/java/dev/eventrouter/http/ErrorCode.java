package dev.eventrouter.http;

import java.util.Arrays;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;

/** The documented error table: HTTP status, error code, and the message a client sees when none more precise fits. */
public enum ErrorCode {
  INVALID_JSON(400, "invalid_json", "The request body is not a JSON object."),
  VALIDATION_FAILED(400, "validation_failed", "The request has invalid fields; see details."),
  UNAUTHORIZED(401, "unauthorized", "Missing or unknown x-api-key."),
  FORBIDDEN(403, "forbidden", "This API key does not belong to the workspace named in the request."),
  NOT_FOUND(404, "not_found", "No such resource."),
  METHOD_NOT_ALLOWED(405, "method_not_allowed", "This method is not allowed on this resource."),
  IDEMPOTENCY_CONFLICT(409, "idempotency_conflict",
      "This Idempotency-Key was already used with a different request body in the last 24 hours."),
  PAYLOAD_TOO_LARGE(413, "payload_too_large", "The request body is too large."),
  UNSUPPORTED_MEDIA_TYPE(415, "unsupported_media_type", "Content-Type must be application/json."),
  RATE_LIMITED(429, "rate_limited", "Too many requests for this workspace; retry after the Retry-After delay."),
  INTERNAL_ERROR(500, "internal_error", "Something went wrong on our side; the request can be retried."),
  UNAVAILABLE(503, "unavailable", "The event could not be stored right now and was not accepted; retry later.");

  private static final Map<Integer, ErrorCode> BY_STATUS = Arrays.stream(values())
      .collect(Collectors.toMap(c -> c.status, Function.identity(), (first, second) -> first));

  public final int status;
  public final String code;
  public final String defaultMessage;

  ErrorCode(int status, String code, String defaultMessage) {
    this.status = status;
    this.code = code;
    this.defaultMessage = defaultMessage;
  }

  /** The code for a bare status raised by the router or a Vert.x handler (404, 405, 413, 415...). */
  public static ErrorCode forStatus(int status) {
    return BY_STATUS.getOrDefault(status, status >= 400 && status < 500 ? VALIDATION_FAILED : INTERNAL_ERROR);
  }
}
