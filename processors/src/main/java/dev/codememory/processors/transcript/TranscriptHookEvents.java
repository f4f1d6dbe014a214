package dev.codememory.processors.transcript;

import dev.codememory.config.transcript.TranscriptRecord;
import dev.codememory.processors.turns.Prompts;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The hook events Claude Code would have sent for the records of one transcript file, so
 * that past sessions enter memory exactly as captured ones do. For each session in the
 * file, in time order:
 * <ul>
 * <li>{@code SessionStart} ({@code source: startup}) at its first record;</li>
 * <li>{@code UserPromptSubmit} for each prompt the user typed: a user record whose text
 * is not a tool result, not meta, not a compaction summary and not text Claude Code wrote
 * itself ({@link Prompts#isClaudeCodeNotice}: a slash command's {@code <command-…>}
 * wrapper, a task notification, the {@code Caveat:} preamble of local commands …);</li>
 * <li>{@code PostToolUse} for each tool call joined to its result: the assistant's
 * {@code tool_use} block (name, input, id) and the user record's {@code tool_result} for
 * that id, whose response is the record's {@code toolUseResult} when present, else
 * {@code {content, is_error}};</li>
 * <li>{@code Stop} closing each prompt's turn (when the next prompt comes, or at the end)
 * with the turn's last assistant text as {@code last_assistant_message}, at the time of
 * the turn's last record;</li>
 * <li>{@code SessionEnd} ({@code reason: other}) at its last record.</li>
 * </ul>
 * Records of a subagent ({@code isSidechain}, inline in older versions, in
 * {@code subagents/agent-<id>.jsonl} in newer ones) become what a subagent's hooks send:
 * {@code PostToolUse} for its tool calls, with {@code agent_id}, and one
 * {@code SubagentStop} with its last text. A subagent is told apart by {@code agentId},
 * else by the first record of its thread ({@code parentUuid} chain).
 *
 * <p>
 * Every event carries the record's own {@code timestamp}, the session's first
 * {@code cwd}, the file as {@code transcript_path}, and an identity built from the
 * records' uuids (a prompt's uuid, a tool result's uuid and tool use id, a session's id),
 * so reading the same records again — the same file twice, or a resumed session's file
 * that repeats them under its new session id — yields the same events. The caller drops
 * records already read (by uuid) before handing a file over, so repeated records are also
 * not converted twice in one run.
 */
public final class TranscriptHookEvents {

    /**
     * One event to spool: its identity (see the class comment), where it came from
     * (file:line), the hook object.
     */
    public record Event(String identity, String origin, Map<String, Object> hook) {

        public Event {
            Objects.requireNonNull(identity, "identity");
            Objects.requireNonNull(origin, "origin");
            Objects.requireNonNull(hook, "hook");
        }

        public String hookEventName() {
            return (String) hook.get("hook_event_name");
        }
    }

    private TranscriptHookEvents() {
    }

    /**
     * The events for a file's records (already without records read before). Records
     * without {@code sessionId} or {@code timestamp} (summaries, snapshots) carry no
     * event and are ignored.
     * @param transcriptPath the file, as the events' {@code transcript_path}
     * @param parentTranscript for a subagent file, its session's transcript; otherwise
     * the file itself
     */
    public static List<Event> of(List<TranscriptRecord> records, String transcriptPath, String parentTranscript) {
        List<TranscriptRecord> timed = new ArrayList<>();
        for (TranscriptRecord r : records) {
            if (r.text("timestamp") != null && r.text("sessionId") != null) {
                timed.add(r);
            }
        }
        timed.sort(Comparator.comparing(r -> r.text("timestamp"))); // stable: file order
                                                                    // among equal times
        Map<String, List<TranscriptRecord>> main = new LinkedHashMap<>();
        Map<String, List<TranscriptRecord>> subagents = new LinkedHashMap<>();
        Map<String, String> rootOf = new HashMap<>();
        for (TranscriptRecord r : timed) {
            if (r.flag("isSidechain")) {
                subagents.computeIfAbsent(r.text("sessionId") + "\u0000" + agentKey(r, rootOf), k -> new ArrayList<>())
                    .add(r);
            }
            else {
                main.computeIfAbsent(r.text("sessionId"), k -> new ArrayList<>()).add(r);
            }
        }
        List<Event> events = new ArrayList<>();
        main.forEach((session, lines) -> session(events, session, lines, transcriptPath));
        subagents.forEach((key, lines) -> subagent(events, key.substring(key.indexOf('\u0000') + 1), lines,
                transcriptPath, parentTranscript));
        return events;
    }

    private static void session(List<Event> out, String sessionId, List<TranscriptRecord> lines, String path) {
        Map<String, Object> base = base(sessionId, path, firstCwd(lines));
        TranscriptRecord first = lines.get(0);
        TranscriptRecord last = lines.get(lines.size() - 1);
        out.add(event(path, first, "start/" + sessionId, base, "SessionStart", "source", "startup"));
        Map<String, Map<String, Object>> pending = new HashMap<>();
        Turn turn = null;
        for (TranscriptRecord r : lines) {
            String prompt = typedPrompt(r);
            if (prompt != null) {
                if (turn != null) {
                    out.add(turn.stop(path, base));
                }
                out.add(event(path, r, "prompt/" + r.text("uuid"), base, "UserPromptSubmit", "prompt", prompt));
                turn = new Turn(r);
                continue;
            }
            if (toolTraffic(out, r, pending, path, base, null, turn) != null && turn != null) {
                turn.seen(r);
            }
        }
        if (turn != null) {
            out.add(turn.stop(path, base));
        }
        out.add(event(path, last, "end/" + sessionId, base, "SessionEnd", "reason", "other"));
    }

    private static void subagent(List<Event> out, String agentKey, List<TranscriptRecord> lines, String path,
            String parentTranscript) {
        String sessionId = lines.get(0).text("sessionId");
        Map<String, Object> base = base(sessionId, parentTranscript, firstCwd(lines));
        Map<String, Map<String, Object>> pending = new HashMap<>();
        Turn turn = new Turn(lines.get(0));
        for (TranscriptRecord r : lines) {
            if (toolTraffic(out, r, pending, path, base, agentKey, turn) != null) {
                turn.seen(r);
            }
        }
        Map<String, Object> stop = new LinkedHashMap<>(base);
        stop.put("hook_event_name", "SubagentStop");
        stop.put("stop_hook_active", false);
        stop.put("agent_id", agentKey);
        stop.put("agent_transcript_path", path);
        stop.put("last_assistant_message", turn.lastText);
        stop.put("timestamp", turn.last.text("timestamp"));
        out.add(new Event("subagent-stop/" + sessionId + "/" + agentKey, origin(path, turn.last), stop));
    }

    /**
     * Reads an assistant record's text and tool calls, or a user record's tool results
     * (emitting a PostToolUse per result whose call was seen). Returns the record when it
     * belongs to the turn's traffic (assistant, or user records with a content list),
     * else null.
     */
    private static TranscriptRecord toolTraffic(List<Event> out, TranscriptRecord r,
            Map<String, Map<String, Object>> pending, String path, Map<String, Object> base, String agentId,
            Turn turn) {
        Map<?, ?> message = r.json().get("message") instanceof Map<?, ?> m ? m : Map.of();
        if (!(message.get("content") instanceof List<?> content)) {
            return null;
        }
        String type = r.text("type");
        if ("assistant".equals(type)) {
            for (Object o : content) {
                if (!(o instanceof Map<?, ?> block)) {
                    continue;
                }
                if ("text".equals(block.get("type")) && block.get("text") instanceof String text && !text.isBlank()) {
                    if (turn != null) {
                        turn.lastText = text;
                    }
                }
                else if ("tool_use".equals(block.get("type")) && block.get("id") instanceof String id) {
                    @SuppressWarnings("unchecked")
                    Map<String, Object> call = (Map<String, Object>) block;
                    pending.put(id, call);
                }
            }
            return r;
        }
        if (!"user".equals(type)) {
            return null;
        }
        for (Object o : content) {
            if (!(o instanceof Map<?, ?> block) || !"tool_result".equals(block.get("type"))
                    || !(block.get("tool_use_id") instanceof String id)) {
                continue;
            }
            Map<String, Object> call = pending.remove(id);
            if (call == null) {
                continue;
            }
            Object response = r.json().get("toolUseResult");
            if (response == null) {
                Map<String, Object> fallback = new LinkedHashMap<>();
                fallback.put("content", block.get("content"));
                fallback.put("is_error", block.get("is_error") instanceof Boolean b ? b : Boolean.FALSE);
                response = fallback;
            }
            Map<String, Object> hook = new LinkedHashMap<>(base);
            hook.put("hook_event_name", "PostToolUse");
            hook.put("tool_name", call.get("name"));
            hook.put("tool_input", call.get("input") != null ? call.get("input") : new LinkedHashMap<>());
            hook.put("tool_response", response);
            hook.put("tool_use_id", id);
            if (agentId != null) {
                hook.put("agent_id", agentId);
            }
            hook.put("timestamp", r.text("timestamp"));
            out.add(new Event("tool/" + r.text("uuid") + "/" + id, origin(path, r), hook));
        }
        return r;
    }

    /**
     * What a prompt's turn has seen so far: its last assistant text and its last record.
     */
    private static final class Turn {

        private final TranscriptRecord prompt;

        private TranscriptRecord last;

        private String lastText = "";

        Turn(TranscriptRecord prompt) {
            this.prompt = prompt;
            this.last = prompt;
        }

        void seen(TranscriptRecord r) {
            last = r;
        }

        Event stop(String path, Map<String, Object> base) {
            Map<String, Object> hook = new LinkedHashMap<>(base);
            hook.put("hook_event_name", "Stop");
            hook.put("stop_hook_active", false);
            hook.put("last_assistant_message", lastText);
            hook.put("timestamp", last.text("timestamp"));
            return new Event("stop/" + prompt.text("uuid"), origin(path, last), hook);
        }

    }

    /**
     * The prompt a user typed, stripped, or null when the record is not one (see the
     * class comment). Text blocks of a content list are joined with newlines.
     */
    static String typedPrompt(TranscriptRecord r) {
        if (!"user".equals(r.text("type")) || r.flag("isMeta") || r.flag("isSidechain") || r.flag("isCompactSummary")) {
            return null;
        }
        Object content = r.json().get("message") instanceof Map<?, ?> m ? m.get("content") : null;
        String text;
        if (content instanceof String s) {
            text = s;
        }
        else if (content instanceof List<?> blocks) {
            StringBuilder joined = new StringBuilder();
            boolean firstBlock = true;
            for (Object o : blocks) {
                if (o instanceof Map<?, ?> block) {
                    if ("tool_result".equals(block.get("type"))) {
                        return null;
                    }
                    if ("text".equals(block.get("type"))) {
                        if (!firstBlock) {
                            joined.append('\n');
                        }
                        joined.append(block.get("text") instanceof String t ? t : "");
                        firstBlock = false;
                    }
                }
            }
            text = joined.toString();
        }
        else {
            return null;
        }
        text = text.strip();
        return text.isEmpty() || Prompts.isClaudeCodeNotice(text) ? null : text;
    }

    private static String agentKey(TranscriptRecord r, Map<String, String> rootOf) {
        String agentId = r.text("agentId");
        if (agentId != null) {
            return agentId;
        }
        String uuid = r.text("uuid");
        String parent = r.text("parentUuid");
        String root = parent != null && rootOf.containsKey(parent) ? rootOf.get(parent) : uuid;
        if (root == null) {
            root = "unknown";
        }
        if (uuid != null) {
            rootOf.put(uuid, root);
        }
        return root;
    }

    private static String firstCwd(List<TranscriptRecord> lines) {
        for (TranscriptRecord r : lines) {
            if (r.text("cwd") != null && !r.text("cwd").isBlank()) {
                return r.text("cwd");
            }
        }
        return null;
    }

    private static Map<String, Object> base(String sessionId, String path, String cwd) {
        Map<String, Object> base = new LinkedHashMap<>();
        base.put("session_id", sessionId);
        base.put("transcript_path", path);
        if (cwd != null) {
            base.put("cwd", cwd);
        }
        return base;
    }

    private static Event event(String path, TranscriptRecord r, String identity, Map<String, Object> base, String name,
            String key, Object value) {
        Map<String, Object> hook = new LinkedHashMap<>(base);
        hook.put("hook_event_name", name);
        hook.put(key, value);
        hook.put("timestamp", r.text("timestamp"));
        return new Event(identity, origin(path, r), hook);
    }

    private static String origin(String path, TranscriptRecord r) {
        return path + ":" + r.line();
    }

}
