package dev.codememory.config.db;

/**
 * A DuckDB failure with the context of what we were doing. DuckDB errors carry no
 * SQLState, hence our own type.
 */
public class DatabaseException extends RuntimeException {

    public DatabaseException(String message, Throwable cause) {
        super(message, cause);
    }

}
