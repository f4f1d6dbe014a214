package dev.codememory.jobs.mcp;

import dev.codememory.capture.spool.Spool;
import dev.codememory.capture.spool.SpoolLineBuilder;
import dev.codememory.config.home.CodeMemoryHome;
import dev.codememory.config.json.Json;
import dev.codememory.config.project.ProjectResolver;
import dev.codememory.jobs.invocation.Invocation;
import dev.codememory.jobs.mcp.MemoryTools.Answer;
import dev.codememory.processors.turns.MemoryTalk;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Supplier;

/**
 * The {@code mem-save} tool: the user's words written to the spool as a session of their
 * own, a prompt and its end, through the same line builder (and redaction) as the hook,
 * so graduation keeps them as one memory of their kind. Says when they become searchable:
 * soon when serve graduates after a save, else at the next graduation.
 */
final class SaveTool {

    private final Invocation invocation;

    private final boolean served;

    private final Supplier<Duration> graduateAfterSave;

    /**
     * @param served whether the tool runs inside {@code serve}
     * @param graduateAfterSave told of each save; how long until serve graduates it, or
     * null when serve will not for it
     */
    SaveTool(Invocation invocation, boolean served, Supplier<Duration> graduateAfterSave) {
        this.invocation = invocation;
        this.served = served;
        this.graduateAfterSave = graduateAfterSave;
    }

    Answer save(ToolArguments args) {
        String text = args.text("text");
        if (text == null) {
            throw new ToolArguments.BadInput("text is empty: say what to remember");
        }
        if (text.length() > ToolCatalog.MAX_SAVE_CHARS) {
            throw new ToolArguments.BadInput(
                    "text is longer than " + ToolCatalog.MAX_SAVE_CHARS + " characters; save one statement at a time");
        }
        String requested = args.text("project");
        String project = new ProjectResolver()
            .projectOf(invocation.resolve(Path.of(requested == null ? "" : requested)).toString());
        // a session of its own, named as a save: the prompt, then its end, so graduation
        // takes the unanswered prompt as finished (an open session's last prompt waits
        // for its reply) and keeps it as one memory of its kind, never as a session
        String session = MemoryTalk.SAVE_SESSION_PREFIX + UUID.randomUUID();
        Map<String, Object> prompt = new LinkedHashMap<>();
        prompt.put("hook_event_name", "UserPromptSubmit");
        prompt.put("session_id", session);
        prompt.put("cwd", project);
        prompt.put("prompt", text);
        prompt.put("code_memory_tool", "mem-save");
        Map<String, Object> end = new LinkedHashMap<>();
        end.put("hook_event_name", "SessionEnd");
        end.put("session_id", session);
        end.put("cwd", project);
        end.put("reason", "mem-save");
        CodeMemoryHome home = invocation.home();
        Instant now = Instant.now();
        SpoolLineBuilder.Line line = SpoolLineBuilder.defaults().build(Json.write(prompt), now, "mcp", "mem-save");
        try {
            Spool.forHome(home)
                .appendAll(List.of(line.json(),
                        SpoolLineBuilder.defaults()
                            .build(Json.write(end), now.plusMillis(1), "mcp", "mem-save")
                            .json()));
        }
        catch (IOException e) {
            return Answer.error("could not write to the spool in " + home.root() + ": " + e.getMessage());
        }
        Duration soon = graduateAfterSave.get();
        String when = soon != null
                ? "serve graduates it in about "
                        + (soon.toSeconds() < 120 ? soon.toSeconds() + " seconds" : soon.toMinutes() + " minutes")
                        + ", and it is searchable from then on"
                : served ? "it becomes searchable at serve's next graduation (its schedule: after 30 idle minutes and "
                        + "nightly by default); `java -jar jobs.jar --job=graduate` does it now"
                        : "it becomes searchable after the next graduation: `java -jar jobs.jar --job=graduate` now, "
                                + "or start `serve`, which graduates soon after a save, after 30 idle minutes "
                                + "and nightly";
        return new Answer("saved for project " + project + " as the user's words (event " + line.eventId() + "); "
                + when + ". Nothing else was changed.", false);
    }

}
