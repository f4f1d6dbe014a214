package dev.codememory.retrieval.query;

import static org.assertj.core.api.Assertions.assertThat;

import dev.codememory.config.db.DuckDb;
import dev.codememory.config.home.CodeMemoryHome;
import dev.codememory.retrieval.ranking.RankingSettings;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.time.LocalDateTime;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A hit's sources on a real DuckDB file: a source that ends by asking brings in the turn
 * that answers it and steps behind it. Ranked on text alone (no query vector), so the
 * scores are exact.
 */
class QueryServiceSourcesTests {

    private static final LocalDateTime AT = LocalDateTime.of(2024, 3, 2, 9, 0);

    @TempDir
    Path tmp;

    private DuckDb db;

    @BeforeEach
    void graduatedHome() throws Exception {
        db = DuckDb.forHome(new CodeMemoryHome(tmp.resolve("home")));
        try (DuckDb.Session session = db.open();
                Connection c = session.connection();
                Statement st = c.createStatement()) {
            OneSessionEvents.insert(st);
            st.execute("""
                    INSERT INTO turns VALUES
                      ('t1', 's-1', '/p', 'ev1', 'Deploy the billing service.', 'ev2',
                       'Deployed the billing service. Which region should the billing service run in?', 'stop',
                       '2024-03-01 09:01:00', '2024-03-01 09:02:00'),
                      ('t2', 's-1', '/p', 'ev3', 'Frankfurt, eu-central-1.', 'ev4', 'Noted.', 'stop',
                       '2024-03-01 09:03:00', '2024-03-01 09:04:00')""");
            st.execute("""
                    INSERT INTO entries (entry_id, candidate_id, entry_type, project, session_id, created_ts, title,
                                         body, quotes_json, canonical_key, stage, status, created_at)
                    VALUES ('m1', 'c1', 'exchange', '/p', 's-1', '2024-03-01 09:02:00', 'Deploy the billing service.',
                            'Deployed the billing service. Which region should the billing service run in?', '[]',
                            'k1', 'verified', 'active', '2024-03-01 09:02:00')""");
            st.execute("INSERT INTO evidence_spans VALUES ('m1', 0, 'ev1', 'prompt', 0, 27, 1.0, 'exact', 'h0'),"
                    + " ('m1', 1, 'ev2', 'reply', 0, 30, 1.0, 'exact', 'h1')");
        }
    }

    private QueryResult hit(RankingSettings settings) {
        try (DuckDb.Session session = db.openReadOnly();
                QueryService service = new QueryService(session, () -> null, () -> null, settings)) {
            List<QueryResult> results = service
                .search(new QueryRequest("q", "which region does billing run in", "/p", AT), null, 5);
            assertThat(results).extracting(QueryResult::memoryId).containsExactly("m1");
            return results.get(0);
        }
    }

    private List<RankedSource> sources(RankingSettings settings) {
        return hit(settings).sources();
    }

    @Test
    void theSnippetIsTheSourceSentenceHoldingMostOfTheQuery() {
        assertThat(hit(RankingSettings.defaults()).snippet().get())
            .isEqualTo("Which region should the billing service run in?");
    }

    @Test
    void aQuestionBringsInTheTurnThatAnswersItAndStepsBehindIt() {
        RankingSettings settings = RankingSettings.defaults();

        List<RankedSource> sources = sources(settings);

        assertThat(sources).extracting(RankedSource::eventId).containsExactly("ev3", "ev2", "ev1");
        RankedSource answer = sources.get(0);
        RankedSource question = sources.get(1);
        assertThat(answer.answers()).isEqualTo("ev2");
        assertThat(answer.ts()).isEqualTo(LocalDateTime.of(2024, 3, 1, 9, 3));
        assertThat(question.answers()).isNull();
        assertThat(sources.get(2).answers()).isNull();
        assertThat(answer.score() - question.score()).isCloseTo(settings.questionPenalty(),
                org.assertj.core.data.Offset.offset(1e-9));
    }

    @Test
    void withAnswerCarryOffTheSourcesAreTheEvidenceAlone() {
        RankingSettings settings = RankingSettings.defaults().with("answerCarry", "0").with("questionPenalty", "0");

        List<RankedSource> sources = sources(settings);

        assertThat(sources).extracting(RankedSource::eventId).containsExactly("ev2", "ev1");
        assertThat(sources).extracting(RankedSource::answers).containsOnlyNulls();
    }

}
