package dev.eventrouter.support;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/** POSIX signals to processes, for the faults Java cannot cause by itself: SIGSTOP freezes, SIGCONT thaws. */
final class Signals {

  private Signals() {}

  /** Sends {@code kill -<signal>} to the process and all its descendants. */
  static void send(String signal, ProcessHandle process) {
    String pids = Stream.concat(Stream.of(process), process.descendants())
        .map(p -> String.valueOf(p.pid())).collect(Collectors.joining(" "));
    List<String> command = List.of("sh", "-c", "kill -" + signal + " " + pids);
    try {
      int exit = new ProcessBuilder(command).inheritIO().start().waitFor();
      if (exit != 0) {
        throw new IllegalStateException(command + " exited with " + exit);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }
}
