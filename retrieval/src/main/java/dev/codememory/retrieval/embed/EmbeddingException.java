package dev.codememory.retrieval.embed;

/**
 * A model could not be loaded, failed its integrity check, or failed to embed a batch.
 */
public class EmbeddingException extends RuntimeException {

    public EmbeddingException(String message) {
        super(message);
    }

    public EmbeddingException(String message, Throwable cause) {
        super(message, cause);
    }

}
