package dev.eventrouter.http;

import io.vertx.core.json.JsonObject;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** For the filter readers' tests: the fields a refused read names. */
public final class ValidationErrors {

  private ValidationErrors() {}

  /** The fields of the 400 {@code read} throws, in order; an assertion error when it throws none. */
  public static List<String> badFields(Runnable read) {
    try {
      read.run();
    } catch (ApiException e) {
      assertThat(e.code()).isEqualTo(ErrorCode.VALIDATION_FAILED);
      return e.toJson().getJsonObject("error").getJsonArray("details").stream()
          .map(d -> ((JsonObject) d).getString("field")).toList();
    }
    throw new AssertionError("no 400");
  }
}
