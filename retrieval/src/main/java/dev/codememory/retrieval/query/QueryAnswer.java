package dev.codememory.retrieval.query;

import dev.codememory.retrieval.ranking.MatchBand;
import java.util.List;

/**
 * A query's ranked memories with the band of the best ({@link MatchBand}), for a front
 * end to decide what to show. Nothing matches when nothing was found, or when the best is
 * in the {@code NONE} band and no memory holds a word of the query: a search for a word
 * no memory holds ("kubernetes") still ranks the memories nearest by meaning, at a low
 * score; those are near misses, shown only when the user asks for them. A question that
 * shares its words with memories is answered with what ranked, whatever its band: a
 * developer's question scores low against a terse memory that still answers it.
 *
 * @param ranked best first, as {@link QueryService#search} ranks them
 * @param wordsHeld whether some memory searched holds a word of the query
 */
public record QueryAnswer(MatchBand band, List<QueryResult> ranked, boolean wordsHeld) {

    /** The answer to an empty query, or to one that reached no memory. */
    public static final QueryAnswer NOTHING = new QueryAnswer(MatchBand.NONE, List.of(), false);

    public QueryAnswer {
        ranked = List.copyOf(ranked);
    }

    public static QueryAnswer of(List<QueryResult> ranked, boolean wordsHeld) {
        return new QueryAnswer(MatchBand.of(ranked.stream().map(QueryResult::score).toList()), ranked, wordsHeld);
    }

    /** Whether no memory matches: nothing, or only near misses, was found. */
    public boolean nothingMatches() {
        return ranked.isEmpty() || band == MatchBand.NONE && !wordsHeld;
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
