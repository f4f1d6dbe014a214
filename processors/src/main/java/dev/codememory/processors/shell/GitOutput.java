package dev.codememory.processors.shell;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads what {@code git commit} printed. The output is raw text, whose lines end at line
 * breaks, or the compact JSON of a Bash response ({@code {"stdout":"…","stderr":"…",…}},
 * its first non-blank character <code>{</code>), whose lines also end at escaped line
 * breaks and at the quotes that end string values; JSON lines are decoded before they are
 * read. Stateless and thread-safe.
 */
public final class GitOutput {

    /** Git's commit summary line, as {@link #committedSha(String)} describes it. */
    private static final Pattern SUMMARY = Pattern
        .compile("\\s*(?:Error: )?\\[(?:detached HEAD|[^\\s\\[\\]]+)(?: \\(root-commit\\))? ([0-9a-f]{7,64})](?: |$)");

    private static final Pattern CREATE_MODE = Pattern.compile("\\s*create mode [0-7]{6} (.+?)\\s*");

    private GitOutput() {
    }

    /**
     * The abbreviated sha of the first commit summary line in {@code output}, or null
     * when there is none: a commit that failed ({@code nothing to commit}, a rejecting
     * hook, {@code fatal: …}) prints none. Null for null.
     *
     * <p>
     * A summary line is a line that starts (after blanks, and after Claude Code's
     * {@code Error: } prefix when a later command of the line failed) with
     * {@code [<branch> <sha>]}, {@code [<branch> (root-commit) <sha>]} or
     * {@code [detached HEAD <sha>]} followed by a space or the end of the line; a branch
     * is any run of characters without whitespace or brackets ({@code feature/x}
     * included), a sha 7 to 64 lowercase hex digits.
     */
    public static String committedSha(String output) {
        if (output == null) {
            return null;
        }
        for (String line : OutputText.decodedLines(output)) {
            Matcher m = SUMMARY.matcher(line);
            if (m.lookingAt()) {
                return m.group(1);
            }
        }
        return null;
    }

    /**
     * The paths of the {@code create mode <mode> <path>} lines of {@code output}, in
     * order, as git names them relative to the repository root; a path git quoted
     * ({@code "dir/\303\251.md"}) is unquoted, its octal escapes read as UTF-8 bytes.
     * Empty for null.
     */
    public static List<String> createdFiles(String output) {
        List<String> out = new ArrayList<>();
        if (output == null) {
            return out;
        }
        for (String line : OutputText.decodedLines(output)) {
            Matcher m = CREATE_MODE.matcher(line);
            if (m.matches()) {
                out.add(unquote(m.group(1)));
            }
        }
        return out;
    }

    /**
     * A path as git quotes it ({@code core.quotePath}): C escapes and octal bytes in
     * double quotes.
     */
    static String unquote(String path) {
        if (path.length() < 2 || path.charAt(0) != '"' || path.charAt(path.length() - 1) != '"') {
            return path;
        }
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        int i = 1;
        int end = path.length() - 1;
        while (i < end) {
            char c = path.charAt(i);
            if (c != '\\' || i + 1 >= end) {
                bytes.writeBytes(String.valueOf(c).getBytes(StandardCharsets.UTF_8));
                i++;
                continue;
            }
            char e = path.charAt(i + 1);
            if (i + 4 <= end && isOctal(path.charAt(i + 1)) && isOctal(path.charAt(i + 2))
                    && isOctal(path.charAt(i + 3))) {
                bytes.write(Integer.parseInt(path.substring(i + 1, i + 4), 8) & 0xFF);
                i += 4;
                continue;
            }
            bytes.write(switch (e) {
                case 'n' -> '\n';
                case 't' -> '\t';
                case 'r' -> '\r';
                case 'a' -> 7;
                case 'b' -> '\b';
                case 'f' -> '\f';
                case 'v' -> 11;
                default -> e;
            });
            i += 2;
        }
        return bytes.toString(StandardCharsets.UTF_8);
    }

    private static boolean isOctal(char c) {
        return c >= '0' && c <= '7';
    }

}
