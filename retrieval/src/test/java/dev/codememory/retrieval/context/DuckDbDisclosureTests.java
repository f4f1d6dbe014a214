package dev.codememory.retrieval.context;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class DuckDbDisclosureTests {

    @Test
    void aToolCallInATimelineIsNamedNotDumped() {
        assertThat(DuckDbDisclosure.named("Bash", "{\"command\":\"npm test\",\"description\":\"Run the tests\"}"))
            .isEqualTo("Bash: npm test");
        assertThat(DuckDbDisclosure.named("Edit",
                "{\"file_path\":\"src/App.java\",\"old_string\":\"a\",\"new_string\":\"{\\\"x\\\": 1}\"}"))
            .isEqualTo("Edit src/App.java");
        assertThat(DuckDbDisclosure.named("TaskCreate", "{\"task_id\":\"1\",\"subject\":\"Add the rate limiter\"}"))
            .isEqualTo("TaskCreate Add the rate limiter");
        assertThat(DuckDbDisclosure.named("TodoWrite", "{\"todos\":[{\"content\":\"x\"}]}")).isEqualTo("TodoWrite");
        assertThat(DuckDbDisclosure.named("Bash", "not json {")).isEqualTo("Bash");
        assertThat(DuckDbDisclosure.named("Bash", null)).isEqualTo("Bash");
    }

}
