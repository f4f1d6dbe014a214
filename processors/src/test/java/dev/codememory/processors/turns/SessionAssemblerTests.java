package dev.codememory.processors.turns;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import dev.codememory.config.graduate.AssembledSession;
import dev.codememory.config.graduate.Candidate;
import dev.codememory.config.graduate.StoredEvent;
import dev.codememory.config.graduate.Turn;
import dev.codememory.config.json.Json;
import dev.codememory.processors.extract.RuleBasedExtractor;
import dev.codememory.processors.extract.SessionSlice;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SessionAssemblerTests {

    private static final String PROJECT = "/work/shop";

    private static final LocalDateTime T0 = LocalDateTime.of(2026, 3, 2, 9, 0);

    private final List<StoredEvent> events = new ArrayList<>();

    /**
     * A background agent finishes while the user works: Claude Code sends its
     * notification through UserPromptSubmit, and Claude answers it. The notification is
     * kept as an event but is no prompt: the session counts one prompt, the reply to the
     * notification is a turn of Claude's alone, and no memory quotes the notification.
     */
    @Test
    void aTaskNotificationIsNoPromptAndNoMemoryQuotesIt() {
        event("SessionStart", Map.of("source", "startup"));
        event("UserPromptSubmit", Map.of("prompt", "Add rate limiting to the login endpoint"));
        event("Stop", Map.of("last_assistant_message", "Rate limiting is in: five attempts a minute per address."));
        event("UserPromptSubmit", Map.of("prompt", PromptsTests.TASK_NOTIFICATION));
        event("Stop", Map.of("last_assistant_message", "The background build finished successfully; the bundle "
                + "is in dist/ and nothing else needs doing for the rate limiting change."));
        event("SessionEnd", Map.of("reason", "prompt_input_exit"));

        AssembledSession session = new SessionAssembler(TranscriptSource.NONE).assemble(events);

        assertThat(session.session().promptCount()).isEqualTo(1);
        assertThat(session.turns()).extracting(Turn::promptEventId, Turn::promptText, Turn::replyEventId)
            .containsExactly(tuple("ev_2", "Add rate limiting to the login endpoint", "ev_3"),
                    tuple("ev_5", "", "ev_5"));
        List<Candidate> candidates = new RuleBasedExtractor()
            .extract(new SessionSlice("s-1", PROJECT, session.turns(), session.observations()));
        assertThat(candidates).isNotEmpty()
            .allSatisfy(c -> assertThat(c.quotes()).allSatisfy(q -> assertThat(q.eventId()).isNotEqualTo("ev_4")))
            .allSatisfy(c -> assertThat(c.body()).doesNotContain("task-notification"));
    }

    @Test
    void aCommandWrapperNeitherOpensNorClosesTheUsersTurn() {
        event("UserPromptSubmit", Map.of("prompt", "Why does the login form lose its state on reload?"));
        event("UserPromptSubmit", Map.of("prompt", "<local-command-stdout>Set model to opus</local-command-stdout>"));
        event("Stop", Map.of("last_assistant_message", "The form state lives in memory only."));

        AssembledSession session = new SessionAssembler(TranscriptSource.NONE).assemble(events);

        assertThat(session.session().promptCount()).isEqualTo(1);
        assertThat(session.turns()).extracting(Turn::promptEventId, Turn::replyText)
            .containsExactly(tuple("ev_1", "The form state lives in memory only."));
    }

    private void event(String name, Map<String, Object> fields) {
        int n = events.size() + 1;
        Map<String, Object> payload = new LinkedHashMap<>();
        payload.put("session_id", "s-1");
        payload.put("cwd", PROJECT);
        payload.put("hook_event_name", name);
        payload.putAll(fields);
        events.add(new StoredEvent("ev_" + n, n, T0.plusMinutes(n), name, "s-1", PROJECT, Json.write(payload)));
    }

}
