package dev.eventrouter.forward.webhook;

import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Which URLs have a "." or ".." path segment: only whole segments of the path count, not the host, a segment's
 * part, the query or the fragment. (WebhookApiUnitTest shows such a URL is not requested.)
 */
class WebhookUrlUnitTest {

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"http://h/./x", "http://h/../x", "http://h/x/.", "http://h/x/..", "http://h/a/./b",
      "http://h/a/../b", "https://h:8443/..", "http://h/.", "http://u@h/..?q=1", "http://h/a/..#f",
      "http://[::1]:80/a/../b", "/../x", "/a/.", "a/../b", "http://h/a/..?q=/x#/y"})
  @DisplayName("a '.' or '..' segment at the start, the end or the middle of the path")
  void dotSegment(String url) {
    assertThat(WebhookUrl.hasDotSegment(url)).isTrue();
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"http://h", "http://h:8080", "http://h?q=/../x", "http://h#/../x", "http://h/?q=/../x",
      "http://h/#/..", "http://h/a?x=..#..", "http://h/a#/./", "http://../x", "http://./", "http://h/.../x",
      "http://h/a..b/x", "http://h/.a/b.", "http://h/%2e%2e/x", "http://h/%2E/x", "http://h/a/", "http://h/",
      "http://h/a?/..", "no-slash-here", "..", ".", "?/..", "#/..", "x?q#/../"})
  @DisplayName("no such segment: none in the path, or dots in the host, within a segment, encoded, or after the path")
  void noDotSegment(String url) {
    assertThat(WebhookUrl.hasDotSegment(url)).isFalse();
  }

  @Test
  @DisplayName("{status} is the conversion's status, {previous_status} the one before, empty for the first")
  void statusPlaceholders() {
    JsonObject body = new JsonObject().put("conversion_status", "approved")
        .put("previous_status", "pending").put("value", "55");
    assertThat(WebhookUrl.expand("https://t.example/c?s={status}&was={previous_status}"
        + "&v={value}", body)).isEqualTo("https://t.example/c?s=approved&was=pending&v=55");
    body.putNull("previous_status");
    assertThat(WebhookUrl.expand("https://t.example/c?was={previous_status}", body))
        .isEqualTo("https://t.example/c?was=");
  }
}
