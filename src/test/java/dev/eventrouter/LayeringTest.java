package dev.eventrouter;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.util.List;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.Architectures.layeredArchitecture;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

/**
 * The package graph runs one way: {@code http}, {@code session}, {@code conversion}, {@code read}, {@code report} and
 * {@code alert} (which sends through {@code forward}'s and {@code telegram}'s clients) over {@code forward} and
 * {@code telegram}, side by side over
 * {@code store}, which stands over {@code event} and {@code config}; the bus messages sit between the edge and the
 * domain, and {@code common} under everything. Checked on the compiled classes, so a new upward import fails here.
 */
class LayeringTest {

  private static final JavaClasses CLASSES = new ClassFileImporter()
      .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
      .importPackages("dev.eventrouter");

  @Test
  @DisplayName("each package uses only the ones below it")
  void layers() {
    layeredArchitecture().consideringOnlyDependenciesInLayers()
        .layer("app").definedBy("dev.eventrouter")
        .layer("cluster").definedBy("dev.eventrouter.cluster..")
        .layer("http").definedBy("dev.eventrouter.http..")
        .layer("session").definedBy("dev.eventrouter.session..")
        .layer("conversion").definedBy("dev.eventrouter.conversion..")
        .layer("read").definedBy("dev.eventrouter.read..")
        .layer("report").definedBy("dev.eventrouter.report..")
        .layer("alert").definedBy("dev.eventrouter.alert..")
        .layer("forward").definedBy("dev.eventrouter.forward..")
        .layer("telegram").definedBy("dev.eventrouter.telegram..")
        .layer("store").definedBy("dev.eventrouter.store..")
        .layer("bus").definedBy("dev.eventrouter.bus..")
        .layer("event").definedBy("dev.eventrouter.event..")
        .layer("config").definedBy("dev.eventrouter.config..")
        .layer("common").definedBy("dev.eventrouter.common..")
        .whereLayer("app").mayNotBeAccessedByAnyLayer()
        .whereLayer("cluster").mayOnlyBeAccessedByLayers("app")
        .whereLayer("http").mayOnlyBeAccessedByLayers("app")
        .whereLayer("session").mayOnlyBeAccessedByLayers("app")
        .whereLayer("conversion").mayOnlyBeAccessedByLayers("app")
        .whereLayer("read").mayOnlyBeAccessedByLayers("app")
        .whereLayer("report").mayOnlyBeAccessedByLayers("app")
        .whereLayer("alert").mayOnlyBeAccessedByLayers("app")
        // The alerts send through the forwarders' checked client and the Telegram connector's Bot API client.
        .whereLayer("forward").mayOnlyBeAccessedByLayers("app", "alert")
        .whereLayer("telegram").mayOnlyBeAccessedByLayers("app", "alert")
        .whereLayer("store").mayOnlyBeAccessedByLayers("app", "session", "conversion", "read", "report", "alert",
            "forward", "telegram")
        .whereLayer("bus").mayOnlyBeAccessedByLayers("app", "http", "session", "conversion", "read", "alert", "forward",
            "telegram")
        .whereLayer("event")
        .mayOnlyBeAccessedByLayers("app", "http", "session", "conversion", "read", "alert", "forward", "store", "bus")
        .whereLayer("config")
        .mayOnlyBeAccessedByLayers("app", "cluster", "http", "session", "conversion", "read", "report", "alert",
            "forward", "telegram", "store", "bus", "event")
        .check(CLASSES);
  }

  @Test
  @DisplayName("one network's code never uses another's: each stands on the shared forwarding parts only")
  void networksIndependent() {
    List<String> networks = List.of("meta", "tiktok", "webhook");
    for (String network : networks) {
      for (String other : networks) {
        if (!other.equals(network)) {
          noClasses().that().resideInAPackage("dev.eventrouter.forward." + network + "..").should()
              .dependOnClassesThat().resideInAPackage("dev.eventrouter.forward." + other + "..").check(CLASSES);
        }
      }
    }
  }

  @Test
  @DisplayName("no two packages depend on each other, at any depth")
  void noCycles() {
    slices().matching("dev.eventrouter.(**)").should().beFreeOfCycles().check(CLASSES);
  }
}
