package dev.codememory.processors.canonical;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.text.Normalizer;
import java.util.HexFormat;
import java.util.Locale;

/**
 * Canonical forms of text used as keys: NFKC, lower case, punctuation stripped,
 * whitespace collapsed; a key longer than {@link #MAX_KEY_CHARS} keeps its head and gets
 * a hash of the whole, so it stays unique and bounded.
 */
public final class CanonicalKeys {

    public static final int MAX_KEY_CHARS = 120;

    private CanonicalKeys() {
    }

    /**
     * The canonical text: NFKC, lower case, punctuation and symbols removed, whitespace
     * collapsed.
     */
    public static String normalize(String text) {
        if (text == null) {
            return "";
        }
        String nfkc = Normalizer.normalize(text, Normalizer.Form.NFKC).toLowerCase(Locale.ROOT);
        StringBuilder out = new StringBuilder(nfkc.length());
        boolean space = false;
        for (int i = 0; i < nfkc.length();) {
            int cp = nfkc.codePointAt(i);
            i += Character.charCount(cp);
            if (Character.isLetterOrDigit(cp)) {
                if (space && out.length() > 0) {
                    out.append(' ');
                }
                space = false;
                out.appendCodePoint(cp);
            }
            else if (Character.isWhitespace(cp) || isPunctuationOrSymbol(cp)) {
                space = true;
            }
            // other code points (combining marks, format characters) are dropped
        }
        return out.toString();
    }

    /** {@code prefix:normalized}, shortened with a hash when long. */
    public static String key(String prefix, String text) {
        String normalized = normalize(text);
        String key = prefix + ":" + normalized;
        if (key.length() <= MAX_KEY_CHARS) {
            return key;
        }
        String hash = sha256(key).substring(0, 16); // the whole key: prefixes (projects)
                                                    // that share a head stay apart
        return key.substring(0, MAX_KEY_CHARS - 17) + "#" + hash;
    }

    public static String sha256(String text) {
        try {
            return HexFormat.of()
                .formatHex(MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8)));
        }
        catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this JDK", e);
        }
    }

    private static boolean isPunctuationOrSymbol(int cp) {
        return switch (Character.getType(cp)) {
            case Character.CONNECTOR_PUNCTUATION, Character.DASH_PUNCTUATION, Character.START_PUNCTUATION,
                    Character.END_PUNCTUATION, Character.INITIAL_QUOTE_PUNCTUATION, Character.FINAL_QUOTE_PUNCTUATION,
                    Character.OTHER_PUNCTUATION, Character.MATH_SYMBOL, Character.CURRENCY_SYMBOL,
                    Character.MODIFIER_SYMBOL, Character.OTHER_SYMBOL ->
                true;
            default -> false;
        };
    }

}
