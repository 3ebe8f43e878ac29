package dev.eventrouter.support;

import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;

import static org.assertj.core.api.Assertions.assertThat;

public final class ApiAssertions {

  private ApiAssertions() {}

  /** Asserts the documented error body, with no stack trace or other field; returns its error object. */
  public static JsonObject assertError(HttpResponse<Buffer> response, int status, String code) {
    assertThat(response.statusCode()).as(response.bodyAsString()).isEqualTo(status);
    assertThat(response.getHeader("Content-Type")).startsWith("application/json");
    JsonObject body = response.bodyAsJsonObject();
    assertThat(body.fieldNames()).containsExactlyInAnyOrder("ok", "error");
    assertThat(body.getBoolean("ok")).isFalse();
    JsonObject error = body.getJsonObject("error");
    assertThat(error.getString("code")).isEqualTo(code);
    assertThat(error.getString("message")).isNotBlank();
    assertThat(error.fieldNames()).isSubsetOf("code", "message", "details");
    assertThat(response.bodyAsString()).doesNotContain("Exception").doesNotContain("\tat ");
    return error;
  }
}
