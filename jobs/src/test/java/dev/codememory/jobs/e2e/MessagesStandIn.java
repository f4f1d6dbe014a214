package dev.codememory.jobs.e2e;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.codememory.config.json.Json;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A scripted stand-in for the Anthropic Messages API on 127.0.0.1, for driving the real
 * Claude Code CLI in tests.
 * <p>
 * The model's part is a list of {@link Conversation}s. A request belongs to the
 * conversation whose prompt is the text of its first user message (Claude Code's own
 * context arrives in blocks of that message before it); the answer is the conversation's
 * next turn, counted by the assistant messages the request already holds, so a retried
 * request gets the same answer. A turn is text and {@code tool_use} blocks: Claude Code
 * runs the tools for real and sends their results back. Every other request — a title to
 * generate, a slash command's expansion, a conversation past its last turn — is answered
 * with a short text, and a request to summarise the conversation with a summary.
 * Streaming requests are answered as server-sent events, the others as one JSON message;
 * every request body is kept for the test to read.
 */
public final class MessagesStandIn implements AutoCloseable {

    /** What a request for anything but a scripted conversation is answered with. */
    public static final String SIDE_ANSWER = "Noted.";

    /**
     * What a request to summarise the conversation ({@code /compact}) is answered with.
     */
    public static final String COMPACT_SUMMARY = "<summary>The conversation so far, as the stand-in sums it up."
            + "</summary>";

    private final HttpServer server;

    private final List<Conversation> conversations = new CopyOnWriteArrayList<>();

    private final List<Request> requests = new CopyOnWriteArrayList<>();

    private final AtomicInteger ids = new AtomicInteger();

    /** One request as it arrived: method, path and body. */
    public record Request(String method, String path, String body) {

        /** The body as JSON (objects are maps). */
        public Map<String, Object> json() {
            return asMap(Json.parse(this.body));
        }

        public boolean isMessages() {
            return "POST".equals(this.method) && "/v1/messages".equals(this.path);
        }

    }

    /**
     * The model's side of one conversation: its user prompt and the turns it answers
     * with, in order.
     */
    public record Conversation(String prompt, List<Turn> turns) {

        public static Conversation of(String prompt, Turn... turns) {
            return new Conversation(prompt, List.of(turns));
        }

    }

    /** One assistant message: text and tool calls. */
    public record Turn(List<Block> blocks) {

        public static Turn text(String text) {
            return new Turn(List.of(new Text(text)));
        }

        public static Turn tool(String name, Map<String, Object> input) {
            return new Turn(List.of(new ToolUse(name, input)));
        }

        boolean callsTools() {
            return this.blocks.stream().anyMatch(ToolUse.class::isInstance);
        }

    }

    /** A content block of a turn. */
    public sealed interface Block permits Text, ToolUse {

    }

    public record Text(String text) implements Block {

    }

    public record ToolUse(String name, Map<String, Object> input) implements Block {

    }

    private MessagesStandIn(HttpServer server) {
        this.server = server;
    }

    public static MessagesStandIn start() throws IOException {
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        MessagesStandIn standIn = new MessagesStandIn(server);
        server.createContext("/", standIn::handle);
        server.setExecutor(Executors.newCachedThreadPool());
        server.start();
        return standIn;
    }

    /**
     * How a request without tools (a side call: a title, a one-shot question such as the
     * distiller's) is answered instead of {@link #SIDE_ANSWER}: status 200 answers with
     * the text, after the delay; another status answers with an API error of that status.
     * Null from the answerer: the usual side answer.
     */
    public record SideReply(int status, String text, long delayMillis) {

        public static SideReply text(String text) {
            return new SideReply(200, text, 0);
        }

    }

    private volatile java.util.function.Function<Map<String, Object>, SideReply> sideAnswers = request -> null;

    /**
     * Answers requests without tools with what {@code answerer} returns for their body.
     */
    public void answerSideRequests(java.util.function.Function<Map<String, Object>, SideReply> answerer) {
        this.sideAnswers = answerer;
    }

    /** Adds a conversation the model will hold when a request brings its prompt. */
    public void script(Conversation conversation) {
        this.conversations.add(conversation);
    }

    public String baseUrl() {
        return "http://127.0.0.1:" + this.server.getAddress().getPort();
    }

    /** Every request received so far, in order. */
    public List<Request> requests() {
        return List.copyOf(this.requests);
    }

    /**
     * Every {@code POST /v1/messages} body received so far, parsed, in order.
     */
    public List<Map<String, Object>> messages() {
        return this.requests.stream().filter(Request::isMessages).map(Request::json).toList();
    }

    /**
     * Every text the model has been sent so far — the system prompt's blocks and the text
     * of every message, Claude Code's own included — in order of arrival, each once.
     */
    public List<String> textsSent() {
        Set<String> texts = new LinkedHashSet<>();
        for (Map<String, Object> request : messages()) {
            texts.addAll(texts(Map.of("content", request.getOrDefault("system", List.of()))));
            for (Object message : asList(request.get("messages"))) {
                texts.addAll(texts(asMap(message)));
            }
        }
        return List.copyOf(texts);
    }

    /** Forgets the requests received so far. */
    public void clear() {
        this.requests.clear();
    }

    @Override
    public void close() {
        this.server.stop(0);
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
            String path = exchange.getRequestURI().getPath();
            Request request = new Request(exchange.getRequestMethod(), path, body);
            this.requests.add(request);
            if (request.isMessages()) {
                Map<String, Object> json = request.json();
                Object tools = json.get("tools");
                SideReply side = tools == null || (tools instanceof List<?> list && list.isEmpty())
                        ? this.sideAnswers.apply(json) : null;
                if (side != null && side.delayMillis() > 0) {
                    try {
                        Thread.sleep(side.delayMillis());
                    }
                    catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }
                if (side != null && side.status() != 200) {
                    send(exchange, side.status(), "application/json", "{\"type\":\"error\",\"error\":{\"type\":"
                            + "\"rate_limit_error\",\"message\":\"stand-in: " + side.status() + "\"}}");
                    return;
                }
                Turn turn = side != null ? Turn.text(side.text()) : answer(json);
                String model = String.valueOf(json.getOrDefault("model", "claude-stand-in"));
                if (Boolean.TRUE.equals(json.get("stream"))) {
                    stream(exchange, model, turn);
                }
                else {
                    send(exchange, 200, "application/json", Json.write(message(model, turn, true)));
                }
            }
            else if (path.equals("/v1/messages/count_tokens")) {
                send(exchange, 200, "application/json", "{\"input_tokens\":1000}");
            }
            else if (path.startsWith("/v1/models")) {
                send(exchange, 200, "application/json", """
                        {"data":[{"type":"model","id":"claude-sonnet-4-5","display_name":"Claude Sonnet 4.5",\
                        "created_at":"2025-09-29T00:00:00Z"}],"has_more":false,"first_id":"claude-sonnet-4-5",\
                        "last_id":"claude-sonnet-4-5"}""");
            }
            else {
                send(exchange, 404, "application/json",
                        "{\"type\":\"error\",\"error\":{\"type\":\"not_found_error\",\"message\":\"stand-in\"}}");
            }
        }
    }

    private Turn answer(Map<String, Object> request) {
        List<Object> messages = asList(request.get("messages"));
        if (request.get("tools") == null || messages.isEmpty()) {
            return Turn.text(SIDE_ANSWER);
        }
        List<String> last = texts(asMap(messages.get(messages.size() - 1)));
        if (!last.isEmpty() && last.get(last.size() - 1).contains("<summary>")) {
            return Turn.text(COMPACT_SUMMARY); // Claude Code compacting the conversation
        }
        List<String> opening = texts(asMap(messages.get(0)));
        String prompt = opening.isEmpty() ? "" : opening.get(opening.size() - 1).strip();
        long answered = messages.stream().filter(m -> "assistant".equals(asMap(m).get("role"))).count();
        for (Conversation conversation : this.conversations) {
            if (conversation.prompt().equals(prompt) && answered < conversation.turns().size()) {
                return conversation.turns().get((int) answered);
            }
        }
        return Turn.text(SIDE_ANSWER);
    }

    private Map<String, Object> message(String model, Turn turn, boolean withContent) {
        List<Object> content = new ArrayList<>();
        if (withContent) {
            for (Block block : turn.blocks()) {
                content.add(contentBlock(block, true));
            }
        }
        Map<String, Object> message = new LinkedHashMap<>();
        message.put("id", "msg_standin_" + this.ids.incrementAndGet());
        message.put("type", "message");
        message.put("role", "assistant");
        message.put("model", model);
        message.put("content", content);
        message.put("stop_reason", withContent ? stopReason(turn) : null);
        message.put("stop_sequence", null);
        message.put("usage", Map.of("input_tokens", 100, "output_tokens", withContent ? 20 : 1));
        return message;
    }

    private Map<String, Object> contentBlock(Block block, boolean filled) {
        Map<String, Object> out = new LinkedHashMap<>();
        if (block instanceof Text text) {
            out.put("type", "text");
            out.put("text", filled ? text.text() : "");
        }
        else if (block instanceof ToolUse tool) {
            out.put("type", "tool_use");
            out.put("id", "toolu_standin_" + this.ids.incrementAndGet());
            out.put("name", tool.name());
            out.put("input", filled ? tool.input() : Map.of());
        }
        return out;
    }

    private static String stopReason(Turn turn) {
        return turn.callsTools() ? "tool_use" : "end_turn";
    }

    /**
     * The turn as the streaming API sends it: each block opened empty, filled by one
     * delta, closed.
     */
    private void stream(HttpExchange exchange, String model, Turn turn) throws IOException {
        exchange.getResponseHeaders().set("Content-Type", "text/event-stream");
        exchange.getResponseHeaders().set("Cache-Control", "no-cache");
        exchange.sendResponseHeaders(200, 0);
        OutputStream out = exchange.getResponseBody();
        event(out, "message_start", Map.of("type", "message_start", "message", message(model, turn, false)));
        for (int index = 0; index < turn.blocks().size(); index++) {
            Block block = turn.blocks().get(index);
            event(out, "content_block_start",
                    Map.of("type", "content_block_start", "index", index, "content_block", contentBlock(block, false)));
            Map<String, Object> delta = (block instanceof Text text) ? Map.of("type", "text_delta", "text", text.text())
                    : Map.of("type", "input_json_delta", "partial_json", Json.write(((ToolUse) block).input()));
            event(out, "content_block_delta", Map.of("type", "content_block_delta", "index", index, "delta", delta));
            event(out, "content_block_stop", Map.of("type", "content_block_stop", "index", index));
        }
        Map<String, Object> stop = new LinkedHashMap<>();
        stop.put("stop_reason", stopReason(turn));
        stop.put("stop_sequence", null);
        event(out, "message_delta",
                Map.of("type", "message_delta", "delta", stop, "usage", Map.of("output_tokens", 20)));
        event(out, "message_stop", Map.of("type", "message_stop"));
    }

    private static void event(OutputStream out, String name, Map<String, Object> data) throws IOException {
        out.write(("event: " + name + "\ndata: " + Json.write(data) + "\n\n").getBytes(StandardCharsets.UTF_8));
        out.flush();
    }

    private static void send(HttpExchange exchange, int status, String type, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", type);
        exchange.sendResponseHeaders(status, bytes.length);
        exchange.getResponseBody().write(bytes);
    }

    /** The text of a message: its string content, or each of its text blocks. */
    public static List<String> texts(Map<String, Object> message) {
        Object content = message.get("content");
        if (content instanceof String s) {
            return List.of(s);
        }
        List<String> texts = new ArrayList<>();
        for (Object block : asList(content)) {
            Map<String, Object> b = asMap(block);
            if ("text".equals(b.get("type"))) {
                texts.add(String.valueOf(b.get("text")));
            }
        }
        return texts;
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> asMap(Object value) {
        return value instanceof Map<?, ?> ? (Map<String, Object>) value : Map.of();
    }

    @SuppressWarnings("unchecked")
    static List<Object> asList(Object value) {
        return value instanceof List<?> ? (List<Object>) value : List.of();
    }

}
