package dev.eventrouter.config;

import java.util.List;

/** An invalid configuration; the message names the path of every bad value. */
public final class ConfigException extends RuntimeException {

  public ConfigException(List<String> problems) {
    super("invalid configuration:\n  - " + String.join("\n  - ", problems));
  }

  public ConfigException(String problem) {
    this(List.of(problem));
  }
}
