package dev.codememory.capture.corpus;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;

/**
 * The false-positive half of a corpus measurement, shared by the secret-redaction and the
 * context-gate corpora: files of ordinary developer text under a test-resource folder,
 * one sample per non-blank line, and how many lines a transformation changes at all.
 */
public final class OrdinaryText {

    /** How one file of ordinary text fared. */
    public record Result(String file, int lines, int changed, List<String> examples) {

        public double rate() {
            return lines == 0 ? 0 : (double) changed / lines;
        }
    }

    private OrdinaryText() {
    }

    /**
     * Each file {@code folder/<file>.txt} passed line by line through {@code transform}.
     */
    public static List<Result> measure(String folder, List<String> files, UnaryOperator<String> transform) {
        List<Result> results = new ArrayList<>();
        for (String file : files) {
            List<String> lines = lines(folder, file);
            int changed = 0;
            List<String> examples = new ArrayList<>();
            for (String line : lines) {
                String out = transform.apply(line);
                if (!out.equals(line)) {
                    changed++;
                    examples.add(line + "  ->  " + out);
                }
            }
            results.add(new Result(file, lines.size(), changed, examples));
        }
        return results;
    }

    /** The non-blank lines of {@code folder/<file>.txt}. */
    public static List<String> lines(String folder, String file) {
        List<String> lines = new ArrayList<>();
        for (String line : resource(folder + "/" + file + ".txt").split("\n")) {
            if (!line.isBlank()) {
                lines.add(line);
            }
        }
        return lines;
    }

    public static int lines(List<Result> results) {
        return results.stream().mapToInt(Result::lines).sum();
    }

    public static int changed(List<Result> results) {
        return results.stream().mapToInt(Result::changed).sum();
    }

    public static double rate(List<Result> results) {
        return (double) changed(results) / lines(results);
    }

    /** One row per file and a total, in columns of {@code width} characters. */
    public static String table(List<Result> results, int width) {
        String text = "%-28s %" + width + "s %" + width + "s %" + width + "s%n";
        String row = "%-28s %" + width + "d %" + width + "d %" + width + ".4f%n";
        StringBuilder sb = new StringBuilder(String.format(text, "ordinary text", "lines", "changed", "rate"));
        for (Result r : results) {
            sb.append(String.format(row, r.file(), r.lines(), r.changed(), r.rate()));
        }
        return sb.append(String.format(row, "ALL", lines(results), changed(results), rate(results))).toString();
    }

    /** Every changed line, {@code changed <file>: <line>  ->  <output>}. */
    public static String details(List<Result> results) {
        StringBuilder sb = new StringBuilder();
        for (Result r : results) {
            for (String e : r.examples()) {
                sb.append("changed ").append(r.file()).append(": ").append(e).append('\n');
            }
        }
        return sb.toString();
    }

    /** A test resource's text (UTF-8). */
    public static String resource(String name) {
        try (InputStream in = OrdinaryText.class.getResourceAsStream(name)) {
            if (in == null) {
                throw new IllegalStateException("missing test resource " + name);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

}
