package dev.codememory.processors.extract;

import dev.codememory.config.graduate.Observation;
import dev.codememory.config.graduate.SourceText;
import java.time.LocalDateTime;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.json.JsonMapper;

/**
 * Tool calls as Claude Code's hooks deliver them, for the structure extractors: TodoWrite
 * lists, task tools, Bash commits and failures, edits. Input and output texts are the
 * compact JSON the assembler stores.
 */
final class StructureFixture {

    static final String SESSION = "5e1d0c2a-77f3-4d0e-a1c9-0b3e2f4d5a6b";
    static final String PROJECT = "/home/dev/shop";

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private StructureFixture() {
    }

    static LocalDateTime at(String time) {
        return LocalDateTime.parse("2025-06-02T" + time);
    }

    /** One to-do item: content, status, priority, id. */
    static Map<String, String> item(String id, String content, String status, String priority) {
        Map<String, String> item = new java.util.LinkedHashMap<>();
        item.put("content", content);
        item.put("status", status);
        item.put("priority", priority);
        item.put("id", id);
        return item;
    }

    @SafeVarargs
    static Observation todoWrite(String id, String time, Map<String, String>... items) {
        String input = JSON.writeValueAsString(Map.of("todos", List.of(items)));
        return new Observation(id, SESSION, PROJECT, "TodoWrite", List.of(), null, false, null, null, at(time), input,
                "{\"oldTodos\":[],\"newTodos\":[]}");
    }

    static Observation bash(String id, String time, String command, String output, boolean failed) {
        String input = JSON.writeValueAsString(Map.of("command", command, "description", "run it"));
        return new Observation(id, SESSION, PROJECT, "Bash", List.of(), command, failed, failed ? output : null, null,
                at(time), input, output);
    }

    /** Claude Code's Bash response object, as compact JSON. */
    static String stdout(String text) {
        return JSON.writeValueAsString(new java.util.LinkedHashMap<>(Map.of("stdout", text, "stderr", "")));
    }

    static Observation edit(String id, String time, String file) {
        String input = JSON.writeValueAsString(Map.of("file_path", file, "old_string", "a", "new_string", "b"));
        return new Observation(id, SESSION, PROJECT, "Edit", List.of(file), null, false, null, null, at(time), input,
                "{\"filePath\":\"" + file + "\"}");
    }

    static Observation tool(String id, String time, String tool, Object input, Object output) {
        return new Observation(id, SESSION, PROJECT, tool, List.of(), null, false, null, null, at(time),
                JSON.writeValueAsString(input),
                output == null ? null : output instanceof String s ? s : JSON.writeValueAsString(output));
    }

    static SessionSlice slice(Observation... observations) {
        return new SessionSlice(SESSION, PROJECT, List.of(), List.of(observations));
    }

    /**
     * The text a quote's field names, for checking that each quote aligns with its
     * source.
     */
    static String source(List<Observation> observations, String eventId, String field) {
        for (Observation o : observations) {
            if (o.observationId().equals(eventId)) {
                return SourceText.TOOL_INPUT.equals(field) ? o.inputText() : o.outputText();
            }
        }
        return null;
    }

}
