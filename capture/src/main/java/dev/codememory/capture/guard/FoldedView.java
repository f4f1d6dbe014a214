package dev.codememory.capture.guard;

import java.text.Normalizer;

/**
 * The text folded for matching, with where each folded character came from: {@code plain}
 * is NFKC and lower case; {@code latin} also reads Cyrillic and Greek look-alikes as
 * Latin letters and {@code -} or {@code _} between letters as a space (a name that spells
 * a sentence). Both have the same length, so they share the maps.
 */
record FoldedView(String plain, String latin, int[] origin, int[] originEnd) {

    private static final String LOOKALIKES = "аaеeоoрpсcуyхxіiјjѕsԁdɡgοoαaεeιiνvρpτtκkмmнhвbтt‹<›>〈<〉>⟨<⟩>《<》>0o1i3e4a5s7t";

    static FoldedView of(String text) {
        StringBuilder plain = new StringBuilder(text.length());
        StringBuilder latin = new StringBuilder(text.length());
        int[] origin = new int[text.length() + 16];
        int[] originEnd = new int[text.length() + 16];
        int n = 0;
        for (int i = 0; i < text.length();) {
            int cp = text.codePointAt(i);
            int next = i + Character.charCount(cp);
            if (cp == '\\' && next < text.length()) {
                int[] escape = escape(text, next);
                if (escape != null) {
                    cp = escape[0];
                    next = escape[1];
                    if (Character.getType(cp) == Character.FORMAT) {
                        i = next;
                        continue;
                    }
                }
            }
            String folded = cp < 0x80 ? String.valueOf((char) Character.toLowerCase(cp))
                    : Normalizer.normalize(new String(Character.toChars(cp)), Normalizer.Form.NFKC)
                        .toLowerCase(java.util.Locale.ROOT);
            for (int k = 0; k < folded.length(); k++) {
                char c = folded.charAt(k);
                if (n == origin.length) {
                    origin = java.util.Arrays.copyOf(origin, n * 2);
                    originEnd = java.util.Arrays.copyOf(originEnd, n * 2);
                }
                plain.append(c);
                int look = LOOKALIKES.indexOf(c);
                latin.append(look >= 0 && look % 2 == 0 ? LOOKALIKES.charAt(look + 1) : c);
                origin[n] = i;
                originEnd[n] = next;
                n++;
            }
            i = next;
        }
        for (int k = 1; k + 1 < latin.length(); k++) {
            char c = latin.charAt(k);
            if ((c == '-' || c == '_') && Character.isLetter(latin.charAt(k - 1))
                    && Character.isLetter(latin.charAt(k + 1))) {
                latin.setCharAt(k, ' ');
            }
        }
        return new FoldedView(plain.toString(), latin.toString(), origin, originEnd);
    }

    /**
     * Whether [from, to) of {@code latin} holds a space that is a {@code -} or {@code _}
     * of the text: the match was found only by reading an identifier as words.
     */
    boolean readsJoinersAsSpaces(int from, int to) {
        for (int i = from; i < to; i++) {
            if (latin.charAt(i) == ' ' && plain.charAt(i) != ' ') {
                return true;
            }
        }
        return false;
    }

    /**
     * The character a JSON escape after a backslash at {@code at - 1} stands for
     * (backslash n, t, quote, or u and four hex digits) and where the escape ends, or
     * null: tool output is often stored as JSON text, where an instruction's line breaks
     * and invisible characters are escapes.
     */
    private static int[] escape(String text, int at) {
        char c = text.charAt(at);
        switch (c) {
            case 'n', 'r' -> {
                return new int[] { '\n', at + 1 };
            }
            case 't' -> {
                return new int[] { ' ', at + 1 };
            }
            case '"', '\\', '/' -> {
                return new int[] { c, at + 1 };
            }
            case 'u' -> {
                if (at + 5 <= text.length()) {
                    try {
                        return new int[] { Integer.parseInt(text.substring(at + 1, at + 5), 16), at + 5 };
                    }
                    catch (NumberFormatException e) {
                        return null;
                    }
                }
                return null;
            }
            default -> {
                return null;
            }
        }
    }

}
