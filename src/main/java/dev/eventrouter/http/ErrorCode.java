package dev.eventrouter.http;

import java.util.Arrays;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;

/** The documented error table: HTTP status, error code, and the message a client sees when none more precise fits. */
public enum ErrorCode {
  BAD_REQUEST(400, "bad_request", "The request is not valid HTTP or its path cannot be read."),
  INVALID_JSON(400, "invalid_json", "The request body is not a JSON object."),
  VALIDATION_FAILED(400, "validation_failed", "The request has invalid fields; see details."),
  MACRO_NOT_EXPANDED(400, "macro_not_expanded",
      "A postback parameter still holds the partner's macro (such as {subid}): the partner did not fill it in. Fix "
          + "the macro's name in the postback URL at the partner."),
  UNAUTHORIZED(401, "unauthorized", "Missing or unknown x-api-key."),
  FORBIDDEN(403, "forbidden", "This API key does not belong to the workspace named in the request."),
  NOT_FOUND(404, "not_found", "No such resource."),
  METHOD_NOT_ALLOWED(405, "method_not_allowed", "This method is not allowed on this resource."),
  REQUEST_TIMEOUT(408, "request_timeout", "The request was not received in time (http.read_timeout_ms)."),
  IDEMPOTENCY_CONFLICT(409, "idempotency_conflict",
      "This Idempotency-Key was already used with a different request body in the last 24 hours."),
  PAYLOAD_TOO_LARGE(413, "payload_too_large", "The request body is too large."),
  URI_TOO_LONG(414, "uri_too_long", "The request line is too long."),
  UNSUPPORTED_MEDIA_TYPE(415, "unsupported_media_type", "Content-Type must be application/json."),
  TEST_EVENT_CODE_REQUIRED(422, "test_event_code_required",
      "A credential test needs a test_event_code, the code of the network's test tool, so the test event shows "
          + "there: pass it as the test_event_code query parameter, or set it on the integration."),
  INTEGRATION_NOT_CONFIGURED(422, "integration_not_configured",
      "This integration's pixel or access token is still blank in the config: fill it in, then test it."),
  RATE_LIMITED(429, "rate_limited", "Too many requests for this workspace; retry after the Retry-After delay."),
  HEADERS_TOO_LARGE(431, "headers_too_large", "The request headers are too large."),
  INTERNAL_ERROR(500, "internal_error", "Something went wrong on our side; the request can be retried."),
  // A write may still commit after its requester was answered (rarely: the database stalled mid-commit), so a 503
  // promises nothing either way; a retry with the same Idempotency-Key is what makes it exactly once.
  UNAVAILABLE(503, "unavailable",
      "The request was not confirmed; retry after the Retry-After delay, with the same Idempotency-Key for an event.");

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

  /** The code for a bare status raised by the server, the router or a Vert.x handler (400, 404, 405, 413...). */
  public static ErrorCode forStatus(int status) {
    return BY_STATUS.getOrDefault(status, status / 100 == 4 ? BAD_REQUEST : INTERNAL_ERROR);
  }
}
