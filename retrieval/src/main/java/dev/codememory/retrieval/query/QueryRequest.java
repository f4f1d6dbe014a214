package dev.codememory.retrieval.query;

import java.time.LocalDateTime;
import java.util.Objects;

/**
 * One query: its text, the project to search (null: every project) and the query time
 * (UTC) for recency.
 */
public record QueryRequest(String qid, String text, String project, LocalDateTime at) {

    public QueryRequest {
        Objects.requireNonNull(text, "text");
        Objects.requireNonNull(at, "at");
    }
}
