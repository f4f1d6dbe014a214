package dev.codememory.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import dev.codememory.config.json.Json;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Claude Code hook events of one project as the integration tests write them (one JSON
 * line each, with a {@code timestamp} that {@code import --hooks} takes as the event
 * time), and the hook run on one of them.
 */
final class HookEvents {

    private static final Map<String, String> ROOMY_BUDGET = Map.of("CODE_MEMORY_CONTEXT_BUDGET_MS", "60000");

    private final Path project;

    HookEvents(Path project) {
        this.project = project;
    }

    /** An event with one field of its own besides the session, project and name. */
    String event(String session, String ts, String name, String key, Object value) {
        Map<String, Object> e = new LinkedHashMap<>();
        e.put("session_id", session);
        e.put("cwd", project.toString());
        e.put("hook_event_name", name);
        e.put(key, value);
        e.put("timestamp", ts);
        return Json.write(e);
    }

    /** A PostToolUse event. */
    String tool(String session, String ts, String tool, Map<String, Object> input, Object response) {
        Map<String, Object> e = new LinkedHashMap<>();
        e.put("session_id", session);
        e.put("cwd", project.toString());
        e.put("hook_event_name", "PostToolUse");
        e.put("tool_name", tool);
        e.put("tool_input", input);
        e.put("tool_response", response);
        e.put("timestamp", ts);
        return Json.write(e);
    }

    /** A TodoWrite of these {content, status} items, as Claude Code records it. */
    String todo(String session, String ts, String[][] items) {
        List<Object> todos = new ArrayList<>();
        for (String[] item : items) {
            Map<String, Object> todo = new LinkedHashMap<>();
            todo.put("content", item[0]);
            todo.put("status", item[1]);
            todo.put("activeForm", item[0]);
            todos.add(todo);
        }
        return tool(session, ts, "TodoWrite", Map.of("todos", todos), Map.of("oldTodos", List.of()));
    }

    /** A Bash call's response as Claude Code records it. */
    static Map<String, Object> bashOut(String stdout, String stderr) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("stdout", stdout);
        out.put("stderr", stderr);
        out.put("interrupted", false);
        out.put("isImage", false);
        return out;
    }

    /**
     * The hook run on {@code event} in {@code home}, with a budget no test machine
     * misses.
     */
    static JobsJar.Result hook(Path home, Map<String, Object> event) throws Exception {
        JobsJar.Result hook = JobsJar.run(home, ROOMY_BUDGET, JobsJar.utf8(Json.write(event)), "hook");
        assertThat(hook.exit()).isZero();
        return hook;
    }

    /** The {@code additionalContext} the hook printed. */
    static String contextOf(JobsJar.Result hook) {
        assertThat(hook.stdout()).as(hook.stderr()).isNotEmpty();
        Map<?, ?> specific = (Map<?, ?>) ((Map<?, ?>) Json.parse(hook.stdout())).get("hookSpecificOutput");
        return (String) specific.get("additionalContext");
    }

}
