package dev.codememory.config.graduate;

/** What a candidate claims. */
public enum CandidateKind {
    /** A prompt and its reply. */
    EXCHANGE,
    /** What a tool call did. */
    OBSERVATION,
    FACT,
    DECISION,
    PREFERENCE,
    TASK,
    INSIGHT,
    /** What a finished session asked, decided, changed and left open. */
    SUMMARY;

    public String key() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }
}
