package dev.codememory.retrieval.context;

import dev.codememory.retrieval.ranking.MatchBand;
import java.util.List;
import java.util.Objects;

/**
 * The text a {@code UserPromptSubmit} hook injects, and what it is made of.
 *
 * @param text the text; empty when nothing is to be injected
 * @param citations the citations of the memories listed, in the order listed
 * ({@code mem:a7Bc3x})
 * @param band the match band of the hits
 * @param reason the expansion rule that applied; {@link Expansion#NONE} when the text is
 * empty
 * @param estimatedTokens {@link ContextBudget#estimateTokens(CharSequence)} of the text
 * @param withheld how many instruction-like parts the gate withheld from the text
 */
public record InjectedContext(String text, List<String> citations, MatchBand band, Expansion reason,
        int estimatedTokens, int withheld) {

    public InjectedContext {
        Objects.requireNonNull(text, "text");
        citations = List.copyOf(citations);
        Objects.requireNonNull(band, "band");
        Objects.requireNonNull(reason, "reason");
    }

    public static InjectedContext empty(MatchBand band) {
        return new InjectedContext("", List.of(), band, Expansion.NONE, 0, 0);
    }

    /** True when there is nothing to inject (the hook then prints nothing). */
    public boolean isEmpty() {
        return text.isEmpty();
    }
}
