package dev.codememory.retrieval.query;

import static org.assertj.core.api.Assertions.assertThat;

import dev.codememory.config.db.DuckDb;
import dev.codememory.config.home.CodeMemoryHome;
import dev.codememory.config.team.TeamMemory;
import dev.codememory.config.team.TeamStoreException;
import dev.codememory.retrieval.ranking.RankingSettings;
import dev.codememory.retrieval.team.TeamSource;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The query path with a team store beside the local one, on a real DuckDB file and a fake
 * team store: both ranked together, team memories marked with their author, a team store
 * that fails or is slow leaving the local answer. Ranked on text alone (no query vector).
 */
class QueryServiceTeamTests {

    private static final LocalDateTime AT = LocalDateTime.of(2024, 3, 2, 9, 0);

    @TempDir
    Path tmp;

    private DuckDb db;

    /** A team store in memory; {@code failure} makes every read throw it. */
    private static final class FakeTeam implements TeamSource {

        final List<TeamMemory> memories = new ArrayList<>();

        RuntimeException failure;

        Duration delay = Duration.ZERO;

        @Override
        public Duration waitLimit() {
            return Duration.ofMillis(300);
        }

        @Override
        public List<TeamMemory> memories(String project) {
            if (failure != null) {
                throw failure;
            }
            try {
                Thread.sleep(delay.toMillis());
            }
            catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return List.copyOf(memories);
        }

        @Override
        public Map<String, Double> nearest(String project, float[] query, int topK) {
            return Map.of();
        }

        @Override
        public void close() {
        }

    }

    private final FakeTeam team = new FakeTeam();

    @BeforeEach
    void homeWithOneLocalMemory() throws Exception {
        db = DuckDb.forHome(new CodeMemoryHome(tmp.resolve("home")));
        try (DuckDb.Session session = db.open();
                Connection c = session.connection();
                Statement st = c.createStatement()) {
            st.execute("""
                    INSERT INTO entries (entry_id, candidate_id, entry_type, project, session_id, created_ts, title,
                                         body, quotes_json, canonical_key, stage, status, created_at)
                    VALUES ('local-1', 'c1', 'decision', '/p', 's-1', '2024-03-01 09:02:00',
                            'Deploy the billing service to Frankfurt', 'Deploy the billing service to Frankfurt',
                            '[]', 'k1', 'verified', 'active', '2024-03-01 09:02:00')""");
        }
        team.memories
            .add(new TeamMemory("team-1", "github.com/acme/shop", "decision", "Billing migrations go through Flyway",
                    "Billing migrations go through Flyway", "T3amXy", "alice", LocalDateTime.of(2024, 3, 1, 8, 0)));
    }

    private List<QueryResult> search(String text) {
        try (DuckDb.Session session = db.openReadOnly();
                QueryService service = new QueryService(session, () -> null, () -> null, RankingSettings.defaults())
                    .withTeam(team)) {
            List<QueryResult> results = service.search(new QueryRequest("q", text, "/p", AT), null, 5);
            states.add(service.teamState());
            return results;
        }
    }

    private final List<String> states = new ArrayList<>();

    @Test
    void teamMemoriesAreRankedWithTheLocalOnesAndNameTheirAuthor() {
        List<QueryResult> results = search("billing Flyway migrations");

        assertThat(results).extracting(QueryResult::memoryId).containsExactly("team-1", "local-1");
        assertThat(results.get(0).author()).isEqualTo("alice");
        assertThat(results.get(0).citation()).isEqualTo("mem:T3amXy");
        assertThat(results.get(0).sources()).isEmpty();
        assertThat(results.get(0).toJson()).containsEntry("team", "alice");
        assertThat(results.get(1).author()).isNull();
        assertThat(results.get(1).toJson()).doesNotContainKey("team");
        assertThat(states).containsExactly("ok");
    }

    @Test
    void aTeamCopyOfALocalMemoryIsShownOnceAsLocal() {
        team.memories.add(new TeamMemory("local-1", "github.com/acme/shop", "decision",
                "Deploy the billing service to Frankfurt", "", "AbCdEf", "bob", LocalDateTime.of(2024, 3, 1, 8, 0)));

        List<QueryResult> results = search("billing service Frankfurt");

        assertThat(results).extracting(QueryResult::memoryId).containsExactly("local-1", "team-1");
        assertThat(results.get(0).author()).isNull();
    }

    @Test
    void aTeamStoreThatFailsOrIsSlowLeavesTheLocalAnswer() {
        team.failure = new TeamStoreException("team store (PostgreSQL): cannot connect: refused", null);
        assertThat(search("billing Flyway migrations")).extracting(QueryResult::memoryId).containsExactly("local-1");

        team.failure = null;
        team.delay = Duration.ofSeconds(2);
        assertThat(search("billing Flyway migrations")).extracting(QueryResult::memoryId).containsExactly("local-1");
        assertThat(states).containsExactly("down", "down");
    }

}
