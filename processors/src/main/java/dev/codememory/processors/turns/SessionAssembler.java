package dev.codememory.processors.turns;

import dev.codememory.capture.privacy.RedactedText;
import dev.codememory.config.graduate.AssembledSession;
import dev.codememory.config.graduate.Observation;
import dev.codememory.config.graduate.SessionInfo;
import dev.codememory.config.graduate.SourceText;
import dev.codememory.config.graduate.StoredEvent;
import dev.codememory.config.graduate.Turn;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Pairs a session's events into turns and observations. A prompt is answered by the next
 * Stop (text Claude Code sent as a prompt, such as a task notification, is no prompt:
 * {@link Prompts#isClaudeCodeNotice}; it neither opens nor closes a turn): its
 * {@code last_assistant_message}, or, when absent (older Claude Code), the reply read
 * from the transcript at {@code transcript_path}. A Stop with no open prompt (a session
 * the assistant opened, or a second message) is a turn of its own with an empty prompt.
 * PostToolUse and PostToolUseFailure events become observations (a string response
 * starting {@code Error:} is a failure, unless it says the user refused or interrupted
 * the call; a PostToolUseFailure's {@code error} is its response text), and so do
 * TaskCreated and TaskCompleted events.
 *
 * <p>
 * Event payloads were redacted by the hook before they reached the spool; what the
 * transcript adds (a reply, the branch) arrives as {@link RedactedText}, so every text in
 * an assembled session has passed the redactor.
 */
public class SessionAssembler {

    private final JsonMapper mapper = JsonMapper.builder().build();

    private final TranscriptSource transcripts;

    public SessionAssembler(TranscriptSource transcripts) {
        this.transcripts = transcripts;
    }

    /**
     * @param events one session's events in seq order (at least one)
     */
    public AssembledSession assemble(List<StoredEvent> events) {
        if (events.isEmpty()) {
            throw new IllegalArgumentException("a session has at least one event");
        }
        StoredEvent first = events.get(0);
        List<Turn> turns = new ArrayList<>();
        List<Observation> observations = new ArrayList<>();
        OpenPrompt open = null;
        LocalDateTime started = first.ts();
        LocalDateTime ended = null;
        String endReason = null;
        String transcriptPath = null;
        int prompts = 0;
        for (StoredEvent e : events) {
            JsonNode payload = parse(e.payloadJson());
            if (e.ts().isBefore(started)) {
                started = e.ts();
            }
            String path = payload.path("transcript_path").asString(null);
            if (path != null && !path.isBlank()) {
                transcriptPath = path;
            }
            switch (e.eventType()) {
                case "UserPromptSubmit" -> {
                    // Claude Code's own text (a task notification): an event of the
                    // session, not a prompt
                    String prompt = payload.path("prompt").asString("");
                    if (!Prompts.isClaudeCodeNotice(prompt)) {
                        if (open != null) {
                            turns.add(open.unanswered());
                        }
                        open = new OpenPrompt(e, prompt, path);
                        prompts++;
                    }
                }
                case "Stop" -> {
                    String reply = payload.path("last_assistant_message").asString(null);
                    String source = "stop";
                    if ((reply == null || reply.isBlank()) && open != null && path != null) {
                        reply = text(transcripts.replyTo(path, open.prompt));
                        source = "transcript";
                    }
                    if (reply == null || reply.isBlank()) {
                        reply = null;
                        source = null;
                    }
                    if (open != null) {
                        turns.add(open.answered(e, reply, source));
                        open = null;
                    }
                    else if (reply != null) {
                        turns.add(new Turn(turnId(e.eventId()), sessionId(e), e.project(), e.eventId(), "", e.eventId(),
                                reply, source, e.ts(), e.ts()));
                    }
                }
                case "PostToolUse", "PostToolUseFailure" -> observations.add(observation(e, payload));
                case "TaskCreated", "TaskCompleted" -> observations.add(taskEvent(e, payload));
                case "SessionEnd" -> {
                    ended = e.ts();
                    endReason = payload.path("reason").asString(null);
                }
                default -> {
                    // SessionStart, SubagentStop, PreCompact, notifications: part of the
                    // session's span only
                }
            }
        }
        if (open != null) {
            turns.add(open.unanswered());
        }
        StoredEvent last = events.get(events.size() - 1);
        String branch = transcriptPath == null ? null : text(transcripts.branch(transcriptPath));
        SessionInfo session = new SessionInfo(sessionId(first), first.project(), started, ended, endReason, branch,
                first.seq(), last.seq(), prompts, observations.size());
        return new AssembledSession(session, turns, observations);
    }

    private Observation observation(StoredEvent e, JsonNode payload) {
        JsonNode input = payload.path("tool_input");
        JsonNode response = payload.path("tool_response");
        String tool = payload.path("tool_name").asString("unknown");
        Set<String> files = new LinkedHashSet<>();
        for (String field : new String[] { "file_path", "path", "notebook_path" }) {
            String f = input.path(field).asString(null);
            if (f != null && !f.isBlank()) {
                files.add(f);
            }
        }
        String responseFile = response.path("filePath").asString(null);
        if (responseFile != null && !responseFile.isBlank()) {
            files.add(responseFile);
        }
        String command = input.path("command").asString(null);
        boolean failed = "PostToolUseFailure".equals(e.eventType())
                || response.isString() && ToolOutcomes.failedText(response.asString())
                || response.path("is_error").asBoolean(false) || response.path("interrupted").asBoolean(false)
                || (response.has("exit_code") && response.path("exit_code").asInt(0) != 0)
                || (response.has("exitCode") && response.path("exitCode").asInt(0) != 0)
                || (response.has("success") && !response.path("success").asBoolean(true)) || payload.has("error");
        String errorText = null;
        if (failed) {
            errorText = firstText(payload.path("error"), response.path("stderr"), response.path("error"),
                    response.isString() ? response : null);
        }
        Long duration = payload.has("duration_ms") && payload.path("duration_ms").canConvertToLong()
                ? payload.path("duration_ms").asLong() : null;
        String output = SourceTexts.of(payload, SourceText.TOOL_RESPONSE);
        if (output == null && payload.path("error").isString()) {
            output = payload.path("error").asString();
        }
        return new Observation(e.eventId(), sessionId(e), e.project(), tool, List.copyOf(files), command, failed,
                errorText, duration, e.ts(), SourceTexts.of(payload, SourceText.TOOL_INPUT), output);
    }

    /**
     * A TaskCreated or TaskCompleted hook event as an observation of that name, so the
     * task it names is read with the task tools: its {@code tool_input} text is the
     * compact JSON of the event's {@code task_…} fields.
     */
    private Observation taskEvent(StoredEvent e, JsonNode payload) {
        var fields = mapper.createObjectNode();
        payload.properties().forEach(p -> {
            if (p.getKey().startsWith("task_")) {
                fields.set(p.getKey(), p.getValue());
            }
        });
        return new Observation(e.eventId(), sessionId(e), e.project(), e.eventType(), List.of(), null, false, null,
                null, e.ts(), mapper.writeValueAsString(fields), null);
    }

    private static String text(RedactedText redacted) {
        return redacted == null ? null : redacted.text();
    }

    private static String firstText(JsonNode... nodes) {
        for (JsonNode n : nodes) {
            if (n != null && n.isString() && !n.asString().isBlank()) {
                return n.asString();
            }
        }
        return null;
    }

    private JsonNode parse(String json) {
        try {
            return mapper.readTree(json);
        }
        catch (JacksonException e) {
            return mapper.createObjectNode();
        }
    }

    private static String sessionId(StoredEvent e) {
        return e.sessionId() == null ? "(none)" : e.sessionId();
    }

    static String turnId(String eventId) {
        return "turn_" + eventId.substring(eventId.indexOf('_') + 1);
    }

    private static final class OpenPrompt {

        private final StoredEvent event;

        private final String prompt;

        OpenPrompt(StoredEvent event, String prompt, String transcriptPath) {
            this.event = event;
            this.prompt = prompt;
        }

        Turn unanswered() {
            return new Turn(turnId(event.eventId()), sessionId(event), event.project(), event.eventId(), prompt, null,
                    null, null, event.ts(), null);
        }

        Turn answered(StoredEvent stop, String reply, String source) {
            return new Turn(turnId(event.eventId()), sessionId(event), event.project(), event.eventId(), prompt,
                    reply == null ? null : stop.eventId(), reply, source, event.ts(), stop.ts());
        }

    }

}
