package dev.eventrouter;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The README is the landing page and the reference lives in docs/: every relative link in them (to a file, to a
 * heading of a page, to a picture) must lead somewhere, and every page of docs/ must be reachable from the README.
 * Anchors are the headings' slugs as GitHub makes them
 * (https://docs.github.com/en/get-started/writing-on-github/getting-started-with-writing-and-formatting-on-github/basic-writing-and-formatting-syntax#section-links).
 */
class DocsLinksTest {

  private static final Path ROOT = Path.of("").toAbsolutePath();
  private static final Pattern LINK = Pattern.compile("\\]\\(([^)\\s]+)\\)");
  private static final Pattern HEADING = Pattern.compile("^#{1,6} (.*)$");

  /** The Markdown files checked: the README and every page of docs/. */
  private static List<Path> pages() throws IOException {
    List<Path> pages = new ArrayList<>(List.of(ROOT.resolve("README.md")));
    try (Stream<Path> docs = Files.list(ROOT.resolve("docs"))) {
      docs.filter(p -> p.toString().endsWith(".md")).sorted().forEach(pages::add);
    }
    return pages;
  }

  /** Lines outside fenced code blocks, where a bracket is code, not a link. */
  private static List<String> prose(Path page) throws IOException {
    List<String> lines = new ArrayList<>();
    boolean fenced = false;
    for (String line : Files.readAllLines(page)) {
      if (line.startsWith("```")) {
        fenced = !fenced;
      } else if (!fenced) {
        lines.add(line);
      }
    }
    return lines;
  }

  /** GitHub's anchor of a heading: lower case, punctuation but - and _ dropped, each space a hyphen. */
  static String slug(String heading) {
    return heading.strip().toLowerCase(Locale.ROOT).replaceAll("[^\\p{L}\\p{N}_\\- ]", "").replace(' ', '-');
  }

  private static Set<String> anchors(Path page) throws IOException {
    Set<String> anchors = new HashSet<>();
    Map<String, Integer> seen = new HashMap<>();
    for (String line : prose(page)) {
      Matcher heading = HEADING.matcher(line);
      if (heading.matches()) {
        String slug = slug(heading.group(1));
        int n = seen.merge(slug, 1, Integer::sum) - 1;
        anchors.add(n == 0 ? slug : slug + "-" + n);
      }
    }
    return anchors;
  }

  @Test
  @DisplayName("every relative link in README.md and docs/ leads to a file that exists, and to a heading it has")
  void noDeadLink() throws IOException {
    List<String> dead = new ArrayList<>();
    int checked = 0;
    for (Path page : pages()) {
      for (String line : prose(page)) {
        Matcher link = LINK.matcher(line);
        while (link.find()) {
          String target = link.group(1);
          if (target.matches("^[a-z]+:.*")) {
            continue; // http(s), mailto: outside the repository
          }
          checked++;
          String path = target.contains("#") ? target.substring(0, target.indexOf('#')) : target;
          String anchor = target.contains("#") ? target.substring(target.indexOf('#') + 1) : null;
          Path file = path.isEmpty() ? page : page.getParent().resolve(path).normalize();
          if (!Files.exists(file) || !file.startsWith(ROOT)) {
            dead.add(ROOT.relativize(page) + ": " + target + " (no such file)");
          } else if (anchor != null && !anchors(file).contains(anchor)) {
            dead.add(ROOT.relativize(page) + ": " + target + " (no such heading)");
          }
        }
      }
    }
    assertThat(checked).as("links checked (the parsing found them)").isGreaterThan(30);
    assertThat(dead).as("dead links").isEmpty();
  }

  @Test
  @DisplayName("every page of docs/ is linked from the README")
  void everyPageLinked() throws IOException {
    String readme = String.join("\n", prose(ROOT.resolve("README.md")));
    List<String> unlinked = pages().stream().skip(1)
        .map(page -> "docs/" + page.getFileName())
        .filter(page -> !readme.contains("](" + page + ")") && !readme.contains("](" + page + "#"))
        .toList();
    assertThat(unlinked).isEmpty();
  }

  @Test
  @DisplayName("anchors are made as GitHub makes them")
  void slugs() {
    assertThat(slug("`POST /api/v1/integrations/{integration_id}/test` (also `/v1/...`)"))
        .isEqualTo("post-apiv1integrationsintegration_idtest-also-v1");
    assertThat(slug("Prelanding kit: publishable keys and the script"))
        .isEqualTo("prelanding-kit-publishable-keys-and-the-script");
    assertThat(slug("Operations: health, metrics, cluster, logs, Docker"))
        .isEqualTo("operations-health-metrics-cluster-logs-docker");
  }
}
