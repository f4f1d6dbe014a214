package dev.codememory.retrieval.query;

/**
 * A query could not be answered (unreadable database, bad input line); the message names
 * what.
 */
public class QueryException extends RuntimeException {

    public QueryException(String message) {
        super(message);
    }

    public QueryException(String message, Throwable cause) {
        super(message, cause);
    }

}
