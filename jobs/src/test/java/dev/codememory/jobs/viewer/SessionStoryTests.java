package dev.codememory.jobs.viewer;

import static org.assertj.core.api.Assertions.assertThat;

import dev.codememory.processors.workingset.WorkingSet.Cited;
import dev.codememory.processors.workingset.WorkingSet.Todo;
import dev.codememory.processors.workingset.WorkingSet;
import java.util.List;
import org.junit.jupiter.api.Test;

class SessionStoryTests {

    @Test
    void readsASummaryBodyLineByLineWithItsCitations() {
        SessionStory story = SessionStory.ofSummary("""
                Goal: Let's add a rate limit to the public API. [mem:AAAAAA]
                Done (2 of 3):
                - Committed: Rate-limit the public API with bucket4j [mem:BBBBBB]
                - Fixed `./mvnw test`: NPE by changing Filter.java [mem:CCCCCC]
                Decided:
                - use bucket4j, not a home-made counter [mem:DDDDDD]
                Left open:
                - document the limit (pending) [mem:EEEEEE]
                Changed: src/RateLimitFilter.java (3 edits) [mem:FFFFFF], pom.xml [mem:GGGGGG]""");

        assertThat(story.goal())
            .isEqualTo(new SessionStory.Line("Let's add a rate limit to the public API.", "mem:AAAAAA"));
        assertThat(story.done()).containsExactly(
                new SessionStory.Line("Committed: Rate-limit the public API with bucket4j", "mem:BBBBBB"),
                new SessionStory.Line("Fixed `./mvnw test`: NPE by changing Filter.java", "mem:CCCCCC"));
        assertThat(story.decided())
            .containsExactly(new SessionStory.Line("use bucket4j, not a home-made counter", "mem:DDDDDD"));
        assertThat(story.open()).containsExactly(new SessionStory.Line("document the limit (pending)", "mem:EEEEEE"));
        assertThat(story.files()).containsExactly(
                new SessionStory.Line("src/RateLimitFilter.java (3 edits)", "mem:FFFFFF"),
                new SessionStory.Line("pom.xml", "mem:GGGGGG"));
        assertThat(story.from()).isEqualTo("summary");
    }

    @Test
    void aSessionNotSummarizedIsToldByItsWorkingSet() {
        WorkingSet set = new WorkingSet("s1", new Cited("Fix the checkout tests", "ev1"),
                List.of(new Todo("find the cause", "done", "ev2"), new Todo("add a test", "pending", "ev3")),
                List.of(new Cited("src/Checkout.java", "ev4")), List.of(),
                List.of(new Cited("we decided to keep DuckDB", "ev5")), List.of());

        SessionStory story = SessionStory.ofWorkingSet(set);

        assertThat(story.goal()).isEqualTo(new SessionStory.Line("Fix the checkout tests", "ev1"));
        assertThat(story.done()).containsExactly(new SessionStory.Line("find the cause", "ev2"));
        assertThat(story.open()).containsExactly(new SessionStory.Line("add a test", "ev3"));
        assertThat(story.files()).containsExactly(new SessionStory.Line("src/Checkout.java", "ev4"));
        assertThat(story.decided()).containsExactly(new SessionStory.Line("we decided to keep DuckDB", "ev5"));
        assertThat(story.from()).isEqualTo("events");
        assertThat(SessionStory.ofWorkingSet(WorkingSet.empty("s2")).isEmpty()).isTrue();
    }

}
