package dev.codememory.capture.guard;

import dev.codememory.capture.corpus.OrdinaryText;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.text.Normalizer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The measured corpus in {@code src/test/resources/injection/}: instruction-shaped
 * payloads per family ({@code payloads.txt}, and attacks on a memory in
 * {@code memory-payloads.txt}) and ordinary developer text (real error output and
 * documentation, and coding work on LLM applications). A payload REACHES the context when
 * any run of {@value #RUN} consecutive words of one of its marked instruction spans
 * survives the gate; it LOSES context when a run of its unmarked, legitimate text does
 * not; an ordinary line is a false positive when the gate changes it at all. Run
 * {@code main} (or {@code InjectionCorpusTests}) to print the table.
 */
public final class InjectionCorpus {

    /** Words in a run that counts as the instruction having reached the context. */
    static final int RUN = 4;

    static final String[] ORDINARY = { "python-errors", "java-errors", "node-npm-errors", "git-output",
            "shell-c-errors", "help-output", "python-docs", "git-manpages", "gnu-manpages", "debian-readmes",
            "code-memory-docs", "code-memory-commits", "llm-app-work" };

    static final String[] PAYLOADS = { "payloads", "memory-payloads" };

    /**
     * The family whose payloads are the user's own prompts, gated as the user's words
     * are.
     */
    static final String USER_PROMPTS = "query-only";

    /** Separates the events of one payload; each event is gated alone. */
    static final String EVENT = "\u241E";

    /**
     * A word: one Han, Hiragana or Katakana character (those scripts put no spaces
     * between words), or a run of other letters, digits and combining marks.
     */
    private static final Pattern WORD = Pattern.compile(
            "[\\p{IsHan}\\p{IsHiragana}\\p{IsKatakana}]|[\\p{L}\\p{N}\\p{M}&&[^\\p{IsHan}\\p{IsHiragana}\\p{IsKatakana}]]+");

    /** One payload: the text as the gate sees it and the instruction spans inside it. */
    record Payload(String family, String text, List<String> spans, List<String> context, int line, String file) {

        String where() {
            return file + ":" + line;
        }

        /** The payload as it may be shown: each event gated alone, the events joined. */
        String gated() {
            List<String> shown = new ArrayList<>();
            for (String event : text.split("\\s*" + EVENT + "\\s*")) {
                shown.add((USER_PROMPTS.equals(family) ? ContextGate.passUserText(event) : ContextGate.pass(event))
                    .text());
            }
            return String.join("\n", shown);
        }

        /** How many parts the gate withholds from the payload's events. */
        int withheld() {
            int withheld = 0;
            for (String event : text.split("\\s*" + EVENT + "\\s*")) {
                withheld += (USER_PROMPTS.equals(family) ? ContextGate.passUserText(event) : ContextGate.pass(event))
                    .withheld();
            }
            return withheld;
        }
    }

    record FamilyResult(String family, int payloads, int reached, int lostContext, List<String> examples,
            List<String> reachedAt) {
    }

    record Report(List<FamilyResult> families, List<OrdinaryText.Result> ordinary) {
        int payloads() {
            return families.stream().mapToInt(FamilyResult::payloads).sum();
        }

        int reached() {
            return families.stream().mapToInt(FamilyResult::reached).sum();
        }

        int lostContext() {
            return families.stream().mapToInt(FamilyResult::lostContext).sum();
        }

        /** {@code reached <file>:<line>} for every payload that reaches the context. */
        List<String> reachedAt() {
            return families.stream().flatMap(f -> f.reachedAt().stream()).map(w -> "reached " + w).sorted().toList();
        }

        int lines() {
            return OrdinaryText.lines(ordinary);
        }

        int changed() {
            return OrdinaryText.changed(ordinary);
        }

        double falsePositiveRate() {
            return (double) changed() / lines();
        }

        String table() {
            StringBuilder sb = new StringBuilder();
            sb.append(String.format("%-28s %8s %8s %8s%n", "family", "payloads", "reached", "lost ctx"));
            for (FamilyResult f : families) {
                sb.append(String.format("%-28s %8d %8d %8d%n", f.family(), f.payloads(), f.reached(), f.lostContext()));
            }
            sb.append(String.format("%-28s %8d %8d %8d   (%d families)%n%n", "ALL", payloads(), reached(),
                    lostContext(), families.size()));
            sb.append(OrdinaryText.table(ordinary, 8));
            return sb.toString();
        }

        String details() {
            StringBuilder sb = new StringBuilder();
            for (FamilyResult f : families) {
                for (String e : f.examples()) {
                    sb.append("reached ").append(f.family()).append(": ").append(e).append('\n');
                }
            }
            sb.append(OrdinaryText.details(ordinary));
            return sb.toString();
        }
    }

    /**
     * Each ordinary line as the gate passes it, gated once for {@link #measure} and
     * {@link #changedAt} both (15,000 lines: gating them twice cost the test 17 s).
     */
    private static final Map<String, String> PASSED = new java.util.concurrent.ConcurrentHashMap<>();

    private InjectionCorpus() {
    }

    private static String passed(String line) {
        return PASSED.computeIfAbsent(line, l -> ContextGate.pass(l).text());
    }

    static Report measure() {
        Map<String, List<Payload>> byFamily = new LinkedHashMap<>();
        for (Payload p : payloads()) {
            byFamily.computeIfAbsent(p.family(), k -> new ArrayList<>()).add(p);
        }
        List<FamilyResult> families = new ArrayList<>();
        for (Map.Entry<String, List<Payload>> e : byFamily.entrySet()) {
            int reached = 0;
            int lost = 0;
            List<String> examples = new ArrayList<>();
            List<String> reachedAt = new ArrayList<>();
            for (Payload p : e.getValue()) {
                String out = p.gated();
                if (reaches(p, out)) {
                    reached++;
                    examples.add(p.where() + ": " + escape(out));
                    reachedAt.add(p.where());
                }
                if (losesContext(p, out)) {
                    lost++;
                }
            }
            families.add(new FamilyResult(e.getKey(), e.getValue().size(), reached, lost, examples, reachedAt));
        }
        return new Report(families,
                OrdinaryText.measure("/injection/ordinary", List.of(ORDINARY), InjectionCorpus::passed));
    }

    /**
     * Whether an instruction of the payload survives in the gated text: some run of
     * {@value #RUN} consecutive words of a marked span (the whole span when it is
     * shorter) occurs in the gated text, compared after {@link #normalize}. Runs that
     * also occur in the payload's unmarked text or in the marker do not count.
     */
    static boolean reaches(Payload payload, String gated) {
        String out = joined(words(gated));
        List<String> excused = new ArrayList<>();
        for (String c : payload.context()) {
            excused.add(joined(words(c)));
        }
        excused.add(joined(words(ContextGate.MARKER)));
        for (String span : payload.spans()) {
            List<String> words = words(span);
            int run = Math.min(RUN, words.size());
            for (int i = 0; run > 0 && i + run <= words.size(); i++) {
                String window = joined(words.subList(i, i + run));
                if (out.contains(window) && excused.stream().noneMatch(x -> x.contains(window))) {
                    return true;
                }
            }
        }
        return false;
    }

    /**
     * What a reader sees: Unicode tag characters (U+E0020..U+E007E, invisible ASCII) as
     * the ASCII they encode, other format characters (zero-width, bidirectional controls,
     * soft hyphen, BOM) removed, NFKC (fullwidth and mathematical letters as ASCII),
     * lower case.
     */
    static String normalize(String s) {
        StringBuilder sb = new StringBuilder(s.length());
        s.codePoints().forEach(cp -> {
            if (cp >= 0xE0020 && cp <= 0xE007E) {
                sb.append((char) (cp - 0xE0000));
            }
            else if (Character.getType(cp) != Character.FORMAT) {
                sb.appendCodePoint(cp);
            }
        });
        return Normalizer.normalize(sb, Normalizer.Form.NFKC).toLowerCase(Locale.ROOT);
    }

    /**
     * Whether legitimate text of the payload is lost: some run of {@value #RUN}
     * consecutive words of an unmarked piece (the whole piece when it is shorter) is
     * missing from the gated text.
     */
    static boolean losesContext(Payload payload, String gated) {
        String out = joined(words(gated));
        for (String piece : payload.context()) {
            List<String> words = words(piece);
            int run = Math.min(RUN, words.size());
            for (int i = 0; run > 0 && i + run <= words.size(); i++) {
                if (!out.contains(joined(words.subList(i, i + run)))) {
                    return true;
                }
            }
        }
        return false;
    }

    /**
     * {@code changed <file>:<line>} for every ordinary line the gate changes, by its line
     * number in the file.
     */
    static List<String> changedAt() {
        List<String> changed = new ArrayList<>();
        for (String file : ORDINARY) {
            String[] lines = OrdinaryText.resource("/injection/ordinary/" + file + ".txt").split("\n");
            for (int i = 0; i < lines.length; i++) {
                if (!lines[i].isBlank() && !passed(lines[i]).equals(lines[i])) {
                    changed.add("changed " + file + ":" + (i + 1));
                }
            }
        }
        return changed.stream().sorted().toList();
    }

    static List<String> words(String s) {
        List<String> words = new ArrayList<>();
        Matcher m = WORD.matcher(normalize(s));
        while (m.find()) {
            words.add(m.group());
        }
        return words;
    }

    private static String joined(List<String> words) {
        return "\u0001" + String.join("\u0001", words) + "\u0001";
    }

    static List<Payload> payloads() {
        List<Payload> payloads = new ArrayList<>();
        for (String file : PAYLOADS) {
            int lineNo = 0;
            for (String line : OrdinaryText.resource("/injection/" + file + ".txt").split("\n")) {
                lineNo++;
                if (line.isBlank() || line.startsWith("#")) {
                    continue;
                }
                int tab = line.indexOf('\t');
                payloads.add(parse(line.substring(0, tab), unescape(line.substring(tab + 1)), lineNo, file));
            }
        }
        return payloads;
    }

    /**
     * Splits marked text into the plain text, its ⟦marked⟧ spans and the unmarked pieces.
     */
    static Payload parse(String family, String marked, int line) {
        return parse(family, marked, line, "t");
    }

    static Payload parse(String family, String marked, int line, String file) {
        StringBuilder text = new StringBuilder();
        List<String> spans = new ArrayList<>();
        List<String> context = new ArrayList<>();
        int p = 0;
        while (true) {
            int open = marked.indexOf('⟦', p);
            if (open < 0) {
                text.append(marked, p, marked.length());
                context.add(marked.substring(p));
                break;
            }
            int close = marked.indexOf('⟧', open);
            text.append(marked, p, open);
            context.add(marked.substring(p, open));
            String span = marked.substring(open + 1, close);
            text.append(span);
            spans.add(span);
            p = close + 1;
        }
        return new Payload(family, text.toString(), spans, context, line, file);
    }

    /**
     * {@code \n} is a line break, {@code \\} a backslash, {@code \}{@code uXXXX} and
     * {@code \}{@code u{XXXXX}} a code point.
     */
    static String unescape(String s) {
        StringBuilder sb = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '\\' && i + 1 < s.length()) {
                char next = s.charAt(i + 1);
                if (next == 'n') {
                    sb.append('\n');
                    i++;
                    continue;
                }
                if (next == '\\') {
                    sb.append('\\');
                    i++;
                    continue;
                }
                if (next == 'u' && i + 2 < s.length() && s.charAt(i + 2) == '{') {
                    int end = s.indexOf('}', i);
                    sb.appendCodePoint(Integer.parseInt(s.substring(i + 3, end), 16));
                    i = end;
                    continue;
                }
                if (next == 'u' && i + 6 <= s.length()) {
                    sb.append((char) Integer.parseInt(s.substring(i + 2, i + 6), 16));
                    i += 5;
                    continue;
                }
            }
            sb.append(c);
        }
        return sb.toString();
    }

    static List<String> ordinaryLines(String file) {
        return OrdinaryText.lines("/injection/ordinary", file);
    }

    private static String escape(String s) {
        StringBuilder sb = new StringBuilder();
        s.codePoints().forEach(cp -> {
            if (cp == '\n') {
                sb.append("\\n");
            }
            else if (Character.getType(cp) == Character.FORMAT) {
                sb.append(String.format("\\u{%X}", cp));
            }
            else {
                sb.appendCodePoint(cp);
            }
        });
        return sb.toString();
    }

    /**
     * Prints the per-family table; {@code --details} also lists every payload that
     * reached the context (as gated) and every changed ordinary line.
     */
    public static void main(String[] args) {
        Report report = measure();
        System.out.print(report.table());
        if (args.length > 0 && args[0].equals("--details")) {
            System.out.print(report.details());
        }
    }

}
