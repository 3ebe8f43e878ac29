package dev.eventrouter.config;

import java.util.List;

/** An invalid configuration; the message names the path of every bad value. */
public final class ConfigException extends RuntimeException {

  private final List<String> problems;

  public ConfigException(List<String> problems) {
    super("invalid configuration:\n  - " + String.join("\n  - ", problems));
    this.problems = List.copyOf(problems);
  }

  /** Each problem, its path first ({@code workspaces[0].keys[2].role: required, ...}). */
  public List<String> problems() {
    return problems;
  }

  public ConfigException(String problem) {
    this(List.of(problem));
  }
}
