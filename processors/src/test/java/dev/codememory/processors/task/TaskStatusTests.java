package dev.codememory.processors.task;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class TaskStatusTests {

    @ParameterizedTest
    @CsvSource(delimiter = '|',
            value = { "pending|PENDING", "todo|PENDING", "To-Do|PENDING", "not started|PENDING",
                    "in progress|IN_PROGRESS", "in-progress|IN_PROGRESS", "IN_PROGRESS|IN_PROGRESS",
                    "In  Progress|IN_PROGRESS", "inprogress|IN_PROGRESS", "wip|IN_PROGRESS", "WIP|IN_PROGRESS",
                    "doing|IN_PROGRESS", "blocked|BLOCKED", " Blocked |BLOCKED", "waiting|BLOCKED", "done|DONE",
                    "completed|DONE", "Finished|DONE", "fixed|DONE", "cancelled|CANCELLED", "canceled|CANCELLED",
                    "won't fix|CANCELLED", "wontfix|CANCELLED", "abandoned|CANCELLED" })
    void parsesSpellingsAndSynonyms(String text, TaskStatus expected) {
        assertThat(TaskStatus.parse(text)).isEqualTo(expected);
    }

    @Test
    void parsesItsOwnKeys() {
        for (TaskStatus status : TaskStatus.values()) {
            assertThat(TaskStatus.parse(status.key())).isEqualTo(status);
        }
    }

    @Test
    void keysAreLowerSnakeCase() {
        assertThat(TaskStatus.IN_PROGRESS.key()).isEqualTo("in_progress");
        assertThat(TaskStatus.CANCELLED.key()).isEqualTo("cancelled");
    }

    @Test
    void unknownStatusIsRefusedWithTheText() {
        assertThatThrownBy(() -> TaskStatus.parse("maybe later")).isInstanceOf(InvalidTaskException.class)
            .hasMessage("unknown task status: 'maybe later'");
        assertThatThrownBy(() -> TaskStatus.parse(null)).isInstanceOf(InvalidTaskException.class);
        assertThatThrownBy(() -> TaskStatus.parse("  ")).isInstanceOf(InvalidTaskException.class);
    }

}
