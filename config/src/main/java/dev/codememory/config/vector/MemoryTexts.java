package dev.codememory.config.vector;

/**
 * What text stands for a memory in the vector index. The rule is pure logic (it lives
 * with the embedder); the embed step's reader calls it for each memory it loads.
 */
@FunctionalInterface
public interface MemoryTexts {

    /**
     * @param kind the memory's entry type ({@code exchange}, {@code task}, …)
     * @param title its title
     * @param body its body; an exchange's is the prompt, a blank line and the reply
     * @param replyQuote for an exchange, the excerpt quoted from its reply (the reply's
     * first characters), else null
     * @return the text to embed
     */
    String embeddingText(String kind, String title, String body, String replyQuote);

}
