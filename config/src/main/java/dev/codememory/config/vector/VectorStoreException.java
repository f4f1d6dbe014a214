package dev.codememory.config.vector;

/** A vector store operation failed; the message names the operation and the store. */
public class VectorStoreException extends RuntimeException {

    public VectorStoreException(String message, Throwable cause) {
        super(message, cause);
    }

}
