package dev.codememory.config.ingest;

import java.util.Objects;

/**
 * One line of a sealed spool file. {@code validUtf8} is false when the bytes were not
 * UTF-8; {@code text} then holds them decoded with replacement characters, and
 * {@code torn} is true when the file ended without '\n' (a writer killed mid-line).
 */
public record SpoolLine(String file, long lineNumber, String text, boolean validUtf8, boolean torn) {

    public SpoolLine {
        Objects.requireNonNull(file, "file");
        Objects.requireNonNull(text, "text");
        if (lineNumber < 1) {
            throw new IllegalArgumentException("line numbers start at 1, was " + lineNumber);
        }
    }
}
