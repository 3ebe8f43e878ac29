package dev.eventrouter.support;

import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;

import static org.assertj.core.api.Assertions.assertThat;

public final class ApiAssertions {

  private ApiAssertions() {}

  /** The same for an answer read over a raw socket; it also carries the request id header. */
  public static JsonObject assertError(RawHttp.Response response, int status, String code) {
    assertThat(response.status()).as(response.text()).isEqualTo(status);
    assertThat(response.headers().get("content-type")).startsWith("application/json");
    assertThat(response.headers()).containsKey("x-request-id");
    JsonObject body = response.json();
    assertThat(body).as(response.text()).isNotNull();
    assertThat(body.fieldNames()).containsExactlyInAnyOrder("ok", "error");
    assertThat(body.getBoolean("ok")).isFalse();
    JsonObject error = body.getJsonObject("error");
    assertThat(error.getString("code")).isEqualTo(code);
    assertThat(error.getString("message")).isNotBlank();
    assertThat(response.text()).doesNotContain("Exception").doesNotContain("\tat ");
    return error;
  }

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
