package dev.codememory.processors.transcript;

import static org.assertj.core.api.Assertions.assertThat;

import dev.codememory.config.json.Json;
import dev.codememory.config.transcript.TranscriptRecord;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Transcript records → the hook events Claude Code would have sent for them. */
class TranscriptHookEventsTests {

    private static final String PATH = "/home/dev/.claude/projects/-home-dev-shop/s-1.jsonl";

    @Test
    void aSessionBecomesStartPromptsToolCallsStopsAndEnd() {
        List<TranscriptRecord> records = records(
                "{\"type\":\"summary\",\"summary\":\"Checkout fix\",\"leafUuid\":\"u9\"}",
                user("u1", "2026-03-02T09:00:00Z", "\"Why do the checkout tests fail?\""),
                assistant("a1", "2026-03-02T09:00:05Z", "[{\"type\":\"text\",\"text\":\"Let me run them.\"}]"),
                assistant("a2", "2026-03-02T09:00:06Z",
                        "[{\"type\":\"tool_use\",\"id\":\"toolu_1\",\"name\":\"Bash\","
                                + "\"input\":{\"command\":\"./mvnw test\"}}]"),
                "{\"type\":\"user\",\"uuid\":\"r1\",\"sessionId\":\"s-1\",\"timestamp\":\"2026-03-02T09:00:30Z\","
                        + "\"cwd\":\"/home/dev/shop\",\"message\":{\"role\":\"user\",\"content\":[{\"type\":"
                        + "\"tool_result\",\"tool_use_id\":\"toolu_1\",\"content\":\"1 failure\"}]},"
                        + "\"toolUseResult\":{\"stdout\":\"1 failure\",\"stderr\":\"\",\"interrupted\":false}}",
                assistant("a3", "2026-03-02T09:00:40Z", "[{\"type\":\"text\",\"text\":\"The discount is ignored.\"}]"),
                // meta lines, slash commands and their output are not prompts
                "{\"type\":\"user\",\"uuid\":\"m1\",\"sessionId\":\"s-1\",\"timestamp\":\"2026-03-02T09:01:00Z\","
                        + "\"isMeta\":true,\"message\":{\"role\":\"user\",\"content\":\"Caveat: local commands\"}}",
                user("c1", "2026-03-02T09:01:01Z", "\"<command-name>/clear</command-name>\""),
                // nor is what Claude Code writes as if the user typed it
                user("n1", "2026-03-02T09:01:02Z",
                        "\"<task-notification>\\n<task-id>b1</task-id>\\n<status>completed</status>\\n"
                                + "</task-notification>\\nRead the output file to retrieve the result: /tmp/b1\""),
                user("i1", "2026-03-02T09:01:03Z", "[{\"type\":\"text\",\"text\":\"[Request interrupted by user]\"}]"),
                user("u2", "2026-03-02T09:02:00Z", "[{\"type\":\"text\",\"text\":\"  Fix it  \"}]"),
                assistant("a4", "2026-03-02T09:02:10Z",
                        "[{\"type\":\"tool_use\",\"id\":\"toolu_2\",\"name\":\"Edit\","
                                + "\"input\":{\"file_path\":\"/home/dev/shop/Checkout.java\"}}]"),
                "{\"type\":\"user\",\"uuid\":\"r2\",\"sessionId\":\"s-1\",\"timestamp\":\"2026-03-02T09:02:20Z\","
                        + "\"message\":{\"role\":\"user\",\"content\":[{\"type\":\"tool_result\",\"tool_use_id\":"
                        + "\"toolu_2\",\"content\":\"Error: file changed\",\"is_error\":true}]}}",
                // a result whose call was never seen is not an event
                "{\"type\":\"user\",\"uuid\":\"r3\",\"sessionId\":\"s-1\",\"timestamp\":\"2026-03-02T09:02:21Z\","
                        + "\"message\":{\"role\":\"user\",\"content\":[{\"type\":\"tool_result\",\"tool_use_id\":"
                        + "\"toolu_unknown\",\"content\":\"x\"}]}}");

        List<TranscriptHookEvents.Event> events = TranscriptHookEvents.of(records, PATH, PATH);

        assertThat(events).extracting(TranscriptHookEvents.Event::hookEventName)
            .containsExactly("SessionStart", "UserPromptSubmit", "PostToolUse", "Stop", "UserPromptSubmit",
                    "PostToolUse", "Stop", "SessionEnd");
        assertThat(events).extracting(TranscriptHookEvents.Event::identity)
            .containsExactly("start/s-1", "prompt/u1", "tool/r1/toolu_1", "stop/u1", "prompt/u2", "tool/r2/toolu_2",
                    "stop/u2", "end/s-1");
        assertThat(events).extracting(e -> e.hook().get("timestamp"))
            .containsExactly("2026-03-02T09:00:00Z", "2026-03-02T09:00:00Z", "2026-03-02T09:00:30Z",
                    "2026-03-02T09:01:03Z", // the interruption ends the turn
                    "2026-03-02T09:02:00Z", "2026-03-02T09:02:20Z", "2026-03-02T09:02:21Z", "2026-03-02T09:02:21Z");
        assertThat(events).allSatisfy(e -> {
            assertThat(e.hook()).containsEntry("session_id", "s-1")
                .containsEntry("transcript_path", PATH)
                .containsEntry("cwd", "/home/dev/shop");
            assertThat(e.origin()).startsWith(PATH + ":");
        });
        assertThat(events.get(0).hook()).containsEntry("source", "startup");
        assertThat(events.get(0).origin()).isEqualTo(PATH + ":2");
        assertThat(events.get(1).hook()).containsEntry("prompt", "Why do the checkout tests fail?");
        assertThat(Json.write(events.get(2).hook())).isEqualTo("{\"session_id\":\"s-1\",\"transcript_path\":\"" + PATH
                + "\",\"cwd\":\"/home/dev/shop\",\"hook_event_name\":\"PostToolUse\",\"tool_name\":\"Bash\","
                + "\"tool_input\":{\"command\":\"./mvnw test\"},\"tool_response\":{\"stdout\":\"1 failure\","
                + "\"stderr\":\"\",\"interrupted\":false},\"tool_use_id\":\"toolu_1\","
                + "\"timestamp\":\"2026-03-02T09:00:30Z\"}");
        assertThat(events.get(3).hook()).containsEntry("last_assistant_message", "The discount is ignored.")
            .containsEntry("stop_hook_active", false);
        assertThat(events.get(4).hook()).containsEntry("prompt", "Fix it");
        assertThat(Json.write(events.get(5).hook().get("tool_response")))
            .isEqualTo("{\"content\":\"Error: file changed\",\"is_error\":true}");
        assertThat(events.get(6).hook()).containsEntry("last_assistant_message", "");
        assertThat(events.get(7).hook()).containsEntry("reason", "other");
    }

    @Test
    void recordsAreTakenInTimeOrderAndEachSessionOfAFileGetsItsOwnEvents() {
        List<TranscriptRecord> records = records(user("u2", "2026-03-02T10:00:00Z", "\"second session\""),
                user("u1", "2026-03-02T09:00:00Z", "\"first\"").replace("\"s-1\"", "\"s-0\""));

        List<TranscriptHookEvents.Event> events = TranscriptHookEvents.of(records, PATH, PATH);

        assertThat(events).extracting(e -> e.hook().get("session_id") + " " + e.hookEventName())
            .containsExactly("s-0 SessionStart", "s-0 UserPromptSubmit", "s-0 Stop", "s-0 SessionEnd",
                    "s-1 SessionStart", "s-1 UserPromptSubmit", "s-1 Stop", "s-1 SessionEnd");
    }

    @Test
    void subagentRecordsBecomeItsToolCallsAndOneSubagentStop() {
        String sub = "/home/dev/.claude/projects/-home-dev-shop/s-1/subagents/agent-7.jsonl";
        List<TranscriptRecord> records = records(
                sidechain(user("q1", "2026-03-02T09:10:00Z", "\"Find every caller of applyDiscount\""), "agent-7"),
                sidechain(assistant("q2", "2026-03-02T09:10:02Z",
                        "[{\"type\":\"tool_use\",\"id\":\"toolu_9\","
                                + "\"name\":\"Grep\",\"input\":{\"pattern\":\"applyDiscount\"}}]"),
                        "agent-7"),
                sidechain(
                        "{\"type\":\"user\",\"uuid\":\"q3\",\"sessionId\":\"s-1\",\"timestamp\":"
                                + "\"2026-03-02T09:10:03Z\",\"message\":{\"role\":\"user\",\"content\":[{\"type\":"
                                + "\"tool_result\",\"tool_use_id\":\"toolu_9\",\"content\":\"Checkout.java:12\"}]}}",
                        "agent-7"),
                sidechain(assistant("q4", "2026-03-02T09:10:09Z",
                        "[{\"type\":\"text\",\"text\":\"One caller: Checkout.java line 12.\"}]"), "agent-7"));

        List<TranscriptHookEvents.Event> events = TranscriptHookEvents.of(records, sub, PATH);

        assertThat(events).extracting(TranscriptHookEvents.Event::identity)
            .containsExactly("tool/q3/toolu_9", "subagent-stop/s-1/agent-7");
        assertThat(events.get(0).hook()).containsEntry("hook_event_name", "PostToolUse")
            .containsEntry("tool_name", "Grep")
            .containsEntry("agent_id", "agent-7")
            .containsEntry("transcript_path", PATH);
        assertThat(events.get(1).hook()).containsEntry("hook_event_name", "SubagentStop")
            .containsEntry("agent_id", "agent-7")
            .containsEntry("agent_transcript_path", sub)
            .containsEntry("last_assistant_message", "One caller: Checkout.java line 12.")
            .containsEntry("timestamp", "2026-03-02T09:10:09Z");
    }

    @Test
    void inlineSidechainsWithoutAgentIdAreToldApartByTheirThread() {
        List<TranscriptRecord> records = records(user("u1", "2026-03-02T09:00:00Z", "\"Look into both\""),
                inline(user("x1", "2026-03-02T09:00:01Z", "\"task one\""), null),
                inline(user("y1", "2026-03-02T09:00:02Z", "\"task two\""), null),
                inline(assistant("x2", "2026-03-02T09:00:03Z", "[{\"type\":\"text\",\"text\":\"one done\"}]"), "x1"),
                inline(assistant("y2", "2026-03-02T09:00:04Z", "[{\"type\":\"text\",\"text\":\"two done\"}]"), "y1"));

        List<TranscriptHookEvents.Event> events = TranscriptHookEvents.of(records, PATH, PATH);

        assertThat(events)
            .extracting(e -> e.hookEventName() + " " + e.hook().getOrDefault("last_assistant_message", ""))
            .containsExactly("SessionStart ", "UserPromptSubmit ", "Stop ", "SessionEnd ", "SubagentStop one done",
                    "SubagentStop two done");
    }

    private static String user(String uuid, String ts, String content) {
        return "{\"type\":\"user\",\"uuid\":\"" + uuid + "\",\"sessionId\":\"s-1\",\"timestamp\":\"" + ts
                + "\",\"cwd\":\"/home/dev/shop\",\"message\":{\"role\":\"user\",\"content\":" + content + "}}";
    }

    private static String assistant(String uuid, String ts, String content) {
        return "{\"type\":\"assistant\",\"uuid\":\"" + uuid + "\",\"sessionId\":\"s-1\",\"timestamp\":\"" + ts
                + "\",\"message\":{\"role\":\"assistant\",\"content\":" + content + "}}";
    }

    private static String sidechain(String record, String agentId) {
        return record.replaceFirst("^\\{", "{\"isSidechain\":true,\"agentId\":\"" + agentId + "\",");
    }

    private static String inline(String record, String parent) {
        return record.replaceFirst("^\\{",
                "{\"isSidechain\":true,\"parentUuid\":" + (parent == null ? "null" : "\"" + parent + "\"") + ",");
    }

    @SuppressWarnings("unchecked")
    private static List<TranscriptRecord> records(String... lines) {
        List<TranscriptRecord> records = new ArrayList<>();
        for (int i = 0; i < lines.length; i++) {
            records.add(new TranscriptRecord(i + 1, (Map<String, Object>) Json.parse(lines[i])));
        }
        return records;
    }

}
