package dev.codememory.capture.privacy.secrets;

import java.util.HashMap;
import java.util.Map;

/**
 * Rule 5 of {@link SecretRules}: the values of secret-named keys. One pass over the text
 * finds the words that may be part of such a name ({@link #nextKeyHint}), widens each to
 * the whole name, classifies it ({@link SecretNames#classify}) and hands a secret's name
 * to {@link ValueAfterKey}, which reads what follows it.
 */
final class SecretNamedKeys {

    private SecretNamedKeys() {
    }

    /** Adds the span of every literal value of a secret-named key. */
    static void mask(String text, byte[] view, Spans spans) {
        int n = view.length;
        Map<String, KeyClass> classes = null; // the same names come back many times in a
                                              // long text
        int i = 0;
        while (i < n) {
            int hit = nextKeyHint(view, i);
            if (hit < 0) {
                return;
            }
            int keyStart = hit;
            while (keyStart > 0 && KEY_CHAR[view[keyStart - 1] & 0xFF]) {
                keyStart--;
            }
            int keyEnd = hit;
            while (keyEnd < n && KEY_CHAR[view[keyEnd] & 0xFF]) {
                keyEnd++;
            }
            i = Math.max(keyEnd, hit + 1);
            int nameStart = keyStart;
            while (nameStart < keyEnd && (view[nameStart] == '-' || view[nameStart] == '.')) {
                nameStart++;
            }
            int nameEnd = keyEnd;
            while (nameEnd > nameStart && (view[nameEnd - 1] == '.' || view[nameEnd - 1] == '-')) {
                nameEnd--;
            }
            if (nameEnd - nameStart < 2 || nameEnd - nameStart > 80) {
                continue;
            }
            String name = text.substring(nameStart, nameEnd);
            if (classes == null) {
                classes = new HashMap<>();
            }
            KeyClass keyClass = classes.get(name);
            if (keyClass == null) {
                keyClass = SecretNames.classify(name);
                classes.put(name, keyClass);
            }
            if (keyClass == KeyClass.NONE) {
                continue;
            }
            if (keyClass == KeyClass.STRONG && maskAttributeValue(text, nameEnd, spans)) {
                continue;
            }
            boolean commandFlag = nameStart - keyStart == 2 && text.startsWith("--", keyStart);
            new ValueAfterKey(text, spans, keyClass, keyStart, nameStart, nameEnd, commandFlag).mask();
        }
    }

    /**
     * .NET's and NuGet's {@code <add key="ClearTextPassword" value="…" />}: the name is
     * an attribute and the secret is the next one, {@code value}. Masks it and returns
     * true when the name ends such a pair.
     */
    private static boolean maskAttributeValue(String text, int nameEnd, Spans spans) {
        int p = nameEnd;
        if (p >= text.length() || text.charAt(p) != '"' && text.charAt(p) != '\'') {
            return false;
        }
        char quote = text.charAt(p);
        p++;
        while (p < text.length() && (text.charAt(p) == ' ' || text.charAt(p) == '\t')) {
            p++;
        }
        if (!text.startsWith("value=", p) || p + 6 >= text.length() || text.charAt(p + 6) != quote) {
            return false;
        }
        int start = p + 7;
        int end = text.indexOf(quote, start);
        if (end < 0 || text.lastIndexOf("key=", nameEnd) < text.lastIndexOf('<', nameEnd)) {
            return false;
        }
        if (Values.isLiteralSecret(text, start, end)) {
            spans.add(start, end);
        }
        return true;
    }

    /** Characters of a key name ({@link #isKeyChar}), by byte value. */
    private static final boolean[] KEY_CHAR = new boolean[256];

    /** Letters that begin a key hint (p, s, t, k, c, a in either case), by byte value. */
    private static final boolean[] HINT_START = new boolean[256];

    static {
        for (int c = 0; c < 128; c++) {
            KEY_CHAR[c] = isKeyChar((char) c);
        }
        for (char c : "pstkca".toCharArray()) {
            HINT_START[c] = true;
            HINT_START[Character.toUpperCase(c)] = true;
        }
    }

    /**
     * Index of the next key hint at or after {@code from}, or -1: {@code pw},
     * {@code pass}, {@code secret}, {@code sig}, {@code token}, {@code key}, {@code cred}
     * or {@code auth} in any ASCII case. One pass over the view, no allocation.
     */
    private static int nextKeyHint(byte[] view, int from) {
        int last = view.length - 1; // every hint has two characters or more
        boolean[] start = HINT_START;
        boolean[] pair = HINT_PAIR;
        for (int i = from; i < last; i++) {
            int c = view[i] & 0xFF;
            if (start[c] && pair[(c | 0x20) << 7 | (view[i + 1] | 0x20) & 0x7F] && isKeyHint(view, i, view.length)) {
                return i;
            }
        }
        return -1;
    }

    /**
     * The first two letters of a hint, lower case ({@code c0 << 7 | c1}): pw, pa, se, si,
     * to, ke, cr, au.
     */
    private static final boolean[] HINT_PAIR = new boolean[128 * 128];

    static {
        for (String pair : new String[] { "pw", "pa", "se", "si", "to", "ke", "cr", "au" }) {
            HINT_PAIR[pair.charAt(0) << 7 | pair.charAt(1)] = true;
        }
    }

    private static boolean isKeyHint(byte[] view, int i, int n) {
        return switch (view[i] | 0x20) {
            case 'p' -> i + 1 < n && ((view[i + 1] | 0x20) == 'w' || Ascii.startsWithIgnoreCase(view, i, "pass"));
            case 's' -> Ascii.startsWithIgnoreCase(view, i, "secret") || Ascii.startsWithIgnoreCase(view, i, "sig");
            case 't' -> Ascii.startsWithIgnoreCase(view, i, "token");
            case 'k' -> Ascii.startsWithIgnoreCase(view, i, "key");
            case 'c' -> Ascii.startsWithIgnoreCase(view, i, "cred");
            default -> Ascii.startsWithIgnoreCase(view, i, "auth");
        };
    }

    private static boolean isKeyChar(char c) {
        return Ascii.isAlnum(c) || c == '_' || c == '-' || c == '.';
    }

}
