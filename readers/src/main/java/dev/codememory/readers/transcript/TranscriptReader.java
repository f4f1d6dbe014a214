package dev.codememory.readers.transcript;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.UnaryOperator;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Reads a Claude Code transcript
 * ({@code ~/.claude/projects/<encoded-cwd>/<session>.jsonl}) for what the hooks did not
 * carry: the assistant's reply text when Stop had no {@code last_assistant_message}, and
 * the git branch. The same {@code uuid} can appear several times in one file: lines are
 * de-duplicated on {@code (sessionId, uuid)}, the last one winning, in first-seen order.
 * Unreadable lines are skipped.
 *
 * <p>
 * A transcript is plain text that Claude Code wrote and no hook redacted:
 * {@code <private>} sections and secrets are in it verbatim. The reader therefore has no
 * constructor without a redaction: every message text and branch name passes through it
 * before a {@link Message} is made, so nothing this reader returns holds unredacted text
 * (jobs passes the privacy redactor, which this module cannot name). Prompts are matched
 * on redacted text too, which is the form in which the hook stored them.
 */
public class TranscriptReader {

    private static final long MAX_BYTES = 256L * 1024 * 1024;

    private final JsonMapper mapper = JsonMapper.builder().build();

    private final UnaryOperator<String> redaction;

    /**
     * @param redaction applied to every text read from the file before it is returned
     */
    public TranscriptReader(UnaryOperator<String> redaction) {
        this.redaction = Objects.requireNonNull(redaction, "redaction");
    }

    /**
     * One user or assistant message with its plain text (tool results, thinking and
     * images left out); {@code text} and {@code gitBranch} have passed the reader's
     * redaction.
     */
    public record Message(String uuid, String role, String text, String timestamp, String gitBranch) {
    }

    /**
     * The transcript's messages in order, or an empty list when the file is missing,
     * unreadable, not a regular file ({@link TranscriptFile}) or over {@value #MAX_BYTES}
     * bytes.
     */
    public List<Message> read(Path transcript) {
        if (transcript == null || !Files.isRegularFile(transcript)) {
            return List.of();
        }
        Map<String, Message> byKey = new LinkedHashMap<>();
        try {
            if (Files.size(transcript) > MAX_BYTES) {
                return List.of();
            }
            try (BufferedReader in = new BufferedReader(
                    new InputStreamReader(TranscriptFile.open(transcript), StandardCharsets.UTF_8.newDecoder()))) {
                String line;
                int anonymous = 0;
                while ((line = in.readLine()) != null) {
                    Message m = parse(line);
                    if (m != null) {
                        String key = m.uuid() == null ? "#" + anonymous++ : sessionOf(line) + "/" + m.uuid();
                        byKey.remove(key);
                        byKey.put(key, m);
                    }
                }
            }
        }
        catch (IOException | RuntimeException e) {
            return List.of();
        }
        return new ArrayList<>(byKey.values());
    }

    /**
     * The reply to {@code prompt}: the assistant text after the last user message whose
     * text equals the prompt, up to the next user message with text. Null when the prompt
     * is not found or nothing was said.
     */
    public static String replyTo(List<Message> messages, String prompt) {
        int start = -1;
        for (int i = messages.size() - 1; i >= 0; i--) {
            Message m = messages.get(i);
            if ("user".equals(m.role()) && m.text().strip().equals(prompt.strip())) {
                start = i;
                break;
            }
        }
        if (start < 0) {
            return null;
        }
        StringBuilder reply = new StringBuilder();
        for (int i = start + 1; i < messages.size(); i++) {
            Message m = messages.get(i);
            if ("user".equals(m.role())) {
                break;
            }
            if (!m.text().isBlank()) {
                if (reply.length() > 0) {
                    reply.append("\n\n");
                }
                reply.append(m.text());
            }
        }
        return reply.length() == 0 ? null : reply.toString();
    }

    /**
     * The last git branch named in the final {@code tailBytes} of the transcript file,
     * unredacted; null when it names none there, or the file cannot be read or is not a
     * regular file (a FIFO is never opened: {@link TranscriptFile}). Reads only that
     * tail, so it costs the same for a transcript of any length (a session start asks).
     */
    public static String branchInTail(Path transcript, int tailBytes) {
        try {
            String tail = new String(TranscriptFile.tail(transcript, tailBytes), StandardCharsets.UTF_8);
            Matcher m = BRANCH.matcher(tail);
            String last = null;
            while (m.find()) {
                last = m.group(1);
            }
            if (last == null || last.isBlank()) {
                return null;
            }
            JsonNode unescaped = JSON.readTree("\"" + last + "\"");
            return unescaped.asString(null);
        }
        catch (IOException | RuntimeException e) {
            return null;
        }
    }

    private static final JsonMapper JSON = JsonMapper.builder().build();

    /** A {@code gitBranch} member of a transcript line, its JSON string still escaped. */
    private static final Pattern BRANCH = Pattern.compile("\"gitBranch\"\\s*:\\s*\"((?:[^\"\\\\]|\\\\.){1,500})\"");

    /** The last git branch the transcript names, or null. */
    public static String branch(List<Message> messages) {
        for (int i = messages.size() - 1; i >= 0; i--) {
            if (messages.get(i).gitBranch() != null && !messages.get(i).gitBranch().isBlank()) {
                return messages.get(i).gitBranch();
            }
        }
        return null;
    }

    private Message parse(String line) {
        JsonNode node;
        try {
            node = mapper.readTree(line);
        }
        catch (JacksonException e) {
            return null;
        }
        if (node == null || !node.isObject()) {
            return null;
        }
        String type = node.path("type").asString("");
        if (!type.equals("user") && !type.equals("assistant")) {
            return null;
        }
        if (node.path("isMeta").asBoolean(false)) {
            return null;
        }
        JsonNode content = node.path("message").path("content");
        StringBuilder text = new StringBuilder();
        if (content.isString()) {
            text.append(content.asString());
        }
        else if (content.isArray()) {
            for (JsonNode block : content) {
                if ("text".equals(block.path("type").asString(""))) {
                    if (text.length() > 0) {
                        text.append("\n");
                    }
                    text.append(block.path("text").asString(""));
                }
            }
        }
        String branch = textOrNull(node, "gitBranch");
        return new Message(textOrNull(node, "uuid"), type, redaction.apply(text.toString()),
                textOrNull(node, "timestamp"), branch == null ? null : redaction.apply(branch));
    }

    private static String sessionOf(String line) {
        int i = line.indexOf("\"sessionId\":\"");
        if (i < 0) {
            return "";
        }
        int start = i + 13;
        int end = line.indexOf('"', start);
        return end < 0 ? "" : line.substring(start, end);
    }

    private static String textOrNull(JsonNode node, String field) {
        JsonNode v = node.get(field);
        return v != null && v.isString() ? v.asString() : null;
    }

}
