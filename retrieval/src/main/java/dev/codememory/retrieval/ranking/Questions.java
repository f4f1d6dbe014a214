package dev.codememory.retrieval.ranking;

import java.util.regex.Pattern;

/**
 * Whether a turn ends by asking something. In a conversation the answer to a question is
 * the turn that follows it, while the question repeats the asker's words: "What's a
 * favourite book you remember?" matches a query about that book better than "I loved
 * Charlotte's Web as a kid" does. Ranking uses this to put the reply first (see
 * {@link HybridRanker#sourceScore} and {@link RankingSettings#questionPenalty()}).
 */
public final class Questions {

    /**
     * A closing aside, such as {@code [shares a photo]} or {@code (see above)}, and
     * closing quotes or spaces.
     */
    private static final Pattern TRAILING_ASIDE = Pattern.compile("(?:\\s*(?:\\[[^\\[\\]]*\\]|\\([^()]*\\)))+\\s*$");

    private static final Pattern TRAILING_CLOSERS = Pattern.compile("[\\s\"'”’»*_`)\\]]+$");

    private Questions() {
    }

    /**
     * @return true when the text's last sentence is a question: after dropping closing
     * asides in brackets or parentheses, quotes and emphasis marks, it ends with
     * {@code ?} (or the full-width {@code ？})
     */
    public static boolean asks(String text) {
        if (text == null || text.isBlank()) {
            return false;
        }
        String s = TRAILING_ASIDE.matcher(text).replaceFirst("");
        s = TRAILING_CLOSERS.matcher(s).replaceFirst("");
        return s.endsWith("?") || s.endsWith("？");
    }

}
