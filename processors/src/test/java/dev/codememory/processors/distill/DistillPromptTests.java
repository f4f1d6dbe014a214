package dev.codememory.processors.distill;

import static org.assertj.core.api.Assertions.assertThat;

import dev.codememory.capture.privacy.Redactor;
import dev.codememory.config.distill.DistillRequest;
import dev.codememory.config.distill.DistillSession;
import dev.codememory.config.distill.SessionText;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class DistillPromptTests {

    static DistillSession longSession() {
        List<SessionText> texts = new ArrayList<>();
        texts.add(new SessionText("p1", "prompt", null, false, "Make the importer stream its input."));
        for (int i = 0; i < 60; i++) {
            texts.add(
                    new SessionText("t" + i, "tool_response", "Read", false, ("line " + i + " of output ").repeat(40)));
        }
        texts.add(new SessionText("r1", "reply", null, false, "The importer now streams; memory stays flat."));
        return new DistillSession("s1", "/home/dev/importer", LocalDateTime.of(2026, 5, 4, 9, 0), texts);
    }

    @Test
    void aCappedRequestKeepsTheWholeConversationAndLeavesToolOutputOut() {
        DistillRequest request = new DistillPrompt(Redactor.defaults(), 3_000, 50, 500).build(longSession());

        assertThat(request.estimatedInputTokens()).isLessThanOrEqualTo(3_000);
        assertThat(request.user()).contains("[1] user:\nMake the importer stream its input.")
            .contains("[62] claude:\nThe importer now streams; memory stays flat.")
            .contains("[2] tool output Read:\n> line 0 of output")
            .doesNotContain("line 59 of output")
            .containsPattern("\\[\\d+ tool sources left out: the request's size is capped\\]");
    }

    @Test
    void longToolOutputIsSentAsItsHeadAndTailEachAVerbatimPiece() {
        String output = "a".repeat(1_000) + "MIDDLE" + "b".repeat(1_000);

        String cut = DistillPrompt.cut(output, DistillPrompt.TOOL_OUTPUT_CHARS);

        assertThat(cut).startsWith("a".repeat(400) + "\n[… 1406 characters left out …]\n").endsWith("b".repeat(200));
        assertThat(cut).doesNotContain("MIDDLE");
    }

    @Test
    void aSessionWithoutAPromptOrBelowTheMinimumIsNotWorthARequest() {
        DistillSession noPrompt = new DistillSession("s2", "/p", LocalDateTime.of(2026, 5, 4, 9, 0),
                List.of(new SessionText("t1", "tool_response", "Bash", false, "x".repeat(4_000))));
        DistillSession tiny = new DistillSession("s3", "/p", LocalDateTime.of(2026, 5, 4, 9, 0),
                List.of(new SessionText("p1", "prompt", null, false, "fix the typo in README")));

        assertThat(new DistillPrompt(Redactor.defaults(), 12_000, 400, 2_000).build(noPrompt)).isNull();
        assertThat(new DistillPrompt(Redactor.defaults(), 12_000, 400, 2_000).build(tiny)).isNull();
        assertThat(new DistillPrompt(Redactor.defaults(), 12_000, 5, 2_000).build(tiny)).isNotNull();
    }

}
