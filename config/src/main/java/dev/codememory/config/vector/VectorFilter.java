package dev.codememory.config.vector;

import java.time.LocalDateTime;
import java.util.Set;

/**
 * Restricts a search. Null or empty means no restriction on that field.
 *
 * @param from inclusive
 * @param to exclusive
 */
public record VectorFilter(String project, Set<String> kinds, Set<String> statuses, LocalDateTime from,
        LocalDateTime to) {

    public VectorFilter {
        kinds = kinds == null ? Set.of() : Set.copyOf(kinds);
        statuses = statuses == null ? Set.of() : Set.copyOf(statuses);
    }

    public static VectorFilter none() {
        return new VectorFilter(null, Set.of(), Set.of(), null, null);
    }

    public static VectorFilter project(String project) {
        return new VectorFilter(project, Set.of(), Set.of("active"), null, null);
    }
}
