package dev.codememory.processors.shell;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * A commit message or a title and body, split into a subject (with its span in the raw
 * command) and a body.
 *
 * <p>
 * <b>Subject</b>: the first line of the text that is not blank, stripped of surrounding
 * whitespace. It is usable only when it has at least one letter or digit outside an
 * expansion kept as written (a message that is only {@code $MSG} or
 * {@code $(cat msg.txt)} says nothing) and all its characters come from the raw text. Its
 * raw span runs from where its first character was written to where its last one was, so
 * escapes inside are covered whole.
 *
 * <p>
 * <b>Body</b>: the lines after the subject line, with boilerplate lines removed (trailers
 * {@code Co-Authored-By:}, {@code Co-authored-by:}, {@code Signed-off-by:} in any case,
 * and the {@code 🤖 Generated with [Claude Code](…)} / {@code Generated with Claude Code}
 * line); a blank line right after a removed line is removed too when the lines kept so
 * far end with a blank line; then stripped.
 */
final class Message {

    private static final Pattern BOILERPLATE = Pattern.compile("(?i)\\s*(?:(?:co-authored-by|signed-off-by)\\s*:.*"
            + "|(?:\\p{So}\\s*)?generated with\\s+\\[?claude code]?(?:\\s*\\([^)]*\\))?\\.?\\s*)");

    private Message() {
    }

    /**
     * The span of the subject in {@code text}: {@code [start, end)} of its characters, or
     * null when unusable.
     */
    static int[] subject(ShellText text) {
        int n = text.length();
        int lineStart = 0;
        while (lineStart < n) {
            int lineEnd = lineStart;
            while (lineEnd < n && text.charAt(lineEnd) != '\n') {
                lineEnd++;
            }
            int a = lineStart;
            int b = lineEnd;
            while (a < b && Character.isWhitespace(text.charAt(a))) {
                a++;
            }
            while (b > a && Character.isWhitespace(text.charAt(b - 1))) {
                b--;
            }
            if (b > a) {
                return usable(text, a, b) ? new int[] { a, b } : null;
            }
            lineStart = lineEnd + 1;
        }
        return null;
    }

    private static boolean usable(ShellText text, int a, int b) {
        boolean said = false;
        for (int i = a; i < b; i++) {
            if (text.rawFrom(i) < 0) {
                return false;
            }
            said |= !text.expanded(i) && Character.isLetterOrDigit(text.charAt(i));
        }
        return said && text.rawTo(b - 1) > text.rawFrom(a);
    }

    /** The body of {@code text} after the line holding character {@code subjectEnd}. */
    static String body(String text, int subjectEnd) {
        int nl = text.indexOf('\n', subjectEnd);
        return nl < 0 ? "" : withoutBoilerplate(text.substring(nl + 1));
    }

    /**
     * {@code text} with boilerplate lines (and the blank lines they leave) removed,
     * stripped.
     */
    static String withoutBoilerplate(String text) {
        List<String> kept = new ArrayList<>();
        boolean afterRemoved = false;
        for (String line : text.split("\n", -1)) {
            if (BOILERPLATE.matcher(line).matches()) {
                afterRemoved = true;
                continue;
            }
            boolean blank = line.isBlank();
            boolean keptEndsBlank = kept.isEmpty() || kept.get(kept.size() - 1).isBlank();
            if (!(blank && afterRemoved && keptEndsBlank)) {
                kept.add(line);
            }
            afterRemoved = afterRemoved && blank;
        }
        return String.join("\n", kept).strip();
    }

}
