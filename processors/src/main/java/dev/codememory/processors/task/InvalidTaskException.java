package dev.codememory.processors.task;

/**
 * A task candidate or task event that cannot be used as it stands; the message names the
 * offending value.
 */
public class InvalidTaskException extends RuntimeException {

    public InvalidTaskException(String message) {
        super(message);
    }

}
