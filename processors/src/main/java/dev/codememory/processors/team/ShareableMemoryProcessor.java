package dev.codememory.processors.team;

import dev.codememory.capture.privacy.Redactor;
import dev.codememory.config.graduate.Citation;
import dev.codememory.config.team.SharedMemory.SharedQuote;
import dev.codememory.config.team.SharedMemory;
import dev.codememory.processors.topic.SharedTopic;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.batch.infrastructure.item.ItemProcessor;

/**
 * Decides what of a verified memory may leave this machine for the team store. Only the
 * kinds a team learns from pass ({@link SharedMemory#SHAREABLE_KINDS}: decisions,
 * preferences (those the user marked for the team: the publish reader reads no other),
 * facts, work recorded from commits and pull requests, error-to-fix insights, topics),
 * and of those only the kinds this home publishes; exchanges, tool observations, tasks
 * and session summaries never do: they are one person's conversation and work list.
 *
 * <p>
 * A memory is held back whole (filtered, never trimmed) when any of its words — title,
 * body or an evidence quote — is private or secret: it carries the marker capture left
 * where a {@code <private>} section or a secret was ({@link Redactor#PRIVATE_MARKER},
 * {@link Redactor#SECRET_MARKER}), or the redaction rules, run again now, still find a
 * secret in it (rules added since it was captured). A memory that lost a part to
 * redaction could be misleading without it, and the fact that a secret was near it is
 * itself not for the team.
 *
 * <p>
 * A topic is composed of other memories, some of which are never shared (its
 * {@code Still open} lines are the developer's to-do items, its {@code Completed} lines
 * too), so what is published is its team copy ({@link SharedTopic}): only the lines that
 * rest on a memory this processor would publish itself — a kind this home publishes,
 * never a topic, with no private or secret word — with their quotes. A topic left with
 * fewer than two such lines is not published. The copy's words are then checked as any
 * memory's.
 */
public final class ShareableMemoryProcessor implements ItemProcessor<SharedMemory, SharedMemory> {

    private static final Logger log = LoggerFactory.getLogger(ShareableMemoryProcessor.class);

    /** The kinds composed of other memories: published as a copy of shared lines. */
    static final Set<String> COMPOSED = Set.of("topic");

    private final Redactor redactor;

    private final Set<String> kinds;

    /** Every shareable kind. */
    public ShareableMemoryProcessor(Redactor redactor) {
        this(redactor, SharedMemory.SHAREABLE_KINDS);
    }

    /**
     * @param kinds the kinds this home publishes ({@code code-memory.team.kinds}), a
     * subset of {@link SharedMemory#SHAREABLE_KINDS}
     */
    public ShareableMemoryProcessor(Redactor redactor, Collection<String> kinds) {
        this.redactor = redactor;
        this.kinds = Set.copyOf(kinds.stream().filter(SharedMemory.SHAREABLE_KINDS::contains).toList());
    }

    @Override
    public SharedMemory process(SharedMemory memory) {
        String kind = kind(memory);
        if (!kinds.contains(kind)) {
            log.debug("not shared: {} is a {}", memory.memoryId(), kind);
            return null;
        }
        if (COMPOSED.contains(kind)) {
            Optional<SharedMemory> copy = teamCopy(memory);
            if (copy.isEmpty()) {
                log.info("not shared: {} rests on fewer than two memories the team sees", memory.memoryId());
                return null;
            }
            memory = copy.get();
        }
        if (!clean(memory)) {
            log.info("not shared: {} holds private or secret text", memory.memoryId());
            return null;
        }
        return memory;
    }

    /** The topic with only its lines that rest on memories published on their own. */
    private Optional<SharedMemory> teamCopy(SharedMemory topic) {
        Map<String, SharedTopic.Source> shown = new HashMap<>();
        Map<String, SharedMemory> byCitation = new HashMap<>();
        for (SharedMemory cited : topic.cites()) {
            String kind = kind(cited);
            if (kinds.contains(kind) && !COMPOSED.contains(kind) && clean(cited)) {
                String citation = Citation.PREFIX + cited.citation();
                shown.put(citation, new SharedTopic.Source(cited.sessionId(), cited.createdTs()));
                byCitation.put(citation, cited);
            }
        }
        return SharedTopic.of(topic.title(), topic.body(), shown, topic.quotes().size()).map(copy -> {
            List<SharedQuote> quotes = new ArrayList<>();
            for (int i : copy.quotes()) {
                SharedQuote q = topic.quotes().get(i);
                quotes.add(new SharedQuote(quotes.size(), q.field(), q.tool(), q.text()));
            }
            return new SharedMemory(topic.memoryId(), topic.project(), topic.kind(), copy.title(), copy.body(),
                    topic.createdTs(), topic.citation(), quotes, topic.sessionId(),
                    copy.citations().stream().map(byCitation::get).toList());
        });
    }

    private static String kind(SharedMemory memory) {
        return memory.kind().toLowerCase(Locale.ROOT);
    }

    /** Whether none of the memory's words is private or secret. */
    private boolean clean(SharedMemory memory) {
        return clean(memory.title()) && clean(memory.body()) && memory.quotes().stream().allMatch(q -> clean(q.text()));
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
