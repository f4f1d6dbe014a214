package dev.codememory.processors.shell;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Reads a failed tool call's output: the line that says what went wrong, and whether the
 * "failure" was the user refusing or interrupting the call. Stateless and thread-safe.
 */
public final class ErrorLines {

    /** The longest line {@link #firstMeaningful(String)} returns. */
    public static final int MAX_LINE = 200;

    /**
     * Words that mark a line as saying what failed, lower case; matched ignoring case.
     */
    private static final String[] CUES = { "error", "fail", "fatal", "exception", "cannot", "can't", "could not",
            "not found", "undefined", "no such", "denied", "refused", "invalid", "unexpected", "traceback", "panic",
            "segmentation", "timed out" };

    private static final String CUE_INITIALS = "efcnudritps";

    private static final Pattern BARE_ERROR = Pattern.compile("(?i)error:?");

    private static final String PREFIX = "Error:";

    private static final String[] REFUSALS = { "The user doesn't want to proceed with this tool use",
            "The user doesn't want to take this action right now", "[Request interrupted by user" };

    private static final Pattern PERMISSION_DENIED = Pattern.compile("Permission to use \\S[^\\n]*? has been denied");

    private ErrorLines() {
    }

    /**
     * The first meaningful error line of {@code output}, exactly as it appears there (the
     * caller quotes it), or null when there is none or {@code output} is null.
     *
     * <p>
     * <b>Lines.</b> Raw text is split at line breaks; Claude Code's {@code Error:} prefix
     * at the very start is left out of the first line (so a first line that is only the
     * prefix is blank). JSON text (the compact JSON of a Bash response: its first
     * non-blank character is <code>{</code>) is split at raw and escaped {@code \n} /
     * {@code \r} and at the quotes that end a string value, escape pairs stepped over
     * whole; the lines of the {@code stderr} value come first, then those of
     * {@code stdout} (the whole text when it has neither). Each line is trimmed.
     *
     * <p>
     * <b>Choice.</b> Blank lines, lines without a letter or digit (punctuation, box
     * drawing such as {@code │ ─ ~ ^}) and a bare {@code error} / {@code error:} (any
     * case) are skipped. Of the rest, the first that holds (any case)
     * {@code error, fail, fatal, exception, cannot, can't, could not, not found, undefined, no such,
     * denied, refused, invalid, unexpected, traceback, panic, segmentation} or
     * {@code timed out} is taken, else the first one.
     *
     * <p>
     * <b>Length.</b> A line longer than {@value #MAX_LINE} characters is cut at its last
     * whitespace within the first {@value #MAX_LINE} (trailing whitespace left out), or
     * hard at {@value #MAX_LINE} when there is none, one less when that would split a
     * surrogate pair.
     */
    public static String firstMeaningful(String output) {
        int[] line = firstMeaningfulSpan(output);
        return line == null ? null : output.substring(line[0], cutEnd(output, line[0], line[1]));
    }

    /**
     * Where the line {@link #firstMeaningful} takes lies in {@code output}, whole (not
     * cut to {@value #MAX_LINE} characters): {@code {from, to}}, or null when there is
     * none. What is shown of it is gated whole before it is cut.
     */
    public static int[] firstMeaningfulSpan(String output) {
        if (output == null) {
            return null;
        }
        List<int[]> lines = new ArrayList<>();
        if (OutputText.isJson(output)) {
            int[] stderr = OutputText.stringValue(output, "stderr");
            int[] stdout = OutputText.stringValue(output, "stdout");
            if (stderr == null && stdout == null) {
                lines.addAll(OutputText.lines(output, 0, output.length(), true));
            }
            for (int[] value : new int[][] { stderr, stdout }) {
                if (value != null) {
                    lines.addAll(OutputText.lines(output, value[0], value[1], true));
                }
            }
        }
        else {
            int from = output.startsWith(PREFIX) ? PREFIX.length() : 0;
            lines.addAll(OutputText.lines(output, from, output.length(), false));
        }
        int[] first = null;
        for (int[] span : lines) {
            int[] line = trim(output, span[0], span[1]);
            if (!meaningful(output, line)) {
                continue;
            }
            if (hasCue(output, line[0], line[1])) {
                return line;
            }
            if (first == null) {
                first = line;
            }
        }
        return first;
    }

    /**
     * True when {@code s[from, to)} holds one of {@link #CUES}, ignoring case (a plain
     * scan: outputs can be MiBs).
     */
    private static boolean hasCue(String s, int from, int to) {
        for (int i = from; i < to; i++) {
            char c = Character.toLowerCase(s.charAt(i));
            if (CUE_INITIALS.indexOf(c) < 0) {
                continue;
            }
            for (String cue : CUES) {
                if (cue.charAt(0) == c && i + cue.length() <= to && s.regionMatches(true, i, cue, 0, cue.length())) {
                    return true;
                }
            }
        }
        return false;
    }

    private static int[] trim(String s, int from, int to) {
        int a = from;
        int b = to;
        while (a < b && Character.isWhitespace(s.charAt(a))) {
            a++;
        }
        while (b > a && Character.isWhitespace(s.charAt(b - 1))) {
            b--;
        }
        return new int[] { a, b };
    }

    private static boolean meaningful(String s, int[] line) {
        if (BARE_ERROR.matcher(s).region(line[0], line[1]).matches()) {
            return false;
        }
        for (int i = line[0]; i < line[1]; i++) {
            if (Character.isLetterOrDigit(s.codePointAt(i))) {
                return true;
            }
        }
        return false;
    }

    /**
     * Where the line {@code s[from, to)} ends when cut to {@value #MAX_LINE} characters.
     */
    public static int cutEnd(String s, int from, int to) {
        if (to - from <= MAX_LINE) {
            return to;
        }
        for (int i = from + MAX_LINE; i > from; i--) {
            if (Character.isWhitespace(s.charAt(i))) {
                int end = trim(s, from, i)[1];
                if (end > from) {
                    return end;
                }
            }
        }
        int end = from + MAX_LINE;
        if (Character.isHighSurrogate(s.charAt(end - 1)) && Character.isLowSurrogate(s.charAt(end))) {
            end--;
        }
        return end;
    }

    /**
     * True when {@code output} says the user refused or interrupted the tool call rather
     * than the command failing: after leading whitespace and an optional {@code Error: }
     * prefix it starts with {@code The user doesn't want to
     * proceed with this tool use},
     * {@code The user doesn't want to take this action right now} (a curly apostrophe
     * also counts), {@code [Request interrupted by user}, or
     * {@code Permission to use <tool…> has been denied} on its first line. Such a call is
     * neither a failure nor a success. False for null.
     */
    public static boolean refusal(String output) {
        if (output == null) {
            return false;
        }
        String t = output.stripLeading();
        if (t.startsWith(PREFIX)) {
            t = t.substring(PREFIX.length()).stripLeading();
        }
        t = t.substring(0, Math.min(t.length(), 4096)).replace('\u2019', '\'');
        for (String refusal : REFUSALS) {
            if (t.startsWith(refusal)) {
                return true;
            }
        }
        return PERMISSION_DENIED.matcher(t).lookingAt();
    }

}
