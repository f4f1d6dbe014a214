package dev.codememory.retrieval.query;

import static org.assertj.core.api.Assertions.assertThat;

import dev.codememory.config.db.DuckDb;
import dev.codememory.config.home.CodeMemoryHome;
import dev.codememory.retrieval.query.ProjectCorpora.Held;
import dev.codememory.retrieval.query.QueryService.Refresh;
import dev.codememory.retrieval.ranking.RankingSettings;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The per-project corpora on a real DuckDB file, without a team store: loaded by the
 * first read and kept, brought up to date in place by a refresh.
 */
class ProjectCorporaTests {

    @TempDir
    Path tmp;

    private DuckDb.Session session;

    private ProjectCorpora corpora;

    @BeforeEach
    void oneMemoryInEachOfTwoProjects() throws Exception {
        session = DuckDb.forHome(new CodeMemoryHome(tmp.resolve("home"))).open();
        insert("m-1", "/p", "Deploy the billing service to Frankfurt", "active");
        insert("m-2", "/q", "Release notes go in CHANGES.md", "active");
        corpora = new ProjectCorpora(session, RankingSettings.defaults(), new TeamReads());
    }

    @AfterEach
    void close() {
        session.close();
    }

    @Test
    void aProjectIsLoadedByItsFirstReadAndListed() {
        assertThat(corpora.projects()).isEmpty();

        assertThat(memories("/p")).containsExactly("m-1");
        assertThat(corpora.prepare(null)).isEqualTo(2);

        assertThat(corpora.projects()).isEqualTo(new HashSet<>(Arrays.asList("/p", null)));
    }

    @Test
    void aRefreshAddsAndRemovesInPlace() throws Exception {
        corpora.prepare("/p");
        insert("m-3", "/p", "Billing migrations go through Flyway", "active");
        try (Connection c = session.connection(); Statement st = c.createStatement()) {
            st.execute("UPDATE entries SET status = 'superseded' WHERE entry_id = 'm-1'");
        }

        assertThat(corpora.refresh("/p")).isEqualTo(new Refresh("/p", 1, 1, 1));
        assertThat(memories("/p")).containsExactly("m-3");
        assertThat(holds("/p", "frankfurt")).isFalse();
        assertThat(holds("/p", "flyway")).isTrue();
    }

    @Test
    void aProjectNotLoadedIsLeftToItsFirstRead() {
        assertThat(corpora.refresh("/q")).isEqualTo(new Refresh("/q", 0, 0, 0));
        assertThat(corpora.refreshTeam("/q")).isEqualTo(new Refresh("/q", 0, 0, 0));
        assertThat(corpora.projects()).isEmpty();
    }

    @Test
    void aSummaryIsTheTitleOrBodyOnOneLineCutAt200() {
        assertThat(Held.summary("Deploy  to\nFrankfurt ", "body")).isEqualTo("Deploy to Frankfurt");
        assertThat(Held.summary(" ", "the body")).isEqualTo("the body");
        assertThat(Held.summary("x".repeat(201), "")).isEqualTo("x".repeat(199) + "…");
        assertThat(Held.summary("x".repeat(200), "")).isEqualTo("x".repeat(200));
    }

    private Set<String> memories(String project) {
        return corpora.read(project, corpus -> Set.copyOf(corpus.memories().keySet()));
    }

    private boolean holds(String project, String term) {
        return corpora.read(project, corpus -> corpus.ranker().holdsAnyOf(List.of(term)));
    }

    private void insert(String id, String project, String text, String status) throws Exception {
        try (Connection c = session.connection(); Statement st = c.createStatement()) {
            st.execute("""
                    INSERT INTO entries (entry_id, candidate_id, entry_type, project, session_id, created_ts, title,
                                         body, quotes_json, canonical_key, stage, status, created_at)
                    VALUES ('%s', 'c-%s', 'decision', '%s', 's-1', '2024-03-01 09:02:00', '%s', '%s',
                            '[]', 'k-%s', 'verified', '%s', '2024-03-01 09:02:00')""".formatted(id, id, project, text,
                    text, id, status));
        }
    }

}
