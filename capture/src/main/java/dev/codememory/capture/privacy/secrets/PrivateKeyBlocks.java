package dev.codememory.capture.privacy.secrets;

import java.util.regex.Pattern;

/**
 * Rule 1 of {@link SecretRules}: private key blocks,
 * {@code -----BEGIN … PRIVATE KEY-----} to its END line, or to the end of the text when
 * unclosed; also inside JSON strings, where the line breaks are {@code \n} escapes.
 */
final class PrivateKeyBlocks {

    private PrivateKeyBlocks() {
    }

    /**
     * The rule's patterns, in a holder of their own: a text without a trigger of the rule
     * loads neither them nor {@link LazyPattern}, and each compiles on first use.
     */
    private static final class Patterns {

        /**
         * An unclosed BEGIN runs to the end of the text. Bounded, no nested quantifiers.
         */
        static final LazyPattern PEM = new LazyPattern("-----BEGIN [A-Z0-9 ]{0,40}PRIVATE KEY(?: BLOCK)?-----"
                + "(?:.*?-----END [A-Z0-9 ]{0,40}PRIVATE KEY(?: BLOCK)?-----|.*+)", Pattern.DOTALL);

    }

    /** Adds the span of every private key block. */
    static void mask(String text, String latin, Spans spans) {
        if (!latin.contains("PRIVATE KEY")) {
            return;
        }
        AnchoredFind m = new AnchoredFind(Patterns.PEM, text, Starts.of(latin, "-----BEGIN ", 0));
        while (m.find()) {
            spans.add(m.start(0), m.end(0));
        }
    }

}
