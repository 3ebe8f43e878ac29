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
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
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
    Map<String, Set<String>> rows = new TreeMap<>();
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
  @DisplayName("each row's 'may use' covers what its package's classes use, and names packages that exist")
  void usesAsDocumented() throws IOException {
    Map<String, Set<String>> map = map();
    JavaClasses classes = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
        .importPackages(BASE);
    Map<String, Set<String>> used = new TreeMap<>();
    for (JavaClass type : classes) {
      String from = relative(type.getPackageName());
      Set<String> uses = used.computeIfAbsent(from, p -> new TreeSet<>());
      for (Dependency dependency : type.getDirectDependenciesFromSelf()) {
        String to = dependency.getTargetClass().getPackageName();
        if (to.startsWith(BASE + ".") && !relative(to).equals(from)) {
          uses.add(relative(to));
        }
      }
    }
    used.remove(ROOT_ROW);
    map.remove(ROOT_ROW);
    // Not "exactly": a use of another package's constant (a bus address) is inlined by the compiler, out of sight.
    List<String> wrong = used.entrySet().stream()
        .filter(uses -> !map.containsKey(uses.getKey()) || !map.get(uses.getKey()).containsAll(uses.getValue()))
        .map(uses -> uses.getKey() + ": the row lists " + map.get(uses.getKey()) + ", the classes use "
            + uses.getValue())
        .toList();
    assertThat(wrong).as("packages using one their row does not list").isEmpty();
    map.values().forEach(listed -> assertThat(map.keySet()).as("the packages a row lists exist").containsAll(listed));
  }

  private static String relative(String packageName) {
    return packageName.equals(BASE) ? ROOT_ROW : packageName.substring(BASE.length() + 1);
  }
}
