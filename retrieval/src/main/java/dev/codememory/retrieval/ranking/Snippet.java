package dev.codememory.retrieval.ranking;

import dev.codememory.config.text.TextCuts;
import java.util.List;
import java.util.function.ToDoubleFunction;

/**
 * The sentence of a hit's source texts that says most about the query: what an index line
 * shows for a memory whose title is only the question that was asked (an exchange's title
 * is its prompt; the answer is in the reply).
 */
public final class Snippet {

    /** Longest sentence kept; the index line cuts it further at a word boundary. */
    public static final int MAX_CHARS = 300;

    private Snippet() {
    }

    /**
     * @param texts the source texts, best source first, cut into sentences as extraction
     * cuts them ({@link TextCuts#sentences})
     * @param coverage a sentence's share of the query's terms, in [0, 1]
     * @return the sentence with the largest share (the first of equals, in the order
     * given), whitespace collapsed and cut to {@value #MAX_CHARS} characters; empty when
     * no sentence holds a query term
     */
    public static String best(List<String> texts, ToDoubleFunction<String> coverage) {
        String best = "";
        double bestShare = 0;
        for (String text : texts) {
            if (text == null) {
                continue;
            }
            for (String sentence : TextCuts.sentences(text)) {
                String s = sentence.replaceAll("\\s+", " ").strip();
                if (s.isEmpty()) {
                    continue;
                }
                double share = coverage.applyAsDouble(s);
                if (share > bestShare) {
                    bestShare = share;
                    best = s;
                }
            }
        }
        return best.length() > MAX_CHARS ? best.substring(0, MAX_CHARS) : best;
    }

}
