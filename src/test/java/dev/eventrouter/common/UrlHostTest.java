package dev.eventrouter.common;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.assertj.core.api.Assertions.assertThat;

/** A URL split around its host. */
class UrlHostTest {

  @ParameterizedTest(name = "{0}")
  @CsvSource(delimiter = '|', value = {
      "https://tracker.example/pb?a=1 | https:// | tracker.example | /pb?a=1 | tracker.example",
      "http://tracker.example:8080/pb | http:// | tracker.example | :8080/pb | tracker.example",
      "http://tracker.example | http:// | tracker.example | '' | tracker.example",
      "http://tracker.example?q=a:b@c | http:// | tracker.example | ?q=a:b@c | tracker.example",
      "http://tracker.example#x:1 | http:// | tracker.example | #x:1 | tracker.example",
      "http://user:pw@127.0.0.1:9/p | http://user:pw@ | 127.0.0.1 | :9/p | 127.0.0.1",
      "http://a@b@10.0.0.1/p@q | http://a@b@ | 10.0.0.1 | /p@q | 10.0.0.1",
      "http://[::1]:8080/p | http:// | [::1] | :8080/p | ::1",
      "http://[fe80::1]/p | http:// | [fe80::1] | /p | fe80::1",
      "http://[::1/p | http:// | [::1 | /p | [::1"})
  @DisplayName("before the host, the host as written, and after it; the name without an IPv6 literal's brackets")
  void parse(String url, String before, String host, String after, String name) {
    UrlHost parts = UrlHost.parse(url);
    assertThat(parts).isEqualTo(new UrlHost(before, host, after));
    assertThat(parts.name()).isEqualTo(name);
    assertThat(parts.withHost(host)).isEqualTo(url);
    assertThat(parts.withHost("203.0.113.9")).isEqualTo(before + "203.0.113.9" + after);
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(delimiter = '|', value = {
      "https://tracker.example/pb | true | tracker.example",
      "HTTPS://tracker.example:8443?q=1 | true | tracker.example:8443",
      "http://u:p@tracker.example:8080#f | false | tracker.example:8080",
      "http://[2001:db8::1]:81/x | false | [2001:db8::1]:81",
      "http://tracker.example: | false | tracker.example:",
      "httpsx://tracker.example | false | tracker.example"})
  @DisplayName("https or not; the host and the port as written, a Host header's value")
  void secureAndHostAndPort(String url, boolean secure, String hostAndPort) {
    UrlHost parts = UrlHost.parse(url);
    assertThat(parts.secure()).isEqualTo(secure);
    assertThat(parts.hostAndPort()).isEqualTo(hostAndPort);
  }

  @Test
  @DisplayName("no host: no parts")
  void noHost() {
    assertThat(UrlHost.parse("tracker.example/pb")).isNull();
    assertThat(UrlHost.parse("http:///pb")).isNull();
    assertThat(UrlHost.parse("http://user@/pb")).isNull();
    assertThat(UrlHost.parse("http://:80/pb")).isNull();
  }
}
