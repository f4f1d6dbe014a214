package dev.codememory.processors.extract;

import dev.codememory.config.graduate.Candidate;
import dev.codememory.config.graduate.CandidateKind;
import dev.codememory.config.graduate.Quote;
import dev.codememory.config.graduate.TaskFields;
import java.time.LocalDateTime;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Collects one session's candidates in order ({@link CandidateIds}), dropping repeats of
 * an id. Single use.
 */
final class CandidateSink {

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
        return CandidateIds.of(kind, sessionId, quotes, body);
    }

}
