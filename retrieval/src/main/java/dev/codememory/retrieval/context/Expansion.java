package dev.codememory.retrieval.context;

/**
 * Why the injected text holds what it holds: the expansion rule that applied to the hits'
 * scores. The layer it names is shown when the budget has room for it (see
 * {@link PromptContextBuilder}).
 */
public enum Expansion {

    /** Nothing injected: no match, or not even one index line fits the budget. */
    NONE,
    /** The index (layer 1) only: matches, none confident and not ambiguous. */
    INDEX_ONLY,
    /** The best hit is in the {@code HIGH} band: its details (layer 3). */
    HIGH_CONFIDENCE,
    /**
     * The best hit is at least 0.85 and at least 0.10 ahead of the next: its details
     * (layer 3).
     */
    CLEAR_WINNER,
    /**
     * Three or more hits at least 0.80: the timelines (layer 2) of the top three, no
     * details.
     */
    AMBIGUOUS,
    /**
     * The prompt asks about past work ({@code PastQuestion}): the lines of the hits that
     * answer it ({@link AnswerLines}), no index.
     */
    ANSWER

}
