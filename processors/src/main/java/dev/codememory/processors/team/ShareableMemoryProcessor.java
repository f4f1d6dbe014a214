package dev.codememory.processors.team;

import dev.codememory.config.team.SharedMemory;
import dev.codememory.processors.privacy.Redactor;
import java.util.Locale;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.batch.infrastructure.item.ItemProcessor;

/**
 * Decides what of a verified memory may leave this machine for the team store. Only the
 * kinds a team learns from pass ({@link #SHAREABLE}: decisions, preferences, facts, work
 * recorded from commits and pull requests, error-to-fix insights); exchanges, tool
 * observations, tasks and session summaries never do: they are one person's conversation
 * and work list.
 *
 * <p>
 * A memory is held back whole (filtered, never trimmed) when any of its words — title,
 * body or an evidence quote — is private or secret: it carries the marker capture left
 * where a {@code <private>} section or a secret was ({@link Redactor#PRIVATE_MARKER},
 * {@link Redactor#SECRET_MARKER}), or the redaction rules, run again now, still find a
 * secret in it (rules added since it was captured). A memory that lost a part to
 * redaction could be misleading without it, and the fact that a secret was near it is
 * itself not for the team.
 */
public final class ShareableMemoryProcessor implements ItemProcessor<SharedMemory, SharedMemory> {

    private static final Logger log = LoggerFactory.getLogger(ShareableMemoryProcessor.class);

    /** The kinds that may be shared, as {@code entries.entry_type} spells them. */
    public static final Set<String> SHAREABLE = Set.of("decision", "preference", "fact", "work", "insight");

    private final Redactor redactor;

    public ShareableMemoryProcessor(Redactor redactor) {
        this.redactor = redactor;
    }

    @Override
    public SharedMemory process(SharedMemory memory) {
        String kind = memory.kind().toLowerCase(Locale.ROOT);
        if (!SHAREABLE.contains(kind)) {
            log.debug("not shared: {} is a {}", memory.memoryId(), kind);
            return null;
        }
        if (!clean(memory.title()) || !clean(memory.body())
                || memory.quotes().stream().anyMatch(q -> !clean(q.text()))) {
            log.info("not shared: {} holds private or secret text", memory.memoryId());
            return null;
        }
        return memory;
    }

    /** Whether the text may be shared: no redaction marker, nothing the rules redact. */
    boolean clean(String text) {
        if (text == null || text.isEmpty()) {
            return true;
        }
        if (text.contains(Redactor.PRIVATE_MARKER) || text.contains(Redactor.SECRET_MARKER)) {
            return false;
        }
        return redactor.redact(text).equals(text);
    }

}
