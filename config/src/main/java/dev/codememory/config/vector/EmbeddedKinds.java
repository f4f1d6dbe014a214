package dev.codememory.config.vector;

/**
 * Which memories get a vector. Everything but tool observations ({@code Bash: ls -la},
 * {@code Read src/App.java}): they were 70% of what a coding session gave the model to
 * embed, a vector of a command line finds nothing a prompt asks for, and they stay found
 * by their words and through the sessions they belong to. The embed step queues by
 * {@link #SQL}; the ranker scores a memory of another kind on the signals it has
 * ({@link #embedded}), not as if its vector were far from the query.
 */
public final class EmbeddedKinds {

    private static final String NOT_EMBEDDED = "observation";

    /** The condition on {@code entries.entry_type}. */
    public static final String SQL = "entry_type <> '" + NOT_EMBEDDED + "'";

    private EmbeddedKinds() {
    }

    public static boolean embedded(String kind) {
        return !NOT_EMBEDDED.equals(kind);
    }

}
