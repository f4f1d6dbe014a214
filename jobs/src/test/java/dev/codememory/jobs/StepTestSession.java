package dev.codememory.jobs;

import dev.codememory.capture.spool.Spool;
import dev.codememory.capture.spool.SpoolLineBuilder;
import dev.codememory.config.home.CodeMemoryHome;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * One session's hook events for an in-process step test, written to a home's spool as the
 * hook appends them: each event a minute after the one before.
 */
public final class StepTestSession {

    private final String session;

    private final String project;

    private final List<String> events = new ArrayList<>();

    private int toolUses;

    public StepTestSession(String session, String project) {
        this.session = session;
        this.project = project;
    }

    /** An event of this kind with these JSON members. */
    public StepTestSession event(String kind, String members) {
        events.add("{\"session_id\":\"" + session + "\",\"transcript_path\":\"/tmp/" + session + ".jsonl\",\"cwd\":\""
                + project + "\",\"hook_event_name\":\"" + kind + "\"," + members + ",\"timestamp\":\"@T\"}");
        return this;
    }

    /** A PostToolUse of this tool with its input and response JSON. */
    public StepTestSession tool(String name, String input, String response) {
        return event("PostToolUse", "\"tool_name\":\"" + name + "\",\"tool_input\":" + input + ",\"tool_response\":"
                + response + ",\"tool_use_id\":\"toolu_" + session + "_" + ++toolUses + "\"");
    }

    /** A prompt and the reply that answers it. */
    public StepTestSession turn(String prompt, String reply) {
        event("UserPromptSubmit", "\"prompt\":\"" + prompt + "\"");
        return event("Stop", "\"stop_hook_active\":false,\"last_assistant_message\":\"" + reply + "\"");
    }

    /** A commit Claude makes with a heredoc message, and git's answer. */
    public StepTestSession commit(String subject, String sha) {
        return tool("Bash", "{\"command\":\"git add -A && git commit -m \\\"$(cat <<'EOF'\\n" + subject
                + "\\n\\nCo-Authored-By: Claude <noreply@anthropic.com>\\nEOF\\n)\\\"\",\"description\":\"Commit\"}",
                "{\"stdout\":\"[main " + sha + "] " + subject + "\\n 2 files changed, 14 insertions(+), 3"
                        + " deletions(-)\",\"stderr\":\"\",\"interrupted\":false}");
    }

    /** A TodoWrite of these items, each {@link #todo}. */
    public StepTestSession todos(String... items) {
        return tool("TodoWrite", "{\"todos\":[" + String.join(",", items) + "]}", "{\"oldTodos\":[],\"newTodos\":[]}");
    }

    public static String todo(String id, String content, String status) {
        return "{\"id\":\"" + id + "\",\"content\":\"" + content + "\",\"status\":\"" + status
                + "\",\"priority\":\"high\"}";
    }

    /** The events, from SessionStart to these, then SessionEnd, appended to the spool. */
    public void spool(Path home, Instant start) throws IOException {
        List<String> all = new ArrayList<>();
        all.add(event("SessionStart", "\"source\":\"startup\"").events.remove(events.size() - 1));
        all.addAll(events);
        event("SessionEnd", "\"reason\":\"other\"");
        all.add(events.remove(events.size() - 1));
        SpoolLineBuilder builder = SpoolLineBuilder.defaults();
        Instant t = start;
        List<String> lines = new ArrayList<>();
        for (String json : all) {
            lines.add(builder.build(json.replace("@T", t.toString()), t, "hook", null).json());
            t = t.plusSeconds(60);
        }
        Spool.forHome(new CodeMemoryHome(home)).appendAll(lines);
    }

}
