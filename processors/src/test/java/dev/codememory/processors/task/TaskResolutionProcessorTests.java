package dev.codememory.processors.task;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import dev.codememory.config.graduate.CandidateKind;
import dev.codememory.config.graduate.EntryDraft;
import dev.codememory.config.graduate.GraphUpdate.Supersession;
import dev.codememory.config.graduate.GraphUpdate;
import dev.codememory.config.graduate.Quote;
import dev.codememory.config.graduate.TaskFields;
import java.time.LocalDateTime;
import java.util.List;
import org.junit.jupiter.api.Test;

class TaskResolutionProcessorTests {

    private static final String PROJECT = "/home/dev/shop";

    private static final LocalDateTime T0 = LocalDateTime.parse("2025-06-02T10:00:00");

    private static final String LOGIN = "Add the login form";

    private static final String LOGIN_ID = TaskKeys.taskId(TaskKeys.task(PROJECT, LOGIN));

    private final TaskMatcher matcher = new TaskMatcher();

    private final TaskResolutionProcessor processor = new TaskResolutionProcessor(
            new TaskResolver(matcher, new BlockerResolver(matcher)), List::of,
            () -> List.of(new TaskResolutionProcessor.TaskStatement("task_other", "ent_old_other", T0)));

    @Test
    void theNewestStatementOfATaskStaysActiveAndSupersedesTheOlder() {
        GraphUpdate first = processor.process(task("ent_1", LOGIN, "pending", T0));
        GraphUpdate second = processor.process(task("ent_2", LOGIN, "in_progress", T0.plusMinutes(5)));
        GraphUpdate older = processor.process(task("ent_0", LOGIN, "pending", T0.minusMinutes(5)));

        assertThat(first.supersessions()).isEmpty();
        assertThat(second.supersessions()).containsExactly(new Supersession("ent_1", "ent_2", 1.0));
        assertThat(older.supersessions()).containsExactly(new Supersession("ent_0", "ent_2", 1.0));
        assertThat(older.events()).isEmpty();
        assertThat(older.addEdges()).extracting(GraphUpdate.EdgeRow::relType, GraphUpdate.EdgeRow::dstId)
            .containsExactly(tuple("evidence_of", LOGIN_ID));
        assertThat(second.entities()).extracting(GraphUpdate.EntityRow::title, GraphUpdate.EntityRow::status)
            .containsExactly(tuple(LOGIN, "in_progress"));
    }

    @Test
    void aCommitWhoseSubjectStrictlyMatchesAnOpenTaskCompletesIt() {
        processor.process(task("ent_1", LOGIN, "in_progress", T0));

        GraphUpdate commit = processor.process(work("ent_w", "Add the login form", T0.plusMinutes(30)));
        GraphUpdate unrelated = processor.process(work("ent_w2", "Bump the lockfile", T0.plusMinutes(31)));

        assertThat(commit.events()).extracting(GraphUpdate.TaskEventRow::eventType)
            .containsExactly("task_status_changed");
        assertThat(commit.entities()).extracting(GraphUpdate.EntityRow::status).containsExactly("done");
        assertThat(commit.addEdges())
            .extracting(GraphUpdate.EdgeRow::srcId, GraphUpdate.EdgeRow::relType, GraphUpdate.EdgeRow::dstId)
            .containsExactly(tuple("ent_w", "completes", LOGIN_ID));
        assertThat(unrelated).isEqualTo(GraphUpdate.markOnly("ent_w2", TaskResolutionProcessor.STAGE));
    }

    @Test
    void aProseStatementThatAnUnknownTaskIsDoneLinksToNothing() {
        GraphUpdate update = processor.process(new EntryDraft("ent_p", "cand_p", CandidateKind.TASK, PROJECT, "s", T0,
                "The changelog update", "The changelog update is done.", new TaskFields("done", null, List.of()), "k",
                List.of(new Quote("ev", "prompt", "The changelog update is done."))));

        assertThat(update.events()).isEmpty();
        assertThat(update.entities()).isEmpty();
        assertThat(update.addEdges()).isEmpty();
    }

    private static EntryDraft task(String id, String title, String status, LocalDateTime ts) {
        return new EntryDraft(id, "cand_" + id, CandidateKind.TASK, PROJECT, "s", ts, title, title,
                new TaskFields(status, null, List.of(), TaskFields.TODO_LIST), "k_" + id,
                List.of(new Quote("ev_" + id, "tool_input", title)));
    }

    private static EntryDraft work(String id, String subject, LocalDateTime ts) {
        return new EntryDraft(id, "cand_" + id, CandidateKind.WORK, PROJECT, "s", ts, subject,
                "Commit 1a2b3c4: " + subject, null, "k_" + id, List.of(new Quote("ev_" + id, "tool_input", subject)));
    }

}
