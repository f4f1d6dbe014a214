package dev.codememory.retrieval.context;

/**
 * How much text a hook may inject: a budget of estimated tokens and a cap on characters.
 * Characters are UTF-16 code units, as {@link String#length()} and JavaScript count them.
 *
 * <p>
 * The token estimate is one token per four characters, rounded up
 * ({@link #estimateTokens(int)}); it is the only estimator of this package, and
 * {@link #charLimit()} is its inverse. The character cap may be set lower than, but never
 * above, the 10,000 characters Claude Code keeps of a hook's {@code additionalContext}
 * (it saves the rest to a file and shows Claude a preview).
 *
 * @param maxTokens the most estimated tokens the whole text may take, at least 1
 * @param maxChars the most characters the whole text may take, 1 to
 * {@value #CLAUDE_CODE_MAX_CHARS}
 */
public record ContextBudget(int maxTokens, int maxChars) {

    /**
     * Claude Code's cap on {@code additionalContext}, {@code systemMessage} and plain
     * hook stdout.
     */
    public static final int CLAUDE_CODE_MAX_CHARS = 10_000;

    public static final int DEFAULT_MAX_TOKENS = 2_000;

    public static final ContextBudget DEFAULT = new ContextBudget(DEFAULT_MAX_TOKENS, CLAUDE_CODE_MAX_CHARS);

    private static final int CHARS_PER_TOKEN = 4;

    public ContextBudget {
        if (maxTokens < 1) {
            throw new IllegalArgumentException("maxTokens must be at least 1: " + maxTokens);
        }
        if (maxChars < 1 || maxChars > CLAUDE_CODE_MAX_CHARS) {
            throw new IllegalArgumentException("maxChars must be within 1.." + CLAUDE_CODE_MAX_CHARS + ": " + maxChars);
        }
    }

    /** A budget of {@code maxTokens} under Claude Code's character cap. */
    public static ContextBudget ofTokens(int maxTokens) {
        return new ContextBudget(maxTokens, CLAUDE_CODE_MAX_CHARS);
    }

    /**
     * The estimated tokens of a text of {@code chars} characters:
     * {@code ceil(chars / 4)}.
     */
    public static int estimateTokens(int chars) {
        return (int) ((Math.max(chars, 0) + (long) CHARS_PER_TOKEN - 1) / CHARS_PER_TOKEN);
    }

    public static int estimateTokens(CharSequence text) {
        return estimateTokens(text.length());
    }

    /** True when a text of {@code chars} characters is within both limits. */
    public boolean allows(int chars) {
        return chars <= maxChars && estimateTokens(chars) <= maxTokens;
    }

    /**
     * The longest text {@link #allows(int) allowed}:
     * {@code min(maxChars, 4 * maxTokens)}.
     */
    public int charLimit() {
        return (int) Math.min(maxChars, (long) CHARS_PER_TOKEN * maxTokens);
    }
}
