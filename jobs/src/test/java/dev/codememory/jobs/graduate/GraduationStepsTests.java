package dev.codememory.jobs.graduate;

import static org.assertj.core.api.Assertions.assertThat;

import dev.codememory.capture.spool.Spool;
import dev.codememory.capture.spool.SpoolLineBuilder;
import dev.codememory.config.home.CodeMemoryHome;
import dev.codememory.jobs.StepTestHome;
import dev.codememory.jobs.runtime.CodeMemoryApplication;
import dev.codememory.jobs.runtime.JobDatabase;
import dev.codememory.retrieval.embed.MiniLmOnnxEmbedder;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.springframework.batch.test.JobOperatorTestUtils;
import org.springframework.batch.test.context.SpringBatchTest;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.ApplicationContext;

/**
 * The graduation job's steps one at a time, in this process, on the application's own
 * beans: one small session (two prompts and their replies, a to-do list that moves on, a
 * test that fails then passes, an edit, a commit) is ingested, then each stage runs in
 * the job's order and the rows it wrote are checked, then it runs again and writes
 * nothing new: one test per stage, in the job's order, each on what the ones before it
 * wrote (a stage that breaks fails its own test and the ones after it). The embed step
 * loads the real model, so the class is tagged {@code model}. The whole job as a separate
 * process is {@code GraduationJobIntegrationTests}.
 */
@Tag("model")
@SpringBatchTest
@SpringBootTest(classes = CodeMemoryApplication.class)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class GraduationStepsTests {

    /** The home the context reads its settings from: set before the context starts. */
    private static final Path HOME = StepTestHome.create("code-memory-graduation-steps");

    private static final String SESSION = "steps-session-1";

    private static final String PROJECT = "/tmp/code-memory-steps-project";

    /** The table of the default model's vectors. */
    /** The vector table of the product's embedding version (the embed step writes it). */
    private static final String VECTORS = "vectors_" + MiniLmOnnxEmbedder.VERSION.id();

    private static final String TEST_COMMAND = "./mvnw -q test -Dtest=BillingClientTests";

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
    @Order(1)
    void spooledEventsAreSealedIngestedAndNothingIsYetDerived() throws Exception {
        spoolSession();
        StepTestHome.run(steps, context, "sealSpoolStep");
        assertThat(StepTestHome.run(steps, context, "ingestSpoolStep")).containsExactly(12L, 12L);
        assertThat(StepTestHome.run(steps, context, "applyRulesStep")).as("nothing derived yet, nothing to clear")
            .containsExactly(0L, 0L);
    }

    @Test
    @Order(2)
    void assembleSessionsWritesItsRowsOnceAndNothingWhenItRunsAgain() throws Exception {
        assertThat(StepTestHome.run(steps, context, "assembleSessionsStep")).containsExactly(1L, 1L);
        assertThat(StepTestHome.rows(database,
                "SELECT session_id, project, started_at::VARCHAR, ended_at::VARCHAR, first_seq, last_seq,"
                        + " prompt_count, tool_count, extracted_seq FROM sessions"))
            .containsExactly(
                    List.of(SESSION, PROJECT, "2026-01-05 09:00:00", "2026-01-05 09:11:00", 1L, 12L, 2L, 6L, 0L));
        assertThat(StepTestHome.rows(database,
                "SELECT prompt_text, reply_text, reply_source FROM turns ORDER BY prompt_ts"))
            .containsExactly(
                    List.of("Please add retries with backoff to the billing client and keep the public API stable.",
                            "We decided to use exponential backoff with jitter for the billing client retries."
                                    + " The tests pass now.",
                            "stop"),
                    List.of("Never log request bodies in the billing service.",
                            "Understood: the billing service will not log request bodies.", "stop"));
        assertThat(StepTestHome.rows(database,
                "SELECT tool, failed, count(*), max(error_text) FROM observations GROUP BY ALL ORDER BY ALL"))
            .containsExactly(Arrays.asList("Bash", false, 2L, null),
                    List.of("Bash", true, 1L, "expected 3 attempts but was 1"), Arrays.asList("Edit", false, 1L, null),
                    Arrays.asList("TodoWrite", false, 2L, null));
        assertThat(StepTestHome.run(steps, context, "assembleSessionsStep")).containsExactly(0L, 0L);
    }

    @Test
    @Order(3)
    void extractCandidatesWritesItsRowsOnceAndNothingWhenItRunsAgain() throws Exception {
        assertThat(StepTestHome.run(steps, context, "extractCandidatesStep")).containsExactly(1L, 1L);
        assertThat(StepTestHome.rows(database, "SELECT kind, count(*) FROM candidates GROUP BY ALL ORDER BY ALL"))
            .containsExactly(List.of("decision", 1L), List.of("exchange", 2L), List.of("insight", 1L),
                    List.of("observation", 4L), List.of("preference", 1L), List.of("task", 3L), List.of("work", 1L));
        assertThat(StepTestHome.rows(database,
                "SELECT title, task_json->>'status', task_json->>'source' FROM candidates"
                        + " WHERE kind = 'task' ORDER BY ts, title"))
            .containsExactly(List.of("Add retries to the billing client", "in_progress", "todo_list"),
                    List.of("Document the retry policy in the changelog", "pending", "todo_list"),
                    List.of("Add retries to the billing client", "done", "todo_list"));
        assertThat(StepTestHome.rows(database,
                "SELECT title FROM candidates WHERE kind IN ('insight', 'work', 'decision', 'preference')"
                        + " ORDER BY kind"))
            .containsExactly(
                    List.of("We decided to use exponential backoff with jitter for the billing client retries"),
                    List.of("Fixed `" + TEST_COMMAND + "`: Tests run: 4, Failures: 1 by changing"
                            + " src/main/java/billing/BillingClient.java"),
                    List.of("Never log request bodies in the billing service"),
                    List.of("Add retries to the billing client"));
        assertThat(StepTestHome.rows(database, "SELECT extracted_seq FROM sessions")).containsExactly(List.of(12L));
        assertThat(StepTestHome.run(steps, context, "extractCandidatesStep")).containsExactly(0L, 0L);
    }

    @Test
    @Order(4)
    void extractProjectFactsWritesItsRowsOnceAndNothingWhenItRunsAgain() throws Exception {
        assertThat(StepTestHome.run(steps, context, "extractProjectFactsStep")).containsExactly(1L, 1L);
        assertThat(StepTestHome.rows(database, "SELECT count(*) FROM candidates"))
            .as("one short session states no project fact")
            .containsExactly(List.of(13L));
        assertThat(StepTestHome.rows(database, "SELECT stage, count(*) FROM stage_marks GROUP BY ALL"))
            .containsExactly(List.of("facts", 1L));
        assertThat(StepTestHome.run(steps, context, "extractProjectFactsStep")).containsExactly(0L, 0L);
    }

    @Test
    @Order(5)
    void validateCandidatesWritesItsRowsOnceAndNothingWhenItRunsAgain() throws Exception {
        assertThat(StepTestHome.run(steps, context, "validateCandidatesStep")).containsExactly(13L, 13L);
        assertThat(StepTestHome.rows(database,
                "SELECT stage, status, count(*), count(DISTINCT candidate_id) FROM entries GROUP BY ALL"))
            .containsExactly(List.of("candidate", "active", 13L, 13L));
        assertThat(StepTestHome.rows(database, "SELECT count(*) FROM graduation_rejects")).containsExactly(List.of(0L));
        assertThat(StepTestHome.run(steps, context, "validateCandidatesStep")).containsExactly(0L, 0L);
    }

    @Test
    @Order(6)
    void alignEvidenceWritesItsRowsOnceAndNothingWhenItRunsAgain() throws Exception {
        assertThat(StepTestHome.run(steps, context, "alignEvidenceStep")).containsExactly(13L, 13L);
        assertThat(StepTestHome.rows(database, "SELECT stage, status, count(*) FROM entries GROUP BY ALL"))
            .containsExactly(List.of("verified", "active", 13L));
        assertThat(StepTestHome.rows(database,
                "SELECT field, method, count(*), count(DISTINCT entry_id) FROM evidence_spans"
                        + " GROUP BY ALL ORDER BY ALL"))
            .containsExactly(List.of("prompt", "exact", 3L, 3L), List.of("reply", "exact", 3L, 3L),
                    List.of("tool_input", "exact", 10L, 9L), List.of("tool_response", "exact", 3L, 3L));
        assertThat(StepTestHome.rows(database, "SELECT count(DISTINCT entry_id), min(confidence) FROM evidence_spans"))
            .containsExactly(List.of(13L, 1.0));
        assertThat(StepTestHome.run(steps, context, "alignEvidenceStep")).containsExactly(0L, 0L);
    }

    @Test
    @Order(7)
    void resolveTasksWritesItsRowsOnceAndNothingWhenItRunsAgain() throws Exception {
        assertThat(StepTestHome.run(steps, context, "resolveTasksStep")).containsExactly(4L, 4L);
        assertThat(StepTestHome.rows(database, "SELECT entity_type, title, status FROM entities ORDER BY title"))
            .containsExactly(List.of("task", "Add retries to the billing client", "done"),
                    List.of("task", "Document the retry policy in the changelog", "pending"));
        assertThat(StepTestHome.rows(database,
                "SELECT event_type, payload->>'title', payload->>'status', payload->>'from', payload->>'to'"
                        + " FROM task_events ORDER BY seq"))
            .containsExactly(
                    Arrays.asList("task_created", "Document the retry policy in the changelog", "PENDING", null, null),
                    Arrays.asList("task_created", "Add retries to the billing client", "IN_PROGRESS", null, null),
                    Arrays.asList("task_status_changed", null, null, "IN_PROGRESS", "DONE"));
        assertThat(StepTestHome.rows(database,
                "SELECT old.title, new.task_json->>'status' FROM entries old"
                        + " JOIN entries new ON new.entry_id = old.superseded_by WHERE old.status = 'superseded'"))
            .as("the in-progress statement of the task gives way to the one that closed it")
            .containsExactly(List.of("Add retries to the billing client", "done"));
        assertThat(StepTestHome.rows(database, "SELECT rel_type, count(*) FROM edges GROUP BY ALL ORDER BY ALL"))
            .containsExactly(List.of("evidence_of", 3L), List.of("supersedes", 1L));
        assertThat(StepTestHome.run(steps, context, "resolveTasksStep")).containsExactly(0L, 0L);
    }

    @Test
    @Order(8)
    void mergeDuplicatesWritesItsRowsOnceAndNothingWhenItRunsAgain() throws Exception {
        assertThat(StepTestHome.run(steps, context, "mergeDuplicatesStep")).containsExactly(3L, 3L);
        assertThat(StepTestHome.rows(database,
                "SELECT stage, count(*) FROM stage_marks WHERE stage = 'merge' GROUP BY ALL"))
            .containsExactly(List.of("merge", 3L));
        assertThat(StepTestHome.rows(database, "SELECT status, count(*) FROM entries GROUP BY ALL ORDER BY ALL"))
            .as("no two memories of the session say the same")
            .containsExactly(List.of("active", 12L), List.of("superseded", 1L));
        assertThat(StepTestHome.run(steps, context, "mergeDuplicatesStep")).containsExactly(0L, 0L);
    }

    @Test
    @Order(9)
    void citeMemoriesWritesItsRowsOnceAndNothingWhenItRunsAgain() throws Exception {
        assertThat(StepTestHome.run(steps, context, "citeMemoriesStep")).containsExactly(0L, 13L);
        assertThat(StepTestHome.rows(database,
                "SELECT count(*), count(DISTINCT c.citation), min(length(c.citation)),"
                        + " max(length(c.citation)) FROM entries e JOIN citations c ON c.memory_id = e.entry_id"))
            .containsExactly(List.of(13L, 13L, 6L, 6L));
        assertThat(StepTestHome.run(steps, context, "citeMemoriesStep")).containsExactly(0L, 0L);
    }

    @Test
    @Order(10)
    void summarizeSessionsWritesItsRowsOnceAndNothingWhenItRunsAgain() throws Exception {
        assertThat(StepTestHome.run(steps, context, "summarizeSessionsStep")).containsExactly(1L, 1L);
        assertThat(StepTestHome.rows(database,
                "SELECT session_id, stage, status, title FROM entries WHERE entry_type = 'summary'"))
            .containsExactly(List.of(SESSION, "verified", "active",
                    "Session 2026-01-05: Please add retries with backoff to the billing client and keep the public"
                            + " API…"));
        assertThat(StepTestHome.rows(database,
                "SELECT count(*), count(DISTINCT s.quote_index) FROM evidence_spans s"
                        + " JOIN entries e USING (entry_id) WHERE e.entry_type = 'summary'"))
            .containsExactly(List.of(7L, 7L));
        assertThat(StepTestHome.rows(database,
                "SELECT rel_type, count(*) FROM edges WHERE rel_type = 'summarizes' GROUP BY ALL"))
            .containsExactly(List.of("summarizes", 7L));
        assertThat(StepTestHome.run(steps, context, "summarizeSessionsStep")).containsExactly(0L, 0L);
    }

    @Test
    @Order(11)
    void consolidateTopicsWritesItsRowsOnceAndNothingWhenItRunsAgain() throws Exception {
        assertThat(StepTestHome.run(steps, context, "consolidateTopicsStep"))
            .as("one project read, its outcome written")
            .containsExactly(1L, 1L);
        assertThat(StepTestHome.rows(database, "SELECT count(*) FROM entries WHERE entry_type = 'topic'"))
            .as("the work of one session is no topic")
            .containsExactly(List.of(0L));
        assertThat(StepTestHome.run(steps, context, "consolidateTopicsStep")).containsExactly(0L, 0L);
    }

    @Test
    @Order(12)
    void citeSummariesWritesItsRowsOnceAndNothingWhenItRunsAgain() throws Exception {
        assertThat(StepTestHome.run(steps, context, "citeSummariesStep")).containsExactly(0L, 1L);
        assertThat(StepTestHome.rows(database, "SELECT count(*) FROM citations")).containsExactly(List.of(14L));
        assertThat(StepTestHome.run(steps, context, "citeSummariesStep")).containsExactly(0L, 0L);
    }

    @Test
    @Order(13)
    void queueVectorsWritesItsRowsOnceAndNothingWhenItRunsAgain() throws Exception {
        assertThat(StepTestHome.run(steps, context, "queueVectorsStep")).containsExactly(0L, 9L);
        assertThat(StepTestHome.rows(database,
                "SELECT e.entry_type, v.op, v.status, count(*) FROM vector_outbox v"
                        + " JOIN entries e ON e.entry_id = v.memory_id GROUP BY ALL ORDER BY ALL"))
            .as("verified, active memories but tool observations")
            .containsExactly(List.of("decision", "upsert", "pending", 1L), List.of("exchange", "upsert", "pending", 2L),
                    List.of("insight", "upsert", "pending", 1L), List.of("preference", "upsert", "pending", 1L),
                    List.of("summary", "upsert", "pending", 1L), List.of("task", "upsert", "pending", 2L),
                    List.of("work", "upsert", "pending", 1L));
        assertThat(StepTestHome.run(steps, context, "queueVectorsStep")).containsExactly(0L, 0L);
    }

    @Test
    @Order(14)
    void embedMemoriesWritesItsRowsOnceAndNothingWhenItRunsAgain() throws Exception {
        assertThat(StepTestHome.run(steps, context, "embedMemoriesStep")).containsExactly(9L, 9L);
        assertThat(StepTestHome.rows(database, "SELECT op, status, count(*) FROM vector_outbox GROUP BY ALL"))
            .containsExactly(List.of("upsert", "done", 9L));
        assertThat(StepTestHome.rows(database,
                "SELECT count(*), min(len(v.vector)), max(len(v.vector)) FROM " + VECTORS + " v"
                        + " JOIN vector_outbox o ON o.memory_id = v.memory_id"))
            .containsExactly(List.of(9L, 384L, 384L));
        assertThat(StepTestHome.run(steps, context, "embedMemoriesStep")).containsExactly(0L, 0L);
        assertThat(StepTestHome.rows(database, "SELECT count(*) FROM " + VECTORS)).containsExactly(List.of(9L));
    }

    /**
     * One session as the hook appends it: a start, a prompt whose work runs through a
     * to-do list, a failing and a passing test run, an edit and a commit, its reply, a
     * second prompt stating a rule and its reply, an end. A minute apart.
     */
    private static void spoolSession() throws IOException {
        List<String> events = List.of(event("SessionStart", "\"source\":\"startup\""),
                event("UserPromptSubmit",
                        "\"prompt\":\"Please add retries with backoff to the billing client and keep the public API"
                                + " stable.\""),
                tool("TodoWrite",
                        "{\"todos\":[" + todo("1", "Add retries to the billing client", "in_progress") + ","
                                + todo("2", "Document the retry policy in the changelog", "pending") + "]}",
                        "{\"oldTodos\":[],\"newTodos\":[]}"),
                tool("Bash", "{\"command\":\"" + TEST_COMMAND + "\"}",
                        "{\"stdout\":\"Tests run: 4, Failures: 1\",\"stderr\":\"expected 3 attempts but was 1\","
                                + "\"exit_code\":1}"),
                tool("Edit",
                        "{\"file_path\":\"" + PROJECT + "/src/main/java/billing/BillingClient.java\","
                                + "\"old_string\":\"return send(request);\","
                                + "\"new_string\":\"return retry.call(() -> send(request));\"}",
                        "{\"filePath\":\"" + PROJECT + "/src/main/java/billing/BillingClient.java\"}"),
                tool("Bash", "{\"command\":\"" + TEST_COMMAND + "\"}",
                        "{\"stdout\":\"Tests run: 4, Failures: 0\",\"stderr\":\"\",\"exit_code\":0}"),
                tool("TodoWrite",
                        "{\"todos\":[" + todo("1", "Add retries to the billing client", "completed") + ","
                                + todo("2", "Document the retry policy in the changelog", "pending") + "]}",
                        "{\"oldTodos\":[],\"newTodos\":[]}"),
                tool("Bash",
                        "{\"command\":\"git add -A && git commit -m \\\"$(cat <<'EOF'\\nAdd retries to the billing"
                                + " client\\n\\nCo-Authored-By: Claude <noreply@anthropic.com>\\nEOF\\n)\\\"\","
                                + "\"description\":\"Commit\"}",
                        "{\"stdout\":\"[main 1a2b3c4] Add retries to the billing client\\n 2 files changed, 14"
                                + " insertions(+), 3 deletions(-)\",\"stderr\":\"\",\"interrupted\":false}"),
                event("Stop",
                        "\"stop_hook_active\":false,\"last_assistant_message\":\"We decided to use exponential"
                                + " backoff with jitter for the billing client retries. The tests pass now.\""),
                event("UserPromptSubmit", "\"prompt\":\"Never log request bodies in the billing service.\""),
                event("Stop", "\"stop_hook_active\":false,\"last_assistant_message\":\"Understood: the billing service"
                        + " will not log request bodies.\""),
                event("SessionEnd", "\"reason\":\"other\""));
        SpoolLineBuilder builder = SpoolLineBuilder.defaults();
        Instant t = Instant.parse("2026-01-05T09:00:00Z");
        List<String> lines = new ArrayList<>();
        for (String json : events) {
            lines.add(builder.build(json.replace("@T", t.toString()), t, "hook", null).json());
            t = t.plusSeconds(60);
        }
        Spool.forHome(new CodeMemoryHome(HOME)).appendAll(lines);
    }

    /** Tool calls spooled so far: each gets its own {@code tool_use_id}. */
    private static int toolUses;

    private static String tool(String name, String input, String response) {
        return event("PostToolUse", "\"tool_name\":\"" + name + "\",\"tool_input\":" + input + ",\"tool_response\":"
                + response + ",\"tool_use_id\":\"toolu_" + ++toolUses + "\"");
    }

    private static String todo(String id, String content, String status) {
        return "{\"id\":\"" + id + "\",\"content\":\"" + content + "\",\"status\":\"" + status
                + "\",\"priority\":\"high\"}";
    }

    private static String event(String kind, String body) {
        return "{\"session_id\":\"" + SESSION + "\",\"transcript_path\":\"/tmp/" + SESSION + ".jsonl\",\"cwd\":\""
                + PROJECT + "\",\"hook_event_name\":\"" + kind + "\"," + body + ",\"timestamp\":\"@T\"}";
    }

}
