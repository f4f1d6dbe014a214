package dev.codememory.processors.shell;

import java.util.Arrays;

/**
 * A text as the shell delivers it, each character remembering the span of the raw command
 * text it was written as: {@code \"} inside double quotes is one character {@code "}
 * whose raw span is two characters long. Characters the parser added itself (the blank
 * line between two {@code -m} paragraphs, the line break a here-string ends with) have no
 * raw span ({@code -1}). Characters that stand for an expansion the parser does not
 * evaluate ({@code $VAR}, {@code ${…}}, {@code $(…)} other than a {@code cat}
 * here-document, backquotes) are kept as written and marked.
 *
 * <p>
 * Mutable while the parser builds it; read-only afterwards.
 */
final class ShellText {

    private final StringBuilder chars = new StringBuilder();

    private int[] from = new int[16];

    private int[] to = new int[16];

    private boolean[] expansion = new boolean[16];

    /** Appends {@code c}, written as {@code raw[rawFrom, rawTo)}. */
    void add(char c, int rawFrom, int rawTo, boolean expanded) {
        int i = chars.length();
        if (i == from.length) {
            int size = Math.max(16, i * 2);
            from = Arrays.copyOf(from, size);
            to = Arrays.copyOf(to, size);
            expansion = Arrays.copyOf(expansion, size);
        }
        chars.append(c);
        from[i] = rawFrom;
        to[i] = rawTo;
        expansion[i] = expanded;
    }

    /** Appends {@code raw[start, end)} verbatim, each character its own raw span. */
    void addRaw(String raw, int start, int end, boolean expanded) {
        for (int i = start; i < end; i++) {
            add(raw.charAt(i), i, i + 1, expanded);
        }
    }

    /** Appends characters the parser made up (no raw span). */
    void addSynthetic(String text) {
        for (int i = 0; i < text.length(); i++) {
            add(text.charAt(i), -1, -1, false);
        }
    }

    void addAll(ShellText other) {
        for (int i = 0; i < other.length(); i++) {
            add(other.chars.charAt(i), other.from[i], other.to[i], other.expansion[i]);
        }
    }

    /** The characters from {@code start} on, with their raw spans. */
    ShellText tail(int start) {
        ShellText t = new ShellText();
        for (int i = start; i < length(); i++) {
            t.add(chars.charAt(i), from[i], to[i], expansion[i]);
        }
        return t;
    }

    /**
     * This text without its trailing line breaks, as a command substitution delivers it.
     */
    ShellText withoutTrailingNewlines() {
        int end = length();
        while (end > 0 && chars.charAt(end - 1) == '\n') {
            end--;
        }
        ShellText t = new ShellText();
        for (int i = 0; i < end; i++) {
            t.add(chars.charAt(i), from[i], to[i], expansion[i]);
        }
        return t;
    }

    int length() {
        return chars.length();
    }

    char charAt(int i) {
        return chars.charAt(i);
    }

    String value() {
        return chars.toString();
    }

    /**
     * Where character {@code i} starts in the raw text, or -1 when the parser added it.
     */
    int rawFrom(int i) {
        return from[i];
    }

    /** Where character {@code i} ends in the raw text, or -1 when the parser added it. */
    int rawTo(int i) {
        return to[i];
    }

    /** True when character {@code i} is part of an expansion kept as written. */
    boolean expanded(int i) {
        return expansion[i];
    }

    @Override
    public String toString() {
        return value();
    }

}
