package dev.codememory.retrieval.ranking;

import dev.codememory.config.text.TextCuts;

/**
 * Whether a turn ends by asking something. In a conversation the answer to a question is
 * the turn that follows it, while the question repeats the asker's words: "What's a
 * favourite book you remember?" matches a query about that book better than "I loved
 * Charlotte's Web as a kid" does. Ranking uses this to put the reply first (see
 * {@link HybridRanker#sourceScore} and {@link RankingSettings#questionPenalty()}).
 */
public final class Questions {

    /** Closing quotes, emphasis marks and brackets a question mark may stand inside. */
    private static final String CLOSERS = "\"'”’»*_`)]";

    private Questions() {
    }

    /**
     * @return true when the text's last sentence is a question: after dropping closing
     * asides in brackets or parentheses ({@code [shares a photo]}, {@code (see above)}),
     * then closing quotes, emphasis marks and spaces, it ends with {@code ?} (or the
     * full-width {@code ？}). Read from the end: a source's text may be a long tool
     * output, and ranking asks this of every source of every hit.
     */
    public static boolean asks(String text) {
        if (text == null) {
            return false;
        }
        int end = withoutAsides(text);
        while (end > 0 && (TextCuts.isSpace(text.charAt(end - 1)) || CLOSERS.indexOf(text.charAt(end - 1)) >= 0)) {
            end--;
        }
        return end > 0 && (text.charAt(end - 1) == '?' || text.charAt(end - 1) == '？');
    }

    /**
     * Where the text ends once its closing asides are dropped: each a {@code [...]} with
     * no bracket inside or a {@code (...)} with no parenthesis inside, with the spaces
     * around them.
     */
    private static int withoutAsides(String text) {
        int end = text.length();
        while (true) {
            int close = withoutSpaces(text, end);
            if (close == 0) {
                return end;
            }
            char last = text.charAt(close - 1);
            char open = last == ']' ? '[' : last == ')' ? '(' : 0;
            if (open == 0) {
                return end;
            }
            int i = close - 2;
            while (i >= 0 && text.charAt(i) != open && text.charAt(i) != last) {
                i--;
            }
            if (i < 0 || text.charAt(i) != open) {
                return end;
            }
            end = withoutSpaces(text, i);
        }
    }

    /** Where the text up to {@code end} ends once its trailing spaces are dropped. */
    private static int withoutSpaces(String text, int end) {
        while (end > 0 && TextCuts.isSpace(text.charAt(end - 1))) {
            end--;
        }
        return end;
    }

}
