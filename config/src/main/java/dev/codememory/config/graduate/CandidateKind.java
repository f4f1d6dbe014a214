package dev.codememory.config.graduate;

/** What a candidate claims. */
public enum CandidateKind {

    /** A prompt and its reply. */
    EXCHANGE,
    /** What a tool call did. */
    OBSERVATION, FACT, DECISION, PREFERENCE, TASK, INSIGHT,
    /** What a finished session asked, decided, changed and left open. */
    SUMMARY,
    /**
     * Work done, as the session recorded it itself: a {@code git commit} that went
     * through, a pull request or an issue created with {@code gh}. Its title is the
     * commit subject (or the PR/issue title).
     */
    WORK;

    public String key() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }

}
