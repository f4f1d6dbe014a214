package dev.codememory.capture.privacy.secrets;

/**
 * ASCII character tests shared by the rules, on the text's chars and on its byte view
 * ({@link SecretRules#view}). Every rule looks for ASCII characters only.
 */
final class Ascii {

    private Ascii() {
    }

    /** ASCII letters and digits, by byte value ({@code b & 0xFF}). */
    static final boolean[] ALNUM = new boolean[256];

    static {
        for (int c = 0; c < 128; c++) {
            ALNUM[c] = isAlnum((char) c);
        }
    }

    static boolean isAlnum(char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
    }

    static boolean isDigit(char c) {
        return c >= '0' && c <= '9';
    }

    /** Whether {@code s} is one or more digits. */
    static boolean allDigits(String s) {
        for (int k = 0; k < s.length(); k++) {
            if (!Character.isDigit(s.charAt(k))) {
                return false;
            }
        }
        return !s.isEmpty();
    }

    /** ASCII case-insensitive {@code startsWith} for a lower-case word. */
    static boolean startsWithIgnoreCase(byte[] view, int at, String lowerWord) {
        int len = lowerWord.length();
        if (at + len > view.length) {
            return false;
        }
        for (int k = 0; k < len; k++) {
            if ((view[at + k] | 0x20) != lowerWord.charAt(k)) {
                return false;
            }
        }
        return true;
    }

    /** Whether {@code text[from, to)} holds a lower-case ASCII word in any ASCII case. */
    static boolean containsIgnoreCase(String text, int from, int to, String lowerWord) {
        int len = lowerWord.length();
        for (int i = from; i + len <= to; i++) {
            int k = 0;
            while (k < len && (text.charAt(i + k) | 0x20) == lowerWord.charAt(k)) {
                k++;
            }
            if (k == len) {
                return true;
            }
        }
        return false;
    }

}
