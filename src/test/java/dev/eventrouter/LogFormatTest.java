package dev.eventrouter;

import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.joran.JoranConfigurator;
import ch.qos.logback.classic.util.LogbackMDCAdapter;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;

/** The shipped logback.xml, configured into a context of its own, as LOG_FORMAT selects it. */
class LogFormatTest {

  /** Logs one line with a request id through the shipped config, with LOG_FORMAT set; returns what it printed. */
  private static String logWith(String logFormat) throws Exception {
    LoggerContext context = new LoggerContext();
    context.setMDCAdapter(new LogbackMDCAdapter());
    if (logFormat != null) {
      context.putProperty("LOG_FORMAT", logFormat);
    }
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    PrintStream original = System.out;
    System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
    try {
      JoranConfigurator configurator = new JoranConfigurator();
      configurator.setContext(context);
      configurator.doConfigure(LogFormatTest.class.getResource("/logback.xml"));
      Logger log = context.getLogger("dev.eventrouter.http.ErrorResponder");
      context.getMDCAdapter().put("request_id", "client-7");
      log.error("request {} GET /x failed", "client-7");
      context.getMDCAdapter().clear();
    } finally {
      System.setOut(original);
      context.stop();
    }
    return out.toString(StandardCharsets.UTF_8);
  }

  @Test
  @DisplayName("LOG_FORMAT=json: one JSON object per line, with the request id as its own field")
  void json() throws Exception {
    String printed = logWith("json");
    assertThat(printed.lines()).hasSize(1);
    JsonObject line = new JsonObject(printed.strip());
    assertThat(line.getString("message")).isEqualTo("request client-7 GET /x failed");
    assertThat(line.getString("level")).isEqualTo("ERROR");
    assertThat(line.getString("logger_name")).isEqualTo("dev.eventrouter.http.ErrorResponder");
    assertThat(line.getString("request_id")).isEqualTo("client-7");
    assertThat(line.getString("@timestamp")).isNotBlank();
  }

  @Test
  @DisplayName("by default, and with LOG_FORMAT=text: plain text lines for a terminal")
  void text() throws Exception {
    for (String format : new String[] {null, "text"}) {
      String printed = logWith(format);
      assertThat(printed).as(String.valueOf(format))
          .matches("\\d\\d:\\d\\d:\\d\\d\\.\\d{3} ERROR \\[.+] d\\.e\\.http\\.ErrorResponder - "
              + "request client-7 GET /x failed\\R");
    }
  }

  @Test
  @DisplayName("any other LOG_FORMAT is refused before the start, rather than leaving the service without logs")
  void otherValuesRefused() {
    assertThat(Main.logFormatProblem(null)).isNull();
    assertThat(Main.logFormatProblem("json")).isNull();
    assertThat(Main.logFormatProblem("text")).isNull();
    assertThat(Main.logFormatProblem("JSON")).isEqualTo("LOG_FORMAT must be text (the default) or json, not 'JSON'");
  }
}
