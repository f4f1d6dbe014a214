package dev.codememory.retrieval.context;

import java.util.List;
import java.util.Objects;

/**
 * The text a {@code SessionStart} hook injects.
 *
 * @param text the text; empty when there is nothing to inject
 * @param citations the citations of the memories shown, in the order shown, each once
 * @param estimatedTokens {@link ContextBudget#estimateTokens(CharSequence)} of the text
 * @param withheld how many instruction-like parts the gate withheld from the text
 */
public record SessionStartContext(String text, List<String> citations, int estimatedTokens, int withheld) {

    public SessionStartContext {
        Objects.requireNonNull(text, "text");
        citations = List.copyOf(citations);
    }

    static SessionStartContext empty() {
        return new SessionStartContext("", List.of(), 0, 0);
    }

    /** True when there is nothing to inject (the hook then prints nothing). */
    public boolean isEmpty() {
        return text.isEmpty();
    }
}
