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
 * An exchange is found by what was said just before it in its session: a reply that
 * answers holds none of the question's words when the turn before it named the topic. On
 * a real DuckDB file, ranked on text alone (no query vector).
 */
class QueryServiceTurnContextTests {

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
                      ('t1', 's-1', '/p', 'ev1', 'Sam: How are you?', 'ev2',
                       'Evan: I twisted my knee playing basketball.', 'stop', '2024-03-01 09:01:00',
                       '2024-03-01 09:02:00'),
                      ('t2', 's-1', '/p', 'ev3', 'Sam: Maybe look into low-impact exercises or physical therapy.',
                       'ev4', 'Evan: Good idea, thanks.', 'stop', '2024-03-01 09:03:00', '2024-03-01 09:04:00')""");
            st.execute(exchange("m1", "Sam: How are you?",
                    "Sam: How are you?\n\nEvan: I twisted my knee playing basketball."));
            st.execute(exchange("m2", "Sam: Maybe look into low-impact exercises or physical therapy.",
                    "Sam: Maybe look into low-impact exercises or physical therapy.\n\nEvan: Good idea, thanks."));
            st.execute("INSERT INTO evidence_spans VALUES ('m1', 0, 'ev1', 'prompt', 0, 17, 1.0, 'exact', 'h0'),"
                    + " ('m1', 1, 'ev2', 'reply', 0, 43, 1.0, 'exact', 'h1'),"
                    + " ('m2', 0, 'ev3', 'prompt', 0, 62, 1.0, 'exact', 'h2'),"
                    + " ('m2', 1, 'ev4', 'reply', 0, 24, 1.0, 'exact', 'h3')");
        }
    }

    private static String exchange(String id, String title, String body) {
        return """
                INSERT INTO entries (entry_id, candidate_id, entry_type, project, session_id, created_ts, title, body,
                                     quotes_json, canonical_key, stage, status, created_at)
                VALUES ('%s', 'c-%s', 'exchange', '/p', 's-1', '2024-03-01 09:04:00', '%s', '%s', '[]', 'k-%s',
                        'verified', 'active', '2024-03-01 09:04:00')""".formatted(id, id, title, body, id);
    }

    private List<QueryResult> search(RankingSettings settings) {
        try (DuckDb.Session session = db.openReadOnly();
                QueryService service = new QueryService(session, () -> null, () -> null, settings)) {
            return service.search(new QueryRequest("q", "what helps with a twisted knee?", "/p", AT), null, 5);
        }
    }

    private static final RankingSettings WITH_CONTEXT = RankingSettings.defaults().with("turnContext", "1");

    @Test
    void theReplyIsFoundByTheWordsSaidJustBeforeIt() {
        List<QueryResult> results = search(WITH_CONTEXT);

        assertThat(results).extracting(QueryResult::memoryId).containsExactlyInAnyOrder("m1", "m2");
        QueryResult reply = results.stream().filter(r -> r.memoryId().equals("m2")).findFirst().orElseThrow();
        assertThat(reply.sources()).extracting(RankedSource::eventId).containsExactlyInAnyOrder("ev3", "ev4");
    }

    @Test
    void theWordsSaidBeforeDoNotOutrankTheExchangeThatHoldsThem() {
        List<QueryResult> results = search(WITH_CONTEXT);

        assertThat(results).extracting(QueryResult::memoryId).first().isEqualTo("m1");
    }

    @Test
    void byDefaultAnExchangeIsFoundByItsOwnWordsAlone() {
        List<QueryResult> results = search(RankingSettings.defaults());

        assertThat(results).extracting(QueryResult::memoryId).containsExactly("m1");
    }

}
