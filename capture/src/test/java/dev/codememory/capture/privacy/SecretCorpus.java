package dev.codememory.capture.privacy;

import dev.codememory.capture.corpus.OrdinaryText;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The measured corpus in {@code src/test/resources/secrets/}: secret samples per provider
 * family and ordinary developer text. Recall is the share of samples whose secrets are
 * fully masked; the false-positive rate is the share of ordinary lines the redactor
 * changes. Run {@code main} (or {@code SecretCorpusTests}) to print the table.
 */
public final class SecretCorpus {

    static final String[] ORDINARY = { "code-mixed", "config", "prose", "logs", "lockfiles", "git-and-ids",
            "python-stdlib", "java-code-memory", "near-misses" };

    /** One sample: the text as the redactor sees it and the secret values inside it. */
    record Sample(String family, String text, List<String> secrets, int line) {
    }

    record FamilyResult(String family, int samples, int masked, List<String> missed) {
        double recall() {
            return samples == 0 ? 1 : (double) masked / samples;
        }
    }

    record Report(List<FamilyResult> families, List<OrdinaryText.Result> ordinary) {
        int samples() {
            return families.stream().mapToInt(FamilyResult::samples).sum();
        }

        int masked() {
            return families.stream().mapToInt(FamilyResult::masked).sum();
        }

        double recall() {
            return (double) masked() / samples();
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
            sb.append(String.format("%-28s %7s %7s %7s%n", "family", "samples", "masked", "recall"));
            for (FamilyResult f : families) {
                sb.append(String.format("%-28s %7d %7d %7.3f%n", f.family(), f.samples(), f.masked(), f.recall()));
            }
            sb.append(String.format("%-28s %7d %7d %7.3f   (%d families)%n%n", "ALL", samples(), masked(), recall(),
                    families.size()));
            sb.append(OrdinaryText.table(ordinary, 7));
            return sb.toString();
        }

        String details() {
            StringBuilder sb = new StringBuilder();
            for (FamilyResult f : families) {
                for (String m : f.missed()) {
                    sb.append("missed ").append(f.family()).append(": ").append(m).append('\n');
                }
            }
            sb.append(OrdinaryText.details(ordinary));
            return sb.toString();
        }
    }

    private SecretCorpus() {
    }

    static Report measure(Redactor redactor) {
        Map<String, List<Sample>> byFamily = new LinkedHashMap<>();
        for (Sample s : samples()) {
            byFamily.computeIfAbsent(s.family(), k -> new ArrayList<>()).add(s);
        }
        List<FamilyResult> families = new ArrayList<>();
        for (Map.Entry<String, List<Sample>> e : byFamily.entrySet()) {
            int masked = 0;
            List<String> missed = new ArrayList<>();
            for (Sample s : e.getValue()) {
                String out = redactor.redact(s.text());
                if (fullyMasked(s, out)) {
                    masked++;
                }
                else {
                    missed.add("line " + s.line() + ": " + out.replace("\n", "\\n"));
                }
            }
            families.add(new FamilyResult(e.getKey(), e.getValue().size(), masked, missed));
        }
        return new Report(families, OrdinaryText.measure("/secrets/ordinary", List.of(ORDINARY), redactor::redact));
    }

    /**
     * Fully masked: no run of three characters of any secret survives, except runs that
     * also occur in the text around the secrets or in the markers (so a user name or a
     * key name that shares letters with it does not count).
     */
    static boolean fullyMasked(Sample sample, String out) {
        String context = sample.text();
        for (String secret : sample.secrets()) {
            context = context.replace(secret, "\u0000");
        }
        context += Redactor.SECRET_MARKER + Redactor.PRIVATE_MARKER;
        for (String secret : sample.secrets()) {
            if (secret.length() < 3) {
                if (out.contains(secret)) {
                    return false;
                }
                continue;
            }
            for (int i = 0; i + 3 <= secret.length(); i++) {
                String gram = secret.substring(i, i + 3);
                if (out.contains(gram) && !context.contains(gram)) {
                    return false;
                }
            }
        }
        return true;
    }

    static List<Sample> samples() {
        List<Sample> samples = new ArrayList<>();
        int lineNo = 0;
        for (String line : OrdinaryText.resource("/secrets/samples.txt").split("\n")) {
            lineNo++;
            if (line.isBlank() || line.startsWith("#")) {
                continue;
            }
            int tab = line.indexOf('\t');
            String family = line.substring(0, tab);
            String marked = unescape(line.substring(tab + 1));
            StringBuilder text = new StringBuilder();
            List<String> secrets = new ArrayList<>();
            int p = 0;
            while (true) {
                int open = marked.indexOf('⟦', p);
                if (open < 0) {
                    text.append(marked, p, marked.length());
                    break;
                }
                int close = marked.indexOf('⟧', open);
                text.append(marked, p, open);
                String secret = marked.substring(open + 1, close);
                text.append(secret);
                secrets.add(secret);
                p = close + 1;
            }
            samples.add(new Sample(family, text.toString(), secrets, lineNo));
        }
        return samples;
    }

    /** {@code \n} is a line break and {@code \\} a backslash. */
    private static String unescape(String s) {
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
            }
            sb.append(c);
        }
        return sb.toString();
    }

    static List<String> ordinaryLines(String file) {
        return OrdinaryText.lines("/secrets/ordinary", file);
    }

    static Set<String> families() {
        Set<String> names = new HashSet<>();
        samples().forEach(s -> names.add(s.family()));
        return names;
    }

    /**
     * Prints the per-family table; {@code --details} also lists every missed sample and
     * changed line.
     */
    public static void main(String[] args) {
        Report report = measure(Redactor.defaults());
        System.out.print(report.table());
        if (args.length > 0 && args[0].equals("--details")) {
            System.out.print(report.details());
        }
    }

}
