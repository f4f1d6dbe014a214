package dev.codememory.processors.task;

import java.util.Objects;

/**
 * An existing task scored against a title by {@link TaskMatcher}.
 *
 * @param score 1.0 for the same canonical key, else the similarity in [0, 0.99]
 */
public record TaskMatch(String taskId, String key, String title, TaskStatus status, double score) {

    public TaskMatch {
        Objects.requireNonNull(taskId, "taskId");
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(title, "title");
        Objects.requireNonNull(status, "status");
        if (!(score >= 0.0 && score <= 1.0)) {
            throw new IllegalArgumentException("score out of [0, 1]: " + score);
        }
    }
}
