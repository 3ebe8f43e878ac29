package dev.eventrouter.http;

import io.netty.handler.codec.http.QueryStringDecoder;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.net.URISyntaxException;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** URLs as browsers write them: what URI refuses but a landing page's address carries. */
class BrowserUrlUnitTest {

  private static Map<String, List<String>> query(String url) throws URISyntaxException {
    return new QueryStringDecoder(BrowserUrl.parse(url)).parameters();
  }

  @Test
  @DisplayName("unexpanded macros, pipes, carets, backticks and a lone % parse, and their parameters read as written")
  void printableForbiddenCharacters() throws URISyntaxException {
    assertThat(query("https://lp.example/o?campaignid={campaignid}&c=SMs|{{ad.id}}&t=a^b`c&gclid=Cj0"))
        .containsEntry("campaignid", List.of("{campaignid}")).containsEntry("c", List.of("SMs|{{ad.id}}"))
        .containsEntry("t", List.of("a^b`c")).containsEntry("gclid", List.of("Cj0"));
    assertThat(query("https://lp.example/?p=100%&q=%4&r=%zz&s=%41")).containsEntry("p", List.of("100%"))
        .containsEntry("q", List.of("%4")).containsEntry("r", List.of("%zz")).containsEntry("s", List.of("A"));
    assertThat(BrowserUrl.parse("https://lp.example/a{b}").getHost()).isEqualTo("lp.example");
    assertThat(BrowserUrl.parse("https://lp.example/%").getRawPath()).isEqualTo("/%25");
    assertThat(BrowserUrl.parse("https://lp.example/?a=%4").getRawQuery()).isEqualTo("a=%254");
    assertThat(BrowserUrl.parse("https://lp.example/?a=%41").getRawQuery()).isEqualTo("a=%41");
  }

  @Test
  @DisplayName("what browsers escape themselves is refused as before: markup, quotes, spaces, control characters, NUL")
  void stillRefused() {
    assertThatThrownBy(() -> BrowserUrl.parse("https://lp.example/?q=<script>")).isInstanceOf(URISyntaxException.class);
    assertThatThrownBy(() -> BrowserUrl.parse("https://lp.example/?q=\"x\"")).isInstanceOf(URISyntaxException.class);
    assertThatThrownBy(() -> BrowserUrl.parse("https://lp.example/a\\b")).isInstanceOf(URISyntaxException.class);
    assertThatThrownBy(() -> BrowserUrl.parse("https://lp.example/?a=b c")).isInstanceOf(URISyntaxException.class);
    assertThatThrownBy(() -> BrowserUrl.parse("https://lp.example/?a=\u0000")).isInstanceOf(URISyntaxException.class);
    assertThatThrownBy(() -> BrowserUrl.parse("https://lp.example/?a=\n")).isInstanceOf(URISyntaxException.class);
  }
}
