package dev.eventrouter.api.postbacks;

import dev.eventrouter.api.postbacks.PostbackParams.Param;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What partners' systems do to a postback URL, undone: the URLs as they arrive (1xPartners' appended {@code ?...},
 * HTML-escaped templates), decoded as the route decodes them.
 */
class PostbackRepairsUnitTest {

  /** The default names of a source's fields, in lower case. */
  private static final Set<String> READ = Set.of("subid", "click_id", "event", "goal", "payout", "value", "amount",
      "currency", "status", "tid");

  private static PostbackParams repaired(String query) {
    return PostbackRepairs.repair(PostbackParams.decode(query), READ);
  }

  @Test
  @DisplayName("a second '?' raw: the value is split into the parameters that follow, the field before it keeps "
      + "its first value, and the repair is told")
  void strayQuestionMark() {
    PostbackParams params = repaired("subid=ses_1&goal=ftd&currency=MAD?value=40&ftd=1");
    assertThat(params.all()).containsExactly(new Param("subid", "ses_1"), new Param("goal", "ftd"),
        new Param("currency", "MAD"), new Param("value", "40"), new Param("ftd", "1"));
    assertThat(params.repairs()).containsExactly("currency: split at a second '?' into value");
  }

  @Test
  @DisplayName("a second '?' escaped (%3F, %3D, %26): split the same way, each following parameter kept")
  void escapedQuestionMark() {
    PostbackParams params = repaired("subid=ses_1&currency=MAD%3Fvalue%3D25.50%26ftd%3D1%26flag");
    assertThat(params.all()).containsExactly(new Param("subid", "ses_1"), new Param("currency", "MAD"),
        new Param("value", "25.50"), new Param("ftd", "1"), new Param("flag", ""));
    assertThat(params.repairs()).containsExactly("currency: split at a second '?' into value, ftd, flag");
    assertThat(repaired("event=reg?reg=1").all()).containsExactly(new Param("event", "reg"), new Param("reg", "1"));
    assertThat(repaired("a=x?b=1?c=2").all()).as("a '?' in what followed is split again")
        .containsExactly(new Param("a", "x"), new Param("b", "1"), new Param("c", "2"));
  }

  @Test
  @DisplayName("what follows a second '?' is read as pairs are: one without a name is skipped, one without '=' is "
      + "a name with no value; a parameter without a name is left as it is")
  void followingPairs() {
    assertThat(repaired("a=x?b=1&&=z&c&d=2").all()).containsExactly(new Param("a", "x"), new Param("b", "1"),
        new Param("c", ""), new Param("d", "2"));
    assertThat(PostbackRepairs.repair(List.of(new Param("", "x"), new Param("subid", "s")), READ).all())
        .containsExactly(new Param("", "x"), new Param("subid", "s"));
  }

  @Test
  @DisplayName("a '?' ending a value is dropped; one not followed by name=value, or inside a URL, is data")
  void notSplit() {
    PostbackParams trailing = repaired("payout=10?");
    assertThat(trailing.all()).containsExactly(new Param("payout", "10"));
    assertThat(trailing.repairs()).containsExactly("payout: a '?' ending its value dropped");
    for (String query : List.of("comment=a?b", "comment=a?=b", "comment=a? b=c",
        "landing=https://lp.example/p?utm_source=fb")) {
      assertThat(repaired(query).all()).as(query).isEqualTo(PostbackParams.decode(query));
    }
    assertThat(repaired("landing=https://lp.example/p?utm_source=fb").repairs()).isEmpty();
    assertThat(repaired("subid=s&payout=5").repairs()).isEmpty();
  }

  @Test
  @DisplayName("&currency= decoded as HTML (¤cy=) glued to the value before it: read as currency again")
  void currencyEntityInValue() {
    PostbackParams params = repaired("subid=s&sub2=lp7%C2%A4cy=RUB&payout=100");
    assertThat(params.all()).containsExactly(new Param("subid", "s"), new Param("sub2", "lp7"),
        new Param("currency", "RUB"), new Param("payout", "100"));
    assertThat(params.repairs()).containsExactly("currency: found in sub2's value, its '&' lost to HTML escaping");
    assertThat(repaired("payout=100%C2%A4cy=RUB").first(List.of("payout"))).isEqualTo("100");
    assertThat(repaired("subid=s&note=%C2%A4cy=RUB").first(List.of("currency"))).isEqualTo("RUB");
    assertThat(repaired("note=5%C2%A4").all()).as("nothing follows").containsExactly(new Param("note", "5¤"));
    assertThat(repaired("note=%C2%A4xy=1").all()).as("no name the source reads")
        .containsExactly(new Param("note", "¤xy=1"));
    assertThat(repaired("note=%C2%AEister=1").all()).as("®ister: 'register' is not read")
        .containsExactly(new Param("note", "®ister=1"));
  }

  @Test
  @DisplayName("a name mangled by HTML escaping is read as the source's name it was: ¤cy (after '?&'), "
      + "amp;currency; any other name is left as sent")
  void mangledNames() {
    PostbackParams params = repaired("%C2%A4cy=EUR&amp;status=hold&amp;sub2=x&%C2%A4xy=1&amount=3");
    assertThat(params.all()).containsExactly(new Param("currency", "EUR"), new Param("status", "hold"),
        new Param("sub2", "x"), new Param("¤xy", "1"), new Param("amount", "3"));
    assertThat(params.repairs()).containsExactly("currency: its name had gone through HTML escaping",
        "status: its name had gone through HTML escaping", "sub2: its name had gone through HTML escaping");
    assertThat(repaired("%C2%A4CY=EUR").all()).as("any case").containsExactly(new Param("currenCY", "EUR"));
    assertThat(repaired("amp;=1&subid=s").all()).containsExactly(new Param("amp;", "1"), new Param("subid", "s"));
    assertThat(repaired("value=1&amp=2").all()).as("a read name is never renamed")
        .containsExactly(new Param("value", "1"), new Param("amp", "2"));
  }

  @Test
  @DisplayName("the table of HTML's legacy entities: each character to its name, in lower case")
  void entities() {
    assertThat(PostbackRepairs.ENTITIES).containsEntry('¤', "curren")
        .containsEntry('Æ', "aelig").containsEntry('æ', "aelig").containsEntry('½', "frac12")
        .containsEntry('¹', "sup1").containsEntry('<', "lt").containsEntry('"', "quot").containsEntry('ÿ', "yuml");
    assertThat(PostbackRepairs.ENTITIES).hasSize(99);
  }

  @Test
  @DisplayName("at most ten repairs are told, and the pairs stay bounded however a value repeats")
  void bounded() {
    StringBuilder query = new StringBuilder();
    for (int i = 0; i < 20; i++) {
      query.append("p").append(i).append("=x?q").append(i).append("=1&");
    }
    assertThat(repaired(query.toString()).repairs()).hasSize(PostbackRepairs.MAX_NOTES);
    PostbackParams many = repaired("a=" + "?a=".repeat(5_000));
    assertThat(many.all()).hasSize(PostbackParams.MAX_PAIRS);
  }
}
