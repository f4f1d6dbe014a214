package dev.codememory.config.json;

/**
 * Input that is not valid JSON; the message says what and where (never the input itself).
 */
public class JsonParseException extends RuntimeException {

    public JsonParseException(String message) {
        super(message);
    }

}
