package dev.codememory.jobs.graduate;

import static dev.codememory.jobs.StepTestSession.todo;
import static org.assertj.core.api.Assertions.assertThat;

import dev.codememory.jobs.StepTestHome;
import dev.codememory.jobs.StepTestSession;
import dev.codememory.jobs.runtime.CodeMemoryApplication;
import dev.codememory.jobs.runtime.JobDatabase;
import dev.codememory.writers.forget.DuckDbForgetter;
import dev.codememory.writers.forget.Forgetting;
import java.io.IOException;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Instant;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.batch.test.JobOperatorTestUtils;
import org.springframework.batch.test.context.SpringBatchTest;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.ApplicationContext;

/**
 * The topic step in this process, on the application's own beans and a real DuckDB file:
 * three sessions of work on the orders migration (a decision, to-do items, a fix, two
 * commits) and one session of unrelated work are graduated step by step up to the topics;
 * the topic's lines cite the memories they rest on and its spans are theirs. A fourth
 * session on the same work gives a new topic that replaces the first.
 */
@SpringBatchTest
@SpringBootTest(classes = CodeMemoryApplication.class, properties = "spring.application.name=topic-steps")
class TopicStepsTests {

    private static final Path HOME = StepTestHome.create("code-memory-topic-steps");

    private static final String PROJECT = "/tmp/code-memory-topic-project";

    private static final List<String> STEPS = List.of("sealSpoolStep", "ingestSpoolStep", "deleteIngestedSpoolStep",
            "applyRulesStep", "assembleSessionsStep", "extractCandidatesStep", "validateCandidatesStep",
            "alignEvidenceStep", "resolveTasksStep", "mergeDuplicatesStep", "citeMemoriesStep",
            "summarizeSessionsStep");

    private static final Pattern CITATION = Pattern.compile("\\[mem:([A-Za-z0-9_-]{6})]");

    @Autowired
    private JobOperatorTestUtils steps;

    @Autowired
    private JobDatabase database;

    @Autowired
    private ApplicationContext context;

    @BeforeEach
    void openDatabase() {
        database.open();
    }

    @AfterEach
    void closeDatabase() {
        database.close();
    }

    @AfterAll
    static void removeHome() throws IOException {
        StepTestHome.remove(HOME);
    }

    @Test
    void workOverSessionsBecomesOneCitedTopicThatAFurtherSessionReplaces() throws Exception {
        Instant day = Instant.parse("2026-03-02T09:00:00Z");
        new StepTestSession("orders-1", PROJECT)
            .turn("We decided to use Flyway for the orders schema migrations.", "Noted: Flyway for the orders schema.")
            .todos(todo("1", "Write the orders table migration V002__orders.sql", "in_progress"),
                    todo("2", "Backfill the orders status column after the migration", "pending"))
            .commit("Add the orders table migration V002__orders.sql", "1a2b3c4")
            .spool(HOME, day);
        new StepTestSession("billing-1", PROJECT)
            .turn("Please bump the React version of the dashboard.", "The dashboard now runs React 19.")
            .spool(HOME, day.plusSeconds(3_600));
        new StepTestSession("orders-2", PROJECT)
            .todos(todo("1", "Write the orders table migration V002__orders.sql", "completed"),
                    todo("2", "Backfill the orders status column after the migration", "in_progress"))
            .commit("Index the orders table by customer in V002__orders.sql", "5d6e7f8")
            .spool(HOME, day.plusSeconds(86_400));
        graduate();

        List<List<Object>> topics = StepTestHome.rows(database,
                "SELECT entry_id, title, body, stage, status, session_id FROM entries" + " WHERE entry_type = 'topic'");
        assertThat(topics).hasSize(1);
        String topicId = (String) topics.get(0).get(0);
        String body = (String) topics.get(0).get(2);
        assertThat(topics.get(0).get(1)).asString()
            .startsWith("Topic: ")
            .contains("V002__orders.sql")
            .endsWith("(2 sessions since 2026-03-02)");
        assertThat(topics.get(0).subList(3, 6)).containsExactly("verified", "active", "orders-2");
        assertThat(body).contains("Committed: Add the orders table migration V002__orders.sql [mem:")
            .contains("Committed: Index the orders table by customer in V002__orders.sql [mem:")
            .contains("Backfill the orders status column after the migration (in progress) [mem:")
            .doesNotContain("React");
        // every line cites a memory of the project, and the topic's spans are those
        // memories' first spans, in line order
        List<String> cited = CITATION.matcher(body).results().map(m -> m.group(1)).toList();
        assertThat(body.lines().filter(l -> l.startsWith("- "))).allMatch(l -> CITATION.matcher(l).find());
        assertThat(
                StepTestHome
                    .rows(database,
                            """
                                    SELECT c.citation FROM evidence_spans t
                                    JOIN edges d ON d.src_id = t.entry_id AND d.rel_type = 'summarizes'
                                    JOIN evidence_spans m ON m.entry_id = d.dst_id AND m.quote_index = 0 AND m.event_id = t.event_id
                                                         AND m.span_start = t.span_start AND m.span_end = t.span_end
                                    JOIN citations c ON c.memory_id = d.dst_id
                                    WHERE t.entry_id = '%s' ORDER BY t.quote_index"""
                                .formatted(topicId))
                    .stream()
                    .map(r -> (String) r.get(0))
                    .toList())
            .containsExactlyElementsOf(cited);
        assertThat(StepTestHome.run(steps, context, "consolidateTopicsStep")).as("nothing changed: nothing to read")
            .containsExactly(0L, 0L);
        assertThat(StepTestHome.run(steps, context, "citeSummariesStep"))
            .as("the topic and the three summaries get citations")
            .containsExactly(0L, 4L);
        assertThat(StepTestHome.rows(database, "SELECT count(*) FROM citations WHERE memory_id = '" + topicId + "'"))
            .containsExactly(List.of(1L));

        // continuity: billing-1 shares nothing with orders-1 and has no items of its own;
        // orders-2 goes back to the orders work after it
        assertThat(StepTestHome.run(steps, context, "scoreContinuityStep")).containsExactly(0L, 2L);
        assertThat(StepTestHome.rows(database,
                "SELECT session_id, previous_session_id, previous_items, own_items,"
                        + " shared_items, score FROM session_continuity ORDER BY session_id"))
            .containsExactly(java.util.Arrays.asList("billing-1", "orders-1", 3L, 0L, 0L, null),
                    java.util.Arrays.asList("orders-2", "billing-1", 0L, 3L, 0L, null));
        assertThat(StepTestHome.run(steps, context, "scoreContinuityStep")).containsExactly(0L, 0L);

        new StepTestSession("orders-3", PROJECT)
            .todos(todo("2", "Backfill the orders status column after the migration", "completed"))
            .commit("Backfill the orders status column in V003__orders_status.sql", "9a8b7c6")
            .spool(HOME, day.plusSeconds(2 * 86_400));
        graduate();
        List<List<Object>> after = StepTestHome.rows(database,
                "SELECT entry_id, status, superseded_by, title, body FROM entries"
                        + " WHERE entry_type = 'topic' ORDER BY status");
        assertThat(after).hasSize(2);
        String newId = (String) after.get(0).get(0);
        assertThat(after.get(0).subList(1, 3)).containsExactly("active", null);
        assertThat(after.get(0).get(3)).asString().endsWith("(3 sessions since 2026-03-02)");
        assertThat(after.get(0).get(4)).asString()
            .contains("Completed: Backfill the orders status column after the migration [mem:")
            .doesNotContain("Still open");
        assertThat(after.get(1).subList(0, 3)).containsExactly(topicId, "superseded", newId);
        assertThat(StepTestHome.run(steps, context, "scoreContinuityStep")).containsExactly(0L, 1L);
        assertThat(StepTestHome.rows(database,
                "SELECT previous_session_id, score FROM session_continuity" + " WHERE session_id = 'orders-3'"))
            .containsExactly(List.of("orders-2", 1.0));
        assertThat(StepTestHome.rows(database, "SELECT count(*) FROM edges WHERE rel_type = 'supersedes' AND src_id = '"
                + newId + "' AND dst_id = '" + topicId + "'"))
            .containsExactly(List.of(1L));

        // forgetting a memory the topic cites takes the topic with it, without a
        // tombstone; the next run composes it again from what remains
        String forgotten = (String) StepTestHome
            .rows(database,
                    "SELECT d.dst_id FROM edges d JOIN entries e ON e.entry_id = d.dst_id" + " WHERE d.src_id = '"
                            + newId + "' AND d.rel_type = 'summarizes' AND e.entry_type = 'work'"
                            + " ORDER BY e.created_ts LIMIT 1")
            .get(0)
            .get(0);
        new DuckDbForgetter(database.connections()).forget(Forgetting.memory(forgotten), "forget-1");
        assertThat(StepTestHome.rows(database, "SELECT count(*) FROM entries WHERE entry_id = '" + newId + "'"))
            .containsExactly(List.of(0L));
        assertThat(StepTestHome.rows(database, "SELECT count(*) FROM forgotten WHERE key = '" + newId + "'"))
            .containsExactly(List.of(0L));
        assertThat(StepTestHome.run(steps, context, "consolidateTopicsStep")).containsExactly(1L, 1L);
        List<List<Object>> recomposed = StepTestHome.rows(database,
                "SELECT entry_id, body FROM entries WHERE entry_type = 'topic'" + " AND status = 'active'");
        assertThat(recomposed).hasSize(1);
        assertThat(recomposed.get(0).get(0)).isNotIn(newId, topicId);
        assertThat(recomposed.get(0).get(1)).asString()
            .doesNotContain("Add the orders table migration V002__orders.sql")
            .contains("Index the orders table by customer");
    }

    /** The graduation steps up to the summaries, then the topic step, which does work. */
    private void graduate() throws SQLException {
        for (String step : STEPS) {
            StepTestHome.run(steps, context, step);
        }
        assertThat(StepTestHome.run(steps, context, "consolidateTopicsStep")).containsExactly(1L, 1L);
    }

}
