package dev.eventrouter.config;

import java.util.List;

/** An invalid configuration; the message names the path of every bad value. */
public final class ConfigException extends RuntimeException {

  private final List<String> problems;

  public ConfigException(List<String> problems) {
    super("invalid configuration:\n  - " + String.join("\n  - ", problems));
    this.problems = List.copyOf(problems);
  }

  public ConfigException(String problem) {
    this(List.of(problem));
  }

  public List<String> problems() {
    return problems;
  }
}
