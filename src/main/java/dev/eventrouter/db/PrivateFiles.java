package dev.eventrouter.db;

import java.io.IOException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermissions;

/**
 * Files and directories only this process's user may read: the embedded server's log (its messages can quote rows),
 * binaries and password. Created with their mode, never widened then narrowed, so no other user can open them in
 * between; where the file system has no POSIX modes (Windows), the user's own directories are private already.
 */
final class PrivateFiles {

  private static final boolean POSIX = FileSystems.getDefault().supportedFileAttributeViews().contains("posix");

  private PrivateFiles() {}

  /** The directory, made (with its parents) if missing, mode 0700 whether new or not. */
  static Path directory(Path dir) throws IOException {
    if (!POSIX) {
      return Files.createDirectories(dir);
    }
    if (!Files.isDirectory(dir)) {
      Files.createDirectories(dir.toAbsolutePath().getParent());
      Files.createDirectory(dir, mode("rwx------"));
    }
    // One that exists (made by an earlier version, or by someone else): ours and 0700, or the start fails here.
    Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwx------"));
    return dir;
  }

  /** The file, created empty if missing, mode 0600 whether new or not (an earlier version made its log 0644). */
  static Path file(Path file) throws IOException {
    if (!POSIX) {
      return Files.exists(file) ? file : Files.createFile(file);
    }
    if (!Files.exists(file)) {
      Files.createFile(file, mode("rw-------"));
    }
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
    return file;
  }

  /** Replaces the file's content at once: written to a 0600 file beside it, then moved over it. */
  static void write(Path file, String content) throws IOException {
    Path next = file.resolveSibling(file.getFileName() + ".next");
    Files.deleteIfExists(next);
    file(next);
    Files.writeString(next, content);
    Files.move(next, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
  }

  private static FileAttribute<?> mode(String permissions) {
    return PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString(permissions));
  }
}
