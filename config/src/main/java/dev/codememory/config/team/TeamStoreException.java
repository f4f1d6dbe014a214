package dev.codememory.config.team;

/**
 * The team store (PostgreSQL or Milvus) failed or could not be reached; the message names
 * the operation, never a memory's text.
 */
public class TeamStoreException extends RuntimeException {

    public TeamStoreException(String message, Throwable cause) {
        super(message, cause);
    }

}
