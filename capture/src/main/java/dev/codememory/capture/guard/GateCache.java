package dev.codememory.capture.guard;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * Texts gated lately, with what the gate made of them: the same titles, summaries and
 * quotes come up prompt after prompt in a resident {@code serve}, and gating costs about
 * 3 ms per 1,000 characters (some 40 rules, two folded views). Holds at most
 * {@code texts} texts of at most {@code chars} characters each; a longer text is gated
 * every time, and the cache is emptied when full. Thread-safe; two threads gating the
 * same new text both gate it.
 */
final class GateCache {

    private final Map<String, GatedText> recent = new ConcurrentHashMap<>();

    private final int texts;

    private final int chars;

    GateCache(int texts, int chars) {
        this.texts = texts;
        this.chars = chars;
    }

    /**
     * What {@code gate} makes of {@code text}, from the cache when it was gated lately.
     */
    GatedText get(String text, Function<String, GatedText> gate) {
        if (text.length() > chars) {
            return gate.apply(text);
        }
        GatedText known = recent.get(text);
        if (known == null) {
            known = gate.apply(text);
            if (recent.size() >= texts) {
                recent.clear();
            }
            recent.put(text, known);
        }
        return known;
    }

    /** How many texts the cache holds now. */
    int size() {
        return recent.size();
    }

}
