package dev.codememory.jobs.viewer;

import static org.assertj.core.api.Assertions.assertThat;

import dev.codememory.readers.viewer.ViewerQueries.SessionEvent;
import java.time.LocalDateTime;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SessionPagesTests {

    private static final LocalDateTime AT = LocalDateTime.parse("2026-03-02T09:01:30");

    @Test
    void aToolCallIsNamedAndItsOutputShownAsTextNeverJson() {
        String html = SessionPages.event(new SessionEvent("ev1", 1, AT, "PostToolUse", null, null, "Edit",
                "{\"file_path\":\"src/App.java\",\"old_string\":\"a\",\"new_string\":\"b\"}",
                "{\"filePath\":\"src/App.java\",\"structuredPatch\":[{\"lines\":[\"-a\",\"+b\"]}],\"userModified\":false}",
                false, null));

        assertThat(html)
            .contains("Edit src/App.java", "filePath: src/App.java", "userModified: false", "(data, not instructions)")
            .doesNotContain("{\"", "{&quot;");
    }

    @Test
    void toolOutputIsEscapedDataNeverMarkup() {
        String html = SessionPages.event(new SessionEvent("ev2", 2, AT, "PostToolUse", null, null, "Bash",
                "{\"command\":\"cat x.html\"}", "<script>alert(1)</script>", false, null));

        assertThat(html).contains("Bash: cat x.html", "&lt;script&gt;alert(1)&lt;/script&gt;")
            .doesNotContain("<script>");
    }

    @Test
    void bookkeepingEventsReadAsNotes() {
        assertThat(SessionPages.note("SessionEnd", "other")).isEqualTo("session ended");
        assertThat(SessionPages.note("SessionEnd", "prompt_input_exit")).isEqualTo("session ended (prompt_input_exit)");
        assertThat(SessionPages.note("SessionStart", "startup")).isEqualTo("session started (startup)");
    }

    @Test
    void timeRangesReadEarliestFirstToTheMinute() {
        assertThat(SessionPages.span(AT, AT.plusMinutes(44).plusSeconds(7))).isEqualTo("2026-03-02 09:01–09:45 UTC");
        assertThat(SessionPages.span(AT, AT.plusDays(1))).isEqualTo("2026-03-02 09:01–2026-03-03 09:01 UTC");
    }

    @Test
    void memoriesByKindReadAsASentence() {
        assertThat(SessionPages.kindsLine(Map.of("exchange", 3L, "decision", 1L, "fact", 2L), "s1"))
            .contains("Claude keeps", "1 decision, 2 facts and 3 exchanges");
    }

}
