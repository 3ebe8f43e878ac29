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
 * The package graph runs one way: {@code server} (the HTTP listeners and their route tables) over the API's resource
 * packages ({@code api.*}, each standing on the ingest API's rules in {@code api.events} and the edge, never on each
 * other), the Telegram connector (whose webhook is served there too) and the edge every route shares ({@code http});
 * {@code session}, {@code conversion}, {@code read}, {@code report}, {@code cost} and {@code alert} (which sends
 * through {@code forward}'s and {@code telegram}'s clients) over {@code forward} and {@code telegram}, side by side
 * over the repositories ({@code store}) and the database they are handed pools of ({@code db}: its server, data
 * directory, migrations and partitions), both over {@code event} and {@code config}; the bus messages sit between the edge and
 * the domain, and {@code common} under everything. Checked on the compiled classes, so a new upward import fails here.
 */
class LayeringTest {

  private static final JavaClasses CLASSES = new ClassFileImporter()
      .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
      .importPackages("dev.eventrouter");
  /** The API's resources: each a package with its handler and its own validation. */
  static final List<String> RESOURCES = List.of("sessions", "postbacks", "reports", "deliveries", "costs",
      "access");

  @Test
  @DisplayName("each package uses only the ones below it")
  void layers() {
    layeredArchitecture().consideringOnlyDependenciesInLayers()
        .layer("app").definedBy("dev.eventrouter")
        .layer("cluster").definedBy("dev.eventrouter.cluster..")
        .layer("server").definedBy("dev.eventrouter.server..")
        .layer("api").definedBy(RESOURCES.stream().map(r -> "dev.eventrouter.api." + r + "..").toArray(String[]::new))
        .layer("ingest").definedBy("dev.eventrouter.api.events..")
        .layer("http").definedBy("dev.eventrouter.http..")
        .layer("session").definedBy("dev.eventrouter.session..")
        .layer("conversion").definedBy("dev.eventrouter.conversion..")
        .layer("read").definedBy("dev.eventrouter.read..")
        .layer("report").definedBy("dev.eventrouter.report..")
        .layer("alert").definedBy("dev.eventrouter.alert..")
        .layer("cost").definedBy("dev.eventrouter.cost..")
        .layer("forward").definedBy("dev.eventrouter.forward..")
        .layer("telegram").definedBy("dev.eventrouter.telegram..")
        .layer("store").definedBy("dev.eventrouter.store..")
        .layer("db").definedBy("dev.eventrouter.db..")
        .layer("bus").definedBy("dev.eventrouter.bus..")
        .layer("event").definedBy("dev.eventrouter.event..")
        .layer("config").definedBy("dev.eventrouter.config..")
        .layer("common").definedBy("dev.eventrouter.common..")
        .whereLayer("app").mayNotBeAccessedByAnyLayer()
        .whereLayer("cluster").mayOnlyBeAccessedByLayers("app")
        .whereLayer("server").mayOnlyBeAccessedByLayers("app")
        .whereLayer("api").mayOnlyBeAccessedByLayers("server")
        // Postbacks, the integrations' test event and Telegram's join requests are events: the ingest API's rules.
        .whereLayer("ingest").mayOnlyBeAccessedByLayers("server", "api", "telegram")
        .whereLayer("http").mayOnlyBeAccessedByLayers("app", "server", "api", "ingest", "telegram")
        .whereLayer("session").mayOnlyBeAccessedByLayers("app")
        .whereLayer("conversion").mayOnlyBeAccessedByLayers("app")
        .whereLayer("read").mayOnlyBeAccessedByLayers("app")
        .whereLayer("report").mayOnlyBeAccessedByLayers("app")
        .whereLayer("alert").mayOnlyBeAccessedByLayers("app")
        .whereLayer("cost").mayOnlyBeAccessedByLayers("app")
        // The alerts send through the forwarders' checked client and the Telegram connector's Bot API client.
        .whereLayer("forward").mayOnlyBeAccessedByLayers("app", "alert")
        .whereLayer("telegram").mayOnlyBeAccessedByLayers("app", "server", "alert")
        .whereLayer("store").mayOnlyBeAccessedByLayers("app", "session", "conversion", "read", "report", "alert",
            "cost", "forward", "telegram")
        // The verticles that own a pool take it from the database; the repositories are handed theirs.
        .whereLayer("db").mayOnlyBeAccessedByLayers("app", "session", "conversion", "read")
        .whereLayer("bus").mayOnlyBeAccessedByLayers("app", "server", "api", "ingest", "http", "session", "conversion",
            "read", "alert", "cost", "forward", "telegram")
        .whereLayer("event").mayOnlyBeAccessedByLayers("app", "server", "api", "ingest", "http", "session",
            "conversion", "read", "alert", "cost", "forward", "telegram", "store", "db", "bus")
        .whereLayer("config").mayOnlyBeAccessedByLayers("app", "cluster", "server", "api", "ingest", "http", "session",
            "conversion", "read", "report", "alert", "cost", "forward", "telegram", "store", "db", "bus", "event")
        .check(CLASSES);
  }

  @Test
  @DisplayName("one resource's package never uses another's: each stands on the edge and the ingest API only")
  void resourcesIndependent() {
    for (String resource : RESOURCES) {
      for (String other : RESOURCES) {
        if (!other.equals(resource)) {
          noClasses().that().resideInAPackage("dev.eventrouter.api." + resource + "..").should()
              .dependOnClassesThat().resideInAPackage("dev.eventrouter.api." + other + "..").check(CLASSES);
        }
      }
    }
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
