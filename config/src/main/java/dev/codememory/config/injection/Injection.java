package dev.codememory.config.injection;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * One time the hook put memories into Claude Code's context: which session, the event
 * that triggered it ({@code promptEventId}: the {@code event_id} ingest gives the
 * UserPromptSubmit or SessionStart line, null when that line will not become an event),
 * when, the confidence band, the size of the injected text and the memories by rank.
 * Never the prompt or the injected text itself. {@code injectedAt} is kept to the
 * microsecond, what a DuckDB TIMESTAMP holds.
 */
public record Injection(String sessionId, String promptEventId, String hookEventName, Instant injectedAt, String band,
        int chars, List<Item> items) {

    /** The hooks whose output Claude Code adds to the context. */
    public static final Set<String> HOOK_EVENTS = Set.of("UserPromptSubmit", "SessionStart");

    /**
     * The matcher's bands for a prompt, the fixed one of a session start, and
     * {@code continuity} for a prompt that asked to pick up where the work was left (it
     * gets the session-start block).
     */
    public static final Set<String> BANDS = Set.of("high", "suggested", "none", "session_start", "continuity");

    public Injection {
        if (hookEventName == null || !HOOK_EVENTS.contains(hookEventName)) {
            throw new IllegalArgumentException(
                    "hook_event_name must be one of " + sorted(HOOK_EVENTS) + ", was " + quoted(hookEventName));
        }
        Objects.requireNonNull(injectedAt, "injectedAt");
        injectedAt = injectedAt.truncatedTo(ChronoUnit.MICROS);
        if (band == null || !BANDS.contains(band)) {
            throw new IllegalArgumentException("band must be one of " + sorted(BANDS) + ", was " + quoted(band));
        }
        if (chars < 0) {
            throw new IllegalArgumentException("chars must not be negative, was " + chars);
        }
        items = List.copyOf(Objects.requireNonNull(items, "items"));
        Set<Integer> ranks = new HashSet<>();
        for (Item item : items) {
            if (!ranks.add(item.rank())) {
                throw new IllegalArgumentException("rank " + item.rank() + " appears twice");
            }
        }
    }

    /** One injected memory. Ranks start at 1 (best). */
    public record Item(String citation, String memoryId, int rank, double score) {

        public Item {
            if (citation == null || citation.isBlank()) {
                throw new IllegalArgumentException("item citation is missing");
            }
            if (memoryId == null || memoryId.isBlank()) {
                throw new IllegalArgumentException("item memory_id is missing");
            }
            if (rank < 1) {
                throw new IllegalArgumentException("item rank must be at least 1, was " + rank);
            }
            if (!Double.isFinite(score)) {
                throw new IllegalArgumentException("item score must be a finite number, was " + score);
            }
        }
    }

    /**
     * Deterministic id: {@code "in_"} + 32 hex digits of the SHA-256 of session,
     * triggering event, hook and time, so the same spool line ingested twice is one row.
     */
    public String injectionId() {
        String key = (sessionId == null ? "" : sessionId) + '\u0000' + (promptEventId == null ? "" : promptEventId)
                + '\u0000' + hookEventName + '\u0000' + injectedAt;
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(key.getBytes(StandardCharsets.UTF_8));
            return "in_" + HexFormat.of().formatHex(digest).substring(0, 32);
        }
        catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this JDK", e);
        }
    }

    private static String quoted(String s) {
        return s == null ? "null" : "'" + (s.length() > 100 ? s.substring(0, 100) + "…" : s) + "'";
    }

    private static List<String> sorted(Set<String> values) {
        return values.stream().sorted().toList();
    }
}
