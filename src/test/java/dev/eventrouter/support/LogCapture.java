package dev.eventrouter.support;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.ThrowableProxyUtil;
import ch.qos.logback.core.read.ListAppender;
import org.slf4j.LoggerFactory;

import java.util.List;
import java.util.stream.Collectors;

/** Captures everything logged, messages and stack traces, between {@link #start()} and {@link #stop()}. */
public final class LogCapture {

  private final ListAppender<ILoggingEvent> appender = new ListAppender<>();
  private final Logger root = (Logger) LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);

  public static LogCapture start() {
    LogCapture capture = new LogCapture();
    capture.appender.start();
    capture.root.addAppender(capture.appender);
    return capture;
  }

  public void stop() {
    root.detachAppender(appender);
    appender.stop();
  }

  /** All captured output as one text, with arguments and stack traces rendered. */
  public String text() {
    List<ILoggingEvent> events = List.copyOf(appender.list);
    return events.stream()
        .map(e -> e.getFormattedMessage()
            + (e.getThrowableProxy() == null ? "" : "\n" + ThrowableProxyUtil.asString(e.getThrowableProxy())))
        .collect(Collectors.joining("\n"));
  }

  /** The values a key had in the MDC of the captured lines: what a JSON log line carries as its own fields. */
  public List<String> mdcValues(String key) {
    return List.copyOf(appender.list).stream().map(e -> e.getMDCPropertyMap().get(key))
        .filter(java.util.Objects::nonNull).toList();
  }

  public int size() {
    return appender.list.size();
  }
}
