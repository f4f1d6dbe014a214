package dev.codememory.config.json;

import java.nio.charset.StandardCharsets;

/**
 * A string as one byte per char, for loops that must look at every character of a long
 * text (JSON parsing and writing, the redactor's scans): {@code view[i]} is
 * {@code text.charAt(i)} when that is at most U+00FF, else {@code '?'}. A loop that looks
 * for ASCII characters other than {@code '?'} finds exactly what it would find in the
 * text; where it meets a {@code '?'} it must look at the text itself.
 *
 * <p>
 * Why: the hook is a fresh JVM that interprets most of what it runs, and there a loop
 * over an array costs a fraction of one that calls {@code charAt} per character. For text
 * that is all Latin-1, nearly all of it, the view is a single array copy.
 */
public final class Latin1View {

    private Latin1View() {
    }

    /**
     * The view of {@code text}: {@code view.length == text.length()}, index for index.
     */
    public static byte[] of(String text) {
        byte[] folded = text.getBytes(StandardCharsets.ISO_8859_1);
        if (folded.length == text.length()) {
            return folded; // no surrogate pair was folded into a single '?': byte i is
                           // char i
        }
        // Unfold: every '?' of the encoding is a '?', a char above U+00FF, or a surrogate
        // pair (two chars). The
        // runs between are copied whole; only the '?' are looked at, found with the JDK's
        // compiled Latin-1 search.
        byte[] view = new byte[text.length()];
        String marks = new String(folded, StandardCharsets.ISO_8859_1);
        int from = 0; // in folded
        int to = 0; // in view
        for (int q = marks.indexOf('?'); q >= 0; q = marks.indexOf('?', q + 1)) {
            System.arraycopy(folded, from, view, to, q - from);
            to += q - from;
            view[to] = '?';
            if (Character.isHighSurrogate(text.charAt(to)) && to + 1 < view.length
                    && Character.isLowSurrogate(text.charAt(to + 1))) {
                view[++to] = '?';
            }
            to++;
            from = q + 1;
        }
        System.arraycopy(folded, from, view, to, folded.length - from);
        return view;
    }

}
