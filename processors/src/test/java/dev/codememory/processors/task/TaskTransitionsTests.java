package dev.codememory.processors.task;

import static dev.codememory.processors.task.TaskStatus.BLOCKED;
import static dev.codememory.processors.task.TaskStatus.CANCELLED;
import static dev.codememory.processors.task.TaskStatus.DONE;
import static dev.codememory.processors.task.TaskStatus.IN_PROGRESS;
import static dev.codememory.processors.task.TaskStatus.PENDING;
import static org.assertj.core.api.Assertions.assertThat;

import dev.codememory.processors.task.TaskTransitions.Transition;
import dev.codememory.processors.task.TaskTransitions.Verdict;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class TaskTransitionsTests {

    @ParameterizedTest(name = "{0} -> {1}: {3} to {2}")
    @CsvSource({ "PENDING,     PENDING,     PENDING,     UNCHANGED", "PENDING,     IN_PROGRESS, IN_PROGRESS, ALLOWED",
            "PENDING,     BLOCKED,     BLOCKED,     ALLOWED", "PENDING,     DONE,        IN_PROGRESS, CORRECTED",
            "PENDING,     CANCELLED,   CANCELLED,   ALLOWED", "IN_PROGRESS, PENDING,     PENDING,     ALLOWED",
            "IN_PROGRESS, IN_PROGRESS, IN_PROGRESS, UNCHANGED", "IN_PROGRESS, BLOCKED,     BLOCKED,     ALLOWED",
            "IN_PROGRESS, DONE,        DONE,        ALLOWED", "IN_PROGRESS, CANCELLED,   CANCELLED,   ALLOWED",
            "BLOCKED,     PENDING,     PENDING,     ALLOWED", "BLOCKED,     IN_PROGRESS, IN_PROGRESS, ALLOWED",
            "BLOCKED,     BLOCKED,     BLOCKED,     UNCHANGED", "BLOCKED,     DONE,        DONE,        ALLOWED",
            "BLOCKED,     CANCELLED,   CANCELLED,   ALLOWED", "DONE,        PENDING,     PENDING,     ALLOWED",
            "DONE,        IN_PROGRESS, IN_PROGRESS, ALLOWED", "DONE,        BLOCKED,     DONE,        REFUSED",
            "DONE,        DONE,        DONE,        UNCHANGED", "DONE,        CANCELLED,   DONE,        REFUSED",
            "CANCELLED,   PENDING,     PENDING,     ALLOWED", "CANCELLED,   IN_PROGRESS, IN_PROGRESS, ALLOWED",
            "CANCELLED,   BLOCKED,     CANCELLED,   REFUSED", "CANCELLED,   DONE,        CANCELLED,   REFUSED",
            "CANCELLED,   CANCELLED,   CANCELLED,   UNCHANGED" })
    void everyPairOfTheTable(TaskStatus from, TaskStatus requested, TaskStatus to, Verdict verdict) {
        Transition t = TaskTransitions.request(from, requested);
        assertThat(t.from()).isEqualTo(from);
        assertThat(t.requested()).isEqualTo(requested);
        assertThat(t.to()).isEqualTo(to);
        assertThat(t.verdict()).isEqualTo(verdict);
        assertThat(t.rejected()).isEqualTo(verdict == Verdict.CORRECTED || verdict == Verdict.REFUSED);
        assertThat(t.changesStatus()).isEqualTo(from != to);
        assertThat(t.reason().isEmpty()).isEqualTo(!t.rejected());
        assertThat(TaskTransitions.allowed(from, requested)).isEqualTo(verdict == Verdict.ALLOWED);
    }

    @Test
    void pendingToDoneIsCorrectedWithAReason() {
        assertThat(TaskTransitions.request(PENDING, DONE)).isEqualTo(new Transition(PENDING, DONE, IN_PROGRESS,
                Verdict.CORRECTED, "a pending task goes through in_progress before done"));
    }

    @Test
    void terminalStatusesRefuseWithAReason() {
        assertThat(TaskTransitions.request(CANCELLED, DONE).reason())
            .isEqualTo("a cancelled task is only reopened to pending or in_progress, not moved to done");
        assertThat(TaskTransitions.request(DONE, BLOCKED).reason())
            .isEqualTo("a done task is only reopened to pending or in_progress, not moved to blocked");
    }

    @Test
    void newTaskMayNotStartDone() {
        assertThat(TaskTransitions.initial(DONE)).isEqualTo(
                new Transition(PENDING, DONE, IN_PROGRESS, Verdict.CORRECTED, "a new task may not start as done"));
    }

    @Test
    void newTaskStartsAsAskedOtherwise() {
        assertThat(TaskTransitions.initial(PENDING).verdict()).isEqualTo(Verdict.UNCHANGED);
        assertThat(TaskTransitions.initial(IN_PROGRESS).to()).isEqualTo(IN_PROGRESS);
        assertThat(TaskTransitions.initial(BLOCKED).to()).isEqualTo(BLOCKED);
        assertThat(TaskTransitions.initial(CANCELLED).to()).isEqualTo(CANCELLED);
        assertThat(TaskTransitions.initial(CANCELLED).rejected()).isFalse();
    }

    @Test
    void noStatusMayBeEnteredFromPendingExceptThroughTheTable() {
        assertThat(TaskTransitions.allowed(PENDING, DONE)).isFalse();
        assertThat(TaskTransitions.allowed(PENDING, PENDING)).isFalse();
    }

    @Test
    void aRecordedStatusGoesWhereTheListSaysExceptIntoBlocked() {
        for (TaskStatus from : TaskStatus.values()) {
            for (TaskStatus to : TaskStatus.values()) {
                TaskTransitions.Transition t = TaskTransitions.recorded(from, to);
                if (to == TaskStatus.BLOCKED) {
                    assertThat(t).isEqualTo(TaskTransitions.request(from, to));
                }
                else if (from == to) {
                    assertThat(t.verdict()).isEqualTo(TaskTransitions.Verdict.UNCHANGED);
                    assertThat(t.to()).isEqualTo(from);
                }
                else {
                    assertThat(t.verdict()).as("%s -> %s", from, to).isEqualTo(TaskTransitions.Verdict.ALLOWED);
                    assertThat(t.to()).isEqualTo(to);
                    assertThat(t.reason()).isEmpty();
                }
            }
        }
    }

}
