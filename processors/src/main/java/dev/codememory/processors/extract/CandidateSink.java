package dev.codememory.processors.extract;

import dev.codememory.config.graduate.Candidate;
import dev.codememory.config.graduate.CandidateKind;
import dev.codememory.config.graduate.Quote;
import dev.codememory.config.graduate.TaskFields;
import dev.codememory.processors.canonical.CanonicalKeys;
import java.time.LocalDateTime;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Collects one session's candidates in order, dropping repeats of an id. Single use, one thread.
 *
 * <p>{@code candidateId = "cand_" + the first 32 hex digits of sha256(kind | sessionId | source event ids,
 * comma-joined in quote order | CanonicalKeys.normalize(body))}.
 */
final class CandidateSink {

    private static final int ID_HEX_CHARS = 32;

    private final String sessionId;
    private final String project;
    private final String extractor;
    private final Map<String, Candidate> byId = new LinkedHashMap<>();

    CandidateSink(String sessionId, String project, String extractor) {
        this.sessionId = sessionId;
        this.project = project;
        this.extractor = extractor;
    }

    void add(CandidateKind kind, LocalDateTime ts, String title, String body, TaskFields task, List<Quote> quotes) {
        String id = candidateId(kind, sessionId, quotes, body);
        byId.putIfAbsent(id, new Candidate(id, kind, sessionId, project, ts, title, body, task, quotes, extractor));
    }

    List<Candidate> candidates() {
        return List.copyOf(byId.values());
    }

    static String candidateId(CandidateKind kind, String sessionId, List<Quote> quotes, String body) {
        Set<String> eventIds = new LinkedHashSet<>();
        for (Quote quote : quotes) {
            eventIds.add(quote.eventId());
        }
        String material = kind.key() + "|" + sessionId + "|" + String.join(",", eventIds) + "|"
                + CanonicalKeys.normalize(body);
        return "cand_" + CanonicalKeys.sha256(material).substring(0, ID_HEX_CHARS);
    }
}
