package dev.codememory.processors.task;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class TaskPriorityTests {

    @ParameterizedTest
    @CsvSource(delimiter = '|',
            value = { "low|LOW", "Minor|LOW", "p3|LOW", "medium|MEDIUM", "normal|MEDIUM", "P2|MEDIUM", "high|HIGH",
                    " HIGH |HIGH", "important|HIGH", "p1|HIGH", "critical|CRITICAL", "urgent|CRITICAL", "p0|CRITICAL" })
    void parsesNamesSynonymsAndPLevels(String text, TaskPriority expected) {
        assertThat(TaskPriority.parse(text)).isEqualTo(expected);
    }

    @Test
    void keysAreLowerCase() {
        assertThat(TaskPriority.CRITICAL.key()).isEqualTo("critical");
    }

    @Test
    void unknownPriorityIsRefusedWithTheText() {
        assertThatThrownBy(() -> TaskPriority.parse("asap-ish")).isInstanceOf(InvalidTaskException.class)
            .hasMessage("unknown task priority: 'asap-ish'");
    }

}
