package dev.eventrouter.api.postbacks;

import dev.eventrouter.api.postbacks.PostbackParams.Param;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.UnaryOperator;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import static dev.eventrouter.api.postbacks.PostbackParams.lower;
import static dev.eventrouter.api.postbacks.PostbackParams.shown;

/**
 * Undoes what partners' systems do to a postback URL on its way to us, so the conversion is not lost, and says what
 * was undone (kept in the postback log):
 * <ul>
 *   <li>A second {@code ?}: a partner that appends its own {@code ?name=value} to the URL the buyer pasted
 *   (1xPartners) makes {@code currency=MAD?value=40}, or {@code currency=MAD%3Fvalue%3D25.50}; the value is split at
 *   the {@code ?} into the parameters that follow, when {@code name=value} follows (a value that is a URL keeps its
 *   own query). A {@code ?} ending a value is dropped.</li>
 *   <li>HTML escaping: a template that went through an HTML decoder turns {@code &currency=} into {@code ¤cy=} (the
 *   legacy entity {@code &curren} read without its semicolon, https://html.spec.whatwg.org/multipage/named-characters.html),
 *   its {@code &} lost, so it arrives inside the value before it; one that went through an encoder sends
 *   {@code amp;currency}. Such a name is
 *   read as the source's name it was, and only then (a name the source does not read is left as sent).</li>
 * </ul>
 */
final class PostbackRepairs {

  /** At most this many repairs are described; a postback carries a handful. */
  static final int MAX_NOTES = 10;
  /** What may follow a stray {@code ?}: a parameter's name and {@code =}. */
  private static final Pattern NAME_IS = Pattern.compile("([A-Za-z0-9_.\\[\\]-]{1,64})=");
  /**
   * The HTML named character references that decoders read without a semicolon (the WHATWG list's legacy ones), by
   * the character they become, in lower case: a name read through them is compared in lower case.
   */
  static final Map<Character, String> ENTITIES = entities(
      "aelig\u00e6\u00c6 aacute\u00e1\u00c1 acirc\u00e2\u00c2 agrave\u00e0\u00c0 aring\u00e5\u00c5 atilde\u00e3\u00c3 "
          + "auml\u00e4\u00c4 ccedil\u00e7\u00c7 eth\u00f0\u00d0 eacute\u00e9\u00c9 ecirc\u00ea\u00ca "
          + "egrave\u00e8\u00c8 euml\u00eb\u00cb iacute\u00ed\u00cd icirc\u00ee\u00ce igrave\u00ec\u00cc "
          + "iuml\u00ef\u00cf ntilde\u00f1\u00d1 oacute\u00f3\u00d3 ocirc\u00f4\u00d4 ograve\u00f2\u00d2 "
          + "oslash\u00f8\u00d8 otilde\u00f5\u00d5 ouml\u00f6\u00d6 thorn\u00fe\u00de uacute\u00fa\u00da "
          + "ucirc\u00fb\u00db ugrave\u00f9\u00d9 uuml\u00fc\u00dc yacute\u00fd\u00dd yuml\u00ff "
          + "copy\u00a9 reg\u00ae gt> lt< quot\" acute\u00b4 brvbar\u00a6 cedil\u00b8 cent\u00a2 curren\u00a4 "
          + "deg\u00b0 divide\u00f7 frac12\u00bd frac14\u00bc frac34\u00be iexcl\u00a1 iquest\u00bf laquo\u00ab "
          + "macr\u00af micro\u00b5 middot\u00b7 nbsp\u00a0 not\u00ac ordf\u00aa ordm\u00ba para\u00b6 "
          + "plusmn\u00b1 pound\u00a3 raquo\u00bb sect\u00a7 shy\u00ad sup1\u00b9 sup2\u00b2 sup3\u00b3 "
          + "szlig\u00df times\u00d7 uml\u00a8 yen\u00a5");
  private static final String AMP = "amp;";
  /** An entity's character, then a parameter's name and '=': where a lost '&' began another parameter. */
  private static final Pattern MANGLED = Pattern.compile("[" + ENTITIES.keySet().stream()
      .map(c -> "\\x{" + Integer.toHexString(c) + "}").collect(Collectors.joining()) + "]" + NAME_IS.pattern());

  private final Set<String> readNames;
  private final Set<String> notes = new LinkedHashSet<>();

  private PostbackRepairs(Set<String> readNames) {
    this.readNames = readNames;
  }

  /** @param readNames the names the source reads, in lower case */
  static PostbackParams repair(List<Param> sent, Set<String> readNames) {
    PostbackRepairs repairs = new PostbackRepairs(readNames);
    List<Param> repaired = new ArrayList<>(sent.size());
    Deque<Param> todo = new ArrayDeque<>(sent);
    while (!todo.isEmpty() && repaired.size() < PostbackParams.MAX_PAIRS) {
      Param param = repairs.renamed(todo.removeFirst());
      List<Param> pieces = repairs.split(param);
      if (pieces == null) {
        repaired.add(param);
      } else {
        for (int i = pieces.size() - 1; i >= 0; i--) {
          todo.addFirst(pieces.get(i)); // each piece is looked at again, in order
        }
      }
    }
    return new PostbackParams(repaired, List.copyOf(repairs.notes));
  }

  /** The parameter under the source's name that an HTML decoder or encoder made into another. */
  private Param renamed(Param p) {
    String name = p.name();
    String entity = name.isEmpty() ? null : ENTITIES.get(name.charAt(0));
    String was = lower(name).startsWith(AMP) && name.length() > AMP.length() ? name.substring(AMP.length())
        : entity != null && readNames.contains(entity + lower(name.substring(1))) ? entity + name.substring(1)
        : null;
    if (was == null) {
      return p;
    }
    note(shown(was) + ": its name had gone through HTML escaping");
    return new Param(was, p.value());
  }

  /** The parameter cut where another begins inside its value, then that one; or null when none does. */
  private List<Param> split(Param p) {
    String value = p.value();
    int question = value.indexOf('?');
    if (question >= 0 && !value.substring(0, question).contains("://")) {
      String rest = value.substring(question + 1);
      if (rest.isEmpty()) {
        note(shown(p.name()) + ": a '?' ending its value dropped");
        return List.of(new Param(p.name(), value.substring(0, question)));
      }
      if (NAME_IS.matcher(rest).lookingAt()) {
        List<Param> following = PostbackParams.pairs(rest, UnaryOperator.identity()); // decoded already
        note(shown(p.name()) + ": split at a second '?' into " + String.join(", ",
            following.stream().map(q -> shown(q.name())).toList()));
        List<Param> pieces = new ArrayList<>(following);
        pieces.add(0, new Param(p.name(), value.substring(0, question)));
        return pieces;
      }
    }
    Matcher mangled = MANGLED.matcher(value);
    while (mangled.find()) {
      String was = ENTITIES.get(value.charAt(mangled.start())) + mangled.group(1);
      if (readNames.contains(lower(was))) {
        note(shown(was) + ": found in " + shown(p.name()) + "'s value, its '&' lost to HTML escaping");
        return List.of(new Param(p.name(), value.substring(0, mangled.start())),
            new Param(was, value.substring(mangled.end())));
      }
    }
    return null;
  }

  private void note(String note) {
    if (notes.size() < MAX_NOTES) {
      notes.add(note);
    }
  }

  private static Map<Character, String> entities(String table) {
    Map<Character, String> entities = new HashMap<>();
    for (String entry : table.split(" ")) {
      int letters = 0;
      while (Character.isLetterOrDigit(entry.charAt(letters)) && entry.charAt(letters) < 0x80) {
        letters++;
      }
      for (char c : entry.substring(letters).toCharArray()) {
        entities.put(c, entry.substring(0, letters));
      }
    }
    return Map.copyOf(entities);
  }
}
