package dev.codememory.config.text;

import java.nio.charset.StandardCharsets;

/**
 * A string as one byte per char, for loops that must look at every character of a long text (JSON parsing and
 * writing, the redactor's scans): {@code view[i]} is {@code text.charAt(i)} when that is at most U+00FF, else
 * {@code '?'}. A loop that looks for ASCII characters other than {@code '?'} finds exactly what it would find in the
 * text; where it meets a {@code '?'} it must look at the text itself.
 *
 * <p>Why: the hook is a fresh JVM that interprets most of what it runs, and there a loop over an array costs a
 * fraction of one that calls {@code charAt} per character. For text that is all Latin-1, nearly all of it, the view is
 * a single array copy.
 */
public final class Latin1View {

    private Latin1View() {
    }

    /** The view of {@code text}: {@code view.length == text.length()}, index for index. */
    public static byte[] of(String text) {
        byte[] view = text.getBytes(StandardCharsets.ISO_8859_1);
        if (view.length == text.length()) {
            return view; // no surrogate pair was folded into a single '?': byte i is char i
        }
        view = new byte[text.length()];
        for (int i = 0; i < view.length; i++) {
            char c = text.charAt(i);
            view[i] = c <= 0xFF ? (byte) c : (byte) '?';
        }
        return view;
    }
}
