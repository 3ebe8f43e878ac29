package dev.eventrouter;

import com.tngtech.archunit.core.domain.Dependency;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The package map of docs/how-it-works.md is the newcomer's table of contents: every package of the source tree has
 * its row, no row names a package that is gone, and what a row says a package may use covers what its classes use.
 */
class PackageMapTest {

  private static final String BASE = "dev.eventrouter";
  private static final Path SOURCES = Path.of("src/main/java", BASE.split("\\."));
  private static final String ROOT_ROW = "(root)";

  /** Each row's package (relative to dev.eventrouter, the root as "(root)") and the packages it may use. */
  static Map<String, Set<String>> map() throws IOException {
    List<String> lines = Files.readAllLines(Path.of("docs/how-it-works.md"));
    int heading = lines.indexOf("## Packages");
    assertThat(heading).as("docs/how-it-works.md has a '## Packages' section").isNotNegative();
    Map<String, Set<String>> rows = new LinkedHashMap<>();
    lines.stream().skip(heading + 1).dropWhile(line -> !line.startsWith("|")).takeWhile(line -> line.startsWith("|"))
        .skip(2)
        .forEach(line -> {
          String[] cells = line.split("\\|");
          String name = cells[1].strip().replace("`", "");
          rows.put(name, Arrays.stream(cells[3].split(",")).map(String::strip)
              .filter(use -> !use.equals("(none)") && !use.isEmpty()).collect(Collectors.toCollection(TreeSet::new)));
        });
    return rows;
  }

  /** The packages of the source tree holding a class, relative to dev.eventrouter. */
  static Set<String> sourcePackages() throws IOException {
    try (Stream<Path> files = Files.walk(SOURCES)) {
      return files.filter(file -> file.toString().endsWith(".java"))
          .map(file -> SOURCES.relativize(file.getParent()).toString().replace('/', '.'))
          .map(name -> name.isEmpty() ? ROOT_ROW : name)
          .collect(Collectors.toCollection(TreeSet::new));
    }
  }

  @Test
  @DisplayName("every package of the source tree has a row in the map, and every row a package")
  void inStepWithTheTree() throws IOException {
    assertThat(map().keySet()).containsExactlyInAnyOrderElementsOf(sourcePackages());
  }

  @Test
  @DisplayName("what each package's classes use is in its row's 'may use'")
  void usesAsDocumented() throws IOException {
    Map<String, Set<String>> map = map();
    JavaClasses classes = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
        .importPackages(BASE);
    Set<String> undocumented = new TreeSet<>();
    for (JavaClass type : classes) {
      String from = relative(type.getPackageName());
      if (from.equals(ROOT_ROW)) {
        continue;
      }
      for (Dependency dependency : type.getDirectDependenciesFromSelf()) {
        String to = dependency.getTargetClass().getPackageName();
        if (to.startsWith(BASE + ".") && !sameFamily(from, relative(to)) && !map.get(from).contains(relative(to))) {
          undocumented.add(from + " -> " + relative(to));
        }
      }
    }
    assertThat(undocumented).as("uses the package map does not allow").isEmpty();
  }

  private static String relative(String packageName) {
    return packageName.equals(BASE) ? ROOT_ROW : packageName.substring(BASE.length() + 1);
  }

  /** A package and its own sub-packages (forward and forward.meta) work together; the API's resources do not. */
  static boolean sameFamily(String a, String b) {
    String first = a.split("\\.")[0];
    return a.equals(b) || !first.equals("api") && first.equals(b.split("\\.")[0]);
  }
}
