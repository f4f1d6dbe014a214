package dev.codememory.writers.forget;

import java.time.LocalDateTime;
import java.util.Objects;

/**
 * What the user asks to forget: one memory (by its entry id), one session, everything
 * before a moment, or every event and memory whose text contains a phrase
 * (case-insensitive).
 */
public record Forgetting(Kind kind, String value, LocalDateTime before) {

    public enum Kind {

        MEMORY, SESSION, BEFORE, MATCH

    }

    public Forgetting {
        Objects.requireNonNull(kind, "kind");
        if (kind == Kind.BEFORE) {
            Objects.requireNonNull(before, "before");
        }
        else if (value == null || value.isBlank()) {
            throw new IllegalArgumentException("nothing to forget: the " + kind.name().toLowerCase() + " is empty");
        }
    }

    public static Forgetting memory(String entryId) {
        return new Forgetting(Kind.MEMORY, entryId, null);
    }

    public static Forgetting session(String sessionId) {
        return new Forgetting(Kind.SESSION, sessionId, null);
    }

    public static Forgetting before(LocalDateTime utc) {
        return new Forgetting(Kind.BEFORE, null, utc);
    }

    public static Forgetting match(String text) {
        return new Forgetting(Kind.MATCH, text, null);
    }

    /**
     * Whether the raw events (and the spool lines they came from) go too, not only
     * memories.
     */
    public boolean erasesEvents() {
        return kind != Kind.MEMORY;
    }

    /**
     * How the audit log names it: ids and dates as they are, a match only by its length
     * (never its text).
     */
    public String describe() {
        return switch (kind) {
            case MEMORY -> "memory " + value;
            case SESSION -> "session " + value;
            case BEFORE -> "before " + before + "Z";
            case MATCH -> "match (" + value.length() + " characters)";
        };
    }
}
