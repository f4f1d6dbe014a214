package dev.codememory.config.transcript;

import java.util.Map;
import java.util.Objects;

/**
 * One record (line) of a Claude Code transcript as parsed JSON; {@code line} counts from
 * 1 in its file.
 */
public record TranscriptRecord(int line, Map<String, Object> json) {

    public TranscriptRecord {
        Objects.requireNonNull(json, "json");
    }

    /** A top-level string field, or null. */
    public String text(String key) {
        return json.get(key) instanceof String s ? s : null;
    }

    /** Whether a top-level field is {@code true}. */
    public boolean flag(String key) {
        return Boolean.TRUE.equals(json.get(key));
    }
}
