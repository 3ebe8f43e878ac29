package dev.eventrouter.event;

import dev.eventrouter.event.ClickData;
import dev.eventrouter.event.ClickSession;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.time.Instant;

import static org.assertj.core.api.Assertions.assertThat;

class ClickDataTest {

  private static ClickSession click(String fbclid, String fbc) {
    return new ClickSession(null, "s", fbclid, fbc, "fb.1.1596403881668.1116446470", "E.C.P.x", "ttp", "203.0.113.7",
        "UA", "https://promo.example.com/", Instant.ofEpochMilli(1_763_600_000_123L), null);
  }

  @Test
  @DisplayName("without a captured fbc, it is built as fb.1.<clicked_at ms>.<fbclid>, the fbclid's case untouched")
  void fbcBuiltFromFbclid() {
    assertThat(ClickData.of(click("IwAR2AbCdEf", null)).fbc()).isEqualTo("fb.1.1763600000123.IwAR2AbCdEf");
  }

  @Test
  @DisplayName("a captured fbc is kept as sent; without fbclid or fbc there is none")
  void capturedFbcWins() {
    assertThat(ClickData.of(click("IwAR2AbCdEf", "fb.1.1554763741205.IwAR2AbCdEf")).fbc())
        .isEqualTo("fb.1.1554763741205.IwAR2AbCdEf");
    assertThat(ClickData.of(click(null, null)).fbc()).isNull();
  }

  @Test
  @DisplayName("the other click fields pass through unchanged")
  void passThrough() {
    ClickData data = ClickData.of(click("f", null));

    assertThat(data).isEqualTo(new ClickData("f", "fb.1.1763600000123.f", "fb.1.1596403881668.1116446470",
        "E.C.P.x", "ttp", "203.0.113.7", "UA", "https://promo.example.com/"));
  }

  @Test
  @DisplayName("Google's and Snapchat's ids pass through; the Google id uploaded is gclid, else gbraid, else wbraid")
  void googleAndSnapchat() {
    ClickIds ids = new ClickIds("g", "b", "w", "sc", "cookie");
    assertThat(ClickData.of(click("f", null).withIds(ids)).ids()).isEqualTo(ids);
    assertThat(ClickData.of(click("f", null)).ids()).isEqualTo(ClickIds.NONE);
    assertThat(ids.google()).isEqualTo(new ClickIds.Google("gclid", "g"));
    assertThat(new ClickIds(null, "b", "w", null, null).google()).isEqualTo(new ClickIds.Google("gbraid", "b"));
    assertThat(new ClickIds(null, null, "w", null, null).google()).isEqualTo(new ClickIds.Google("wbraid", "w"));
    assertThat(new ClickIds(null, null, null, "sc", null).google()).isNull();
    assertThat(ClickIds.NONE.orElse(ids)).isEqualTo(ids);
    assertThat(ids.orElse(ClickIds.NONE)).isEqualTo(ids);
    assertThat(new ClickIds(null, "b2", null, null, "c2").orElse(ids)).isEqualTo(new ClickIds("g", "b2", "w", "sc", "c2"));
  }
}
