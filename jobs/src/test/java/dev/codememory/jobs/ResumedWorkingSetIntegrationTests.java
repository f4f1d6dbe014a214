package dev.codememory.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import dev.codememory.config.json.Json;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Working sets of sessions touched days ago, through the real jar and hook command on a
 * real DuckDB home with no {@code serve}: a session resumed and compacted days after its
 * work, a compaction that went on in a new session id, and a fresh start whose last
 * session is still in the spool. The hook events carry their own (old) times; the
 * SessionStart, PreCompact and resume markers come now, as Claude Code sends them.
 */
class ResumedWorkingSetIntegrationTests {

    @TempDir
    Path tmp;

    Path home;

    Path project;

    HookEvents events;

    /** Four days ago: longer than any window measured by the wall clock. */
    Instant t0 = Instant.now().minus(4, ChronoUnit.DAYS).truncatedTo(ChronoUnit.SECONDS);

    @BeforeEach
    void anEmptyHomeWithItsDatabase() throws Exception {
        project = tmp.resolve("shop");
        Files.createDirectories(project.resolve(".git"));
        home = tmp.resolve("home");
        events = new HookEvents(project);
        JobsJar.Result ingest = JobsJar.run(home, new byte[0], "--job=ingest");
        assertThat(ingest.exit()).as(ingest.stderr()).isZero();
        assertThat(home.resolve("memory.duckdb")).exists();
    }

    @Test
    void aSessionResumedAndCompactedDaysLaterGetsItsOwnWorkingSet() throws Exception {
        hook(events.event("old-1", at(0), "UserPromptSubmit", "prompt", "Add a logout button to the header"));
        hook(events.todo("old-1", at(1),
                new String[][] { { "Add the logout button", "in_progress" }, { "Test the logout flow", "pending" } }));
        JobsJar.Result ingest = JobsJar.run(home, new byte[0], "--job=ingest");
        assertThat(ingest.exit()).as(ingest.stderr()).isZero();
        assertThat(JobsJar.duckRows(home, "SELECT count(*) FROM events WHERE session_id = 'old-1'"))
            .containsExactly(List.of(2L));
        // still in the spool, four days old too
        hook(events.tool("old-1", at(2), "Edit",
                Map.of("file_path", project + "/src/header.ts", "old_string", "a", "new_string", "b"),
                Map.of("filePath", project + "/src/header.ts")));
        // `claude --resume` now, then a compaction now
        hook(Map.of("hook_event_name", "SessionStart", "session_id", "old-1", "cwd", project.toString(), "source",
                "resume"));
        hook(Map.of("hook_event_name", "PreCompact", "session_id", "old-1", "cwd", project.toString(), "trigger",
                "auto"));

        String context = HookEvents.contextOf(hook(Map.of("hook_event_name", "SessionStart", "session_id", "old-1",
                "cwd", project.toString(), "source", "compact")));

        assertThat(context).startsWith("Where the work stood in session old-1")
            .containsPattern("Goal, the user's latest request:\n- \"Add a logout button to the header\"  "
                    + "\\[ev:[0-9a-f]{8}]")
            .containsPattern("- Add the logout button \\(in progress\\)  \\[ev:[0-9a-f]{8}]\n"
                    + "- Test the logout flow \\(pending\\)  \\[ev:[0-9a-f]{8}]")
            .containsPattern("Files edited, newest first:\n- src/header.ts  \\[ev:[0-9a-f]{8}]");
    }

    @Test
    void aCompactionIntoANewSessionIdContinuesTheProjectsPreviousSession() throws Exception {
        hook(events.event("before-1", at(0), "UserPromptSubmit", "prompt", "Move the cart total into a service"));
        hook(events.todo("before-1", at(1), new String[][] { { "Extract the cart total service", "completed" },
                { "Wire the service into checkout", "in_progress" } }));
        hook(events.tool("before-1", at(2), "Write", Map.of("file_path", project + "/src/total.ts", "content", "x"),
                Map.of("type", "create", "filePath", project + "/src/total.ts")));

        // older Claude Code: the compaction opens a new session, which has nothing yet
        String atCompaction = HookEvents.contextOf(hook(Map.of("hook_event_name", "SessionStart", "session_id",
                "after-1", "cwd", project.toString(), "source", "compact")));
        hook(events.event("after-1", at(10), "UserPromptSubmit", "prompt",
                "This session is being continued from a previous conversation that ran out of context. Summary: "
                        + "the cart total moved into a service."));
        hook(events.tool("after-1", at(11), "Edit",
                Map.of("file_path", project + "/src/checkout.ts", "old_string", "a", "new_string", "b"),
                Map.of("filePath", project + "/src/checkout.ts")));
        String later = HookEvents.contextOf(hook(Map.of("hook_event_name", "SessionStart", "session_id", "after-1",
                "cwd", project.toString(), "source", "compact")));

        assertThat(atCompaction).startsWith("Where the work stood in session before-1")
            .containsPattern("- Wire the service into checkout \\(in progress\\)  \\[ev:[0-9a-f]{8}]");
        assertThat(later).startsWith("Where the work stood in session after-1")
            .containsPattern("Goal, the user's latest request:\n- \"Move the cart total into a service\"")
            .containsPattern("- Wire the service into checkout \\(in progress\\)  \\[ev:[0-9a-f]{8}]")
            .containsPattern("Files edited, newest first:\n- src/checkout.ts  \\[ev:[0-9a-f]{8}]\n"
                    + "- src/total.ts  \\[ev:[0-9a-f]{8}]");
    }

    @Test
    void withoutServeAFreshStartShowsTheLastSessionStillInTheSpool() throws Exception {
        hook(events.event("spooled-2", at(0), "UserPromptSubmit", "prompt", "Cache the product images on disk"));
        hook(events.todo("spooled-2", at(1), new String[][] { { "Add the image cache", "in_progress" } }));

        String context = HookEvents.contextOf(hook(Map.of("hook_event_name", "SessionStart", "session_id", "next-2",
                "cwd", project.toString(), "source", "startup")));

        assertThat(JobsJar.duckRows(home, "SELECT count(*) FROM events")).containsExactly(List.of(0L));
        assertThat(context).startsWith("Where the work stood in session spooled-2")
            .containsPattern("Goal, the user's latest request:\n- \"Cache the product images on disk\"")
            .containsPattern("- Add the image cache \\(in progress\\)  \\[ev:[0-9a-f]{8}]");
    }

    private String at(int minutes) {
        return t0.plus(minutes, ChronoUnit.MINUTES).toString();
    }

    @SuppressWarnings("unchecked")
    private JobsJar.Result hook(String line) throws Exception {
        return hook((Map<String, Object>) Json.parse(line));
    }

    private JobsJar.Result hook(Map<String, Object> event) throws Exception {
        return HookEvents.hook(home, event);
    }

}
