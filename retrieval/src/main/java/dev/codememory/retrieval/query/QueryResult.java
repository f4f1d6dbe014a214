package dev.codememory.retrieval.query;

import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * One memory in a query's answer, shaped for the CLI's JSON ({@code query --json} and the
 * batch mode's output lines, as the README documents them); its creation time (UTC),
 * session and snippet are for the context the hooks inject and are not part of the JSON.
 *
 * @param snippet the sentence of its sources that holds most of the query's terms
 * ({@code Snippet}), or empty; worked out only when asked for: only the hook's index
 * lines use it, and a batch answer would otherwise split and tokenize every sentence of
 * every hit's sources for nothing
 * @param author for a memory from the team store, who published it; null for this home's
 * own
 */
public record QueryResult(String memoryId, String citation, double score, String kind, String summary,
        List<RankedSource> sources, LocalDateTime createdTs, String sessionId, Supplier<String> snippet,
        String author) {

    public QueryResult(String memoryId, String citation, double score, String kind, String summary,
            List<RankedSource> sources, LocalDateTime createdTs, String sessionId) {
        this(memoryId, citation, score, kind, summary, sources, createdTs, sessionId, () -> "", null);
    }

    public QueryResult(String memoryId, String citation, double score, String kind, String summary,
            List<RankedSource> sources, LocalDateTime createdTs, String sessionId, Supplier<String> snippet) {
        this(memoryId, citation, score, kind, summary, sources, createdTs, sessionId, snippet, null);
    }

    /** Whether it comes from the team store. */
    public boolean team() {
        return author != null;
    }

    public Map<String, Object> toJson() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("memory_id", memoryId);
        m.put("citation", citation);
        m.put("score", Math.round(score * 10_000) / 10_000.0);
        m.put("kind", kind);
        m.put("summary", summary);
        if (author != null) {
            m.put("team", author);
        }
        m.put("sources", sources.stream().map(s -> {
            Map<String, Object> src = new LinkedHashMap<>();
            src.put("event_id", s.eventId());
            src.put("session_id", s.sessionId());
            src.put("ts", DateTimeFormatter.ISO_LOCAL_DATE_TIME.format(s.ts()) + "Z");
            src.put("score", Math.round(s.score() * 10_000) / 10_000.0);
            if (s.answers() != null) {
                src.put("answers", s.answers());
            }
            return (Object) src;
        }).toList());
        return m;
    }
}
