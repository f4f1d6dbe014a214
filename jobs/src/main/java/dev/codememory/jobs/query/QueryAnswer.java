package dev.codememory.jobs.query;

import dev.codememory.processors.query.MatchBand;
import java.util.List;

/**
 * A query's ranked memories with the band of the best ({@link MatchBand}), for a front
 * end to decide what to show: in the {@code NONE} band nothing matches, and what was
 * ranked are near misses (a search for a word no memory holds still ranks every memory
 * nearest by meaning, at a low score), shown only when the user asks for them.
 *
 * @param ranked best first, as {@link QueryService#search} ranks them
 */
public record QueryAnswer(MatchBand band, List<QueryResult> ranked) {

    public QueryAnswer {
        ranked = List.copyOf(ranked);
    }

    public static QueryAnswer of(List<QueryResult> ranked) {
        return new QueryAnswer(MatchBand.of(ranked.stream().map(QueryResult::score).toList()), ranked);
    }

    /** Whether no memory matches: nothing, or only near misses, was found. */
    public boolean nothingMatches() {
        return band == MatchBand.NONE;
    }

    /** The memories that match; empty when nothing does. */
    public List<QueryResult> matches() {
        return nothingMatches() ? List.of() : ranked;
    }

    /** What was ranked when nothing matches (empty otherwise). */
    public List<QueryResult> nearMisses() {
        return nothingMatches() ? ranked : List.of();
    }

}
