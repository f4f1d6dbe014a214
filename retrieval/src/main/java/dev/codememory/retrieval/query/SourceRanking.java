package dev.codememory.retrieval.query;

import dev.codememory.config.db.DuckDb;
import dev.codememory.retrieval.query.ProjectCorpora.Corpus;
import dev.codememory.retrieval.ranking.HybridRanker;
import dev.codememory.retrieval.ranking.Questions;
import dev.codememory.retrieval.ranking.RankedMemory;
import dev.codememory.retrieval.ranking.RankingSettings;
import dev.codememory.retrieval.ranking.Snippet;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * The source events {@link QueryService} attaches to its results: each hit's own sources
 * scored against the query, the turns that answer those that ask, and the snippet that
 * says most about the query. Reads the sessions of a source only when its answer is not
 * known yet, and keeps what it reads in the project's corpus.
 */
final class SourceRanking {

    /**
     * A hit's ranked source events and the sentence of their texts that says most about
     * the query.
     */
    record HitSources(List<RankedSource> sources, Supplier<String> snippet) {
        static final HitSources NONE = new HitSources(List.of(), () -> "");

    }

    private final DuckDb.Session session;

    private final RankingSettings settings;

    SourceRanking(DuckDb.Session session, RankingSettings settings) {
        this.session = session;
        this.settings = settings;
    }

    /**
     * Each hit's source events with their scores ({@link HybridRanker#sourceScore}), best
     * first, ties in time order: an exchange's answer is often in its reply, and a reader
     * — or a citation — should see that turn first. A source that ends by asking brings
     * in the turn that answers it (the next prompt or reply of its session, marked
     * {@link RankedSource#answers}) and steps back behind it
     * ({@link HybridRanker#questionScore}): in a conversation the question repeats the
     * query's words while the reply holds what was asked for.
     */
    Map<String, HitSources> sources(Corpus corpus, List<RankedMemory> hits, List<String> queryTerms) {
        HybridRanker ranker = corpus.ranker();
        Map<String, List<MemorySource>> sources = new HashMap<>();
        Map<String, String> texts = new HashMap<>(); // the hits' own source events only
        for (RankedMemory hit : hits) {
            List<MemorySource> own = corpus.memories().get(hit.memoryId()).sources();
            sources.put(hit.memoryId(), own);
            for (MemorySource src : own) {
                String text = corpus.texts().get(src.eventId());
                if (text != null) {
                    texts.put(src.eventId(), text);
                }
            }
        }
        // only the sessions of sources that ask are read (DuckDB pays per row group it
        // touches: ~3 ms each), and a
        // question's answer, once there is one, is kept: turns are only ever added after
        // it
        List<MemorySource> questions = settings.questionPenalty() > 0 || settings.answerCarry() > 0 ? sources.values()
            .stream()
            .flatMap(List::stream)
            .filter(s -> Questions.asks(texts.get(s.eventId())))
            .distinct()
            .toList() : List.of();
        Map<String, SpokenTurn> turns = new HashMap<>();
        List<MemorySource> unknown = new ArrayList<>();
        for (MemorySource q : questions) {
            SpokenTurn known = corpus.answeredTurns().get(q.eventId());
            if (known != null) {
                turns.put(q.eventId(), known);
            }
            else {
                unknown.add(q);
            }
        }
        try (Connection c = unknown.isEmpty() ? null : session.connection()) {
            if (c != null) {
                Map<String, SpokenTurn> read = MemoryQueries.spokenTurns(c, unknown);
                turns.putAll(read);
                read.forEach((event, turn) -> {
                    if (turn.next() != null) {
                        corpus.answeredTurns().put(event, turn);
                    }
                });
            }
            Map<String, HitSources> ranked = new LinkedHashMap<>();
            for (RankedMemory hit : hits) {
                Map<String, RankedSource> byEvent = new LinkedHashMap<>();
                List<RankedSource> answers = new ArrayList<>();
                for (MemorySource s : sources.getOrDefault(hit.memoryId(), List.of())) {
                    double coverage = ranker.sourceCoverage(queryTerms, texts.getOrDefault(s.eventId(), ""));
                    double score = ranker.sourceScore(hit.score(), coverage);
                    SpokenTurn turn = turns.get(s.eventId());
                    if (turn != null) {
                        if (turn.next() != null && ranker.answerScore(score) > 0) {
                            MemorySource next = turn.next();
                            answers.add(new RankedSource(next.eventId(), next.sessionId(), next.ts(),
                                    ranker.answerScore(score), s.eventId()));
                        }
                        score = ranker.questionScore(score);
                    }
                    byEvent.put(s.eventId(), new RankedSource(s.eventId(), s.sessionId(), s.ts(), score));
                }
                for (RankedSource answer : answers) {
                    // a reply that is evidence itself stays evidence, at the better of
                    // its two scores
                    byEvent.merge(answer.eventId(), answer, (own, carried) -> own.score() >= carried.score() ? own
                            : new RankedSource(own.eventId(), own.sessionId(), own.ts(), carried.score()));
                }
                List<RankedSource> list = new ArrayList<>(byEvent.values());
                list.sort(Comparator.comparingDouble(RankedSource::score).reversed().thenComparing(RankedSource::ts));
                List<String> hitTexts = list.stream().map(r -> texts.get(r.eventId())).toList();
                ranked.put(hit.memoryId(), new HitSources(list,
                        () -> Snippet.best(hitTexts, sentence -> ranker.sourceCoverage(queryTerms, sentence))));
            }
            return ranked;
        }
        catch (SQLException e) {
            throw new QueryException("cannot read memory sources: " + e.getMessage(), e);
        }
    }

}
