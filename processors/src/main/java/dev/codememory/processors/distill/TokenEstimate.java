package dev.codememory.processors.distill;

/**
 * A token count estimated without the model's tokenizer, to keep within the budget before
 * a request is sent: a token per 4 ASCII characters (Claude's tokenizer gives English
 * prose and code 3.5 to 4.5 characters a token) and one per other code point (CJK and
 * accented text runs about a token a character), rounded up. The model's own count, when
 * it reports one, replaces the estimate in the ledger.
 */
public final class TokenEstimate {

    private TokenEstimate() {
    }

    public static long of(String text) {
        if (text == null) {
            return 0;
        }
        long ascii = 0;
        long other = 0;
        for (int i = 0; i < text.length();) {
            int cp = text.codePointAt(i);
            if (cp < 0x80) {
                ascii++;
            }
            else {
                other++;
            }
            i += Character.charCount(cp);
        }
        return (ascii + 3) / 4 + other;
    }

}
