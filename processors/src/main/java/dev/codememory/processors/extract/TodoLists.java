package dev.codememory.processors.extract;

import dev.codememory.config.graduate.CandidateKind;
import dev.codememory.config.graduate.Observation;
import dev.codememory.config.graduate.Quote;
import dev.codememory.config.graduate.SourceText;
import dev.codememory.config.graduate.TaskFields;
import dev.codememory.config.text.TextCuts;
import dev.codememory.processors.canonical.CanonicalKeys;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Tasks from Claude Code's own task tracking, read in the session's time order. This is
 * where tasks come from in a coding session: Claude keeps its plan in these tools, with
 * each item's status.
 *
 * <h2>TodoWrite</h2> Each call's {@code tool_input.todos} is the session's whole list
 * ({@code content}, {@code status} pending / in_progress / completed, {@code priority},
 * {@code id}); the call replaces the previous list. An item is known by its content
 * ({@link CanonicalKeys#normalize}), not its id: ids are positions ("1", "2") that the
 * next list reuses for other work. A TASK candidate is emitted
 * <ul>
 * <li>when an item first appears, with its status;</li>
 * <li>each time a later list gives it another status (completed is {@code done});</li>
 * <li>when it disappears from a later list of the same session while not completed:
 * status {@code cancelled} (dropped). It comes back to life if a later list holds it
 * again.</li>
 * </ul>
 * The quote is the item's JSON object as it appears in that call's input text (content
 * and status together); a drop quotes the item from the last list that held it and the
 * first item of the list that left it out (or its empty {@code "todos":[]}).
 *
 * <h2>Task tools and task hook events</h2> {@code TaskCreate} ({@code subject}) is a
 * pending task, quoted by its subject; {@code TaskUpdate} ({@code taskId},
 * {@code status}, {@code subject}) changes the status of the task its id was created with
 * in this session ({@code deleted} is cancelled), quoting the update's input and the
 * subject where it was created. The {@code TaskCreated} and {@code TaskCompleted} hook
 * events ({@code task_subject}) are a pending and a done task.
 *
 * <p>
 * Every candidate's task fields say {@link TaskFields#TODO_LIST}: the status is what the
 * tool recorded, not a reading of words. Titles are the item's text, whitespace
 * collapsed.
 */
final class TodoLists {

    static final Set<String> TOOLS = Set.of("TodoWrite", "TaskCreate", "TaskUpdate", "TaskCreated", "TaskCompleted");

    private static final JsonMapper MAPPER = JsonMapper.builder().build();

    private final CandidateSink sink;

    /** Every item the session's lists have held, by content key. */
    private final Map<String, Item> items = new LinkedHashMap<>();

    /** The keys of the current TodoWrite list. */
    private List<String> current = List.of();

    /**
     * Task-tool ids of this session to the subject and the quote they were created with.
     */
    private final Map<String, Item> created = new HashMap<>();

    private TodoLists(CandidateSink sink) {
        this.sink = sink;
    }

    /**
     * Reads the task tools among {@code observations} (in time order) into {@code sink}.
     */
    static void extract(List<Observation> observations, CandidateSink sink) {
        TodoLists lists = new TodoLists(sink);
        for (Observation o : observations) {
            if (!TOOLS.contains(o.tool()) || o.failed() || o.inputText() == null) {
                continue;
            }
            JsonNode input = parse(o.inputText());
            if (input == null) {
                continue;
            }
            switch (o.tool()) {
                case "TodoWrite" -> lists.todoWrite(o, input);
                case "TaskCreate" -> lists.taskCreate(o, input);
                case "TaskUpdate" -> lists.taskUpdate(o, input);
                case "TaskCreated" -> lists.hookEvent(o, input, "pending");
                default -> lists.hookEvent(o, input, "done");
            }
        }
    }

    /**
     * What is known of one item: its text, last status and the quote that last showed it.
     */
    private static final class Item {

        final String title;

        String status;

        String priority;

        Quote quote;

        boolean dropped;

        Item(String title) {
            this.title = title;
        }

    }

    private void todoWrite(Observation o, JsonNode input) {
        JsonNode todos = input.path("todos");
        if (!todos.isArray()) {
            return;
        }
        List<String> keys = new ArrayList<>();
        Quote firstOfList = null;
        for (JsonNode todo : todos) {
            String title = title(todo.path("content").asString(""));
            String status = status(todo.path("status").asString(""));
            String objectText = MAPPER.writeValueAsString(todo);
            if (title.isEmpty() || status == null || !o.inputText().contains(objectText)) {
                continue;
            }
            Quote quote = new Quote(o.observationId(), SourceText.TOOL_INPUT, objectText);
            if (firstOfList == null) {
                firstOfList = quote;
            }
            String key = CanonicalKeys.normalize(title);
            if (keys.contains(key)) {
                continue;
            }
            keys.add(key);
            Item item = items.computeIfAbsent(key, k -> new Item(title));
            String priority = priority(todo.path("priority").asString(""));
            if (item.dropped || !status.equals(item.status)) {
                emit(o, item.title, status, priority, List.of(quote));
            }
            item.status = status;
            item.priority = priority;
            item.quote = quote;
            item.dropped = false;
        }
        Quote newList = firstOfList != null ? firstOfList : o.inputText().contains("\"todos\":[]")
                ? new Quote(o.observationId(), SourceText.TOOL_INPUT, "\"todos\":[]") : null;
        for (String key : current) {
            Item item = items.get(key);
            if (!keys.contains(key) && !"done".equals(item.status) && !item.dropped && newList != null) {
                emit(o, item.title, "cancelled", item.priority, List.of(item.quote, newList));
                item.dropped = true;
            }
        }
        current = keys;
    }

    private void taskCreate(Observation o, JsonNode input) {
        String title = title(input.path("subject").asString(""));
        Quote quote = locate(o, input.path("subject").asString(""));
        if (title.isEmpty() || quote == null) {
            return;
        }
        emit(o, title, "pending", null, List.of(quote));
        Item item = new Item(title);
        item.status = "pending";
        item.quote = quote;
        String id = taskId(o.outputText());
        if (id != null) {
            created.put(id, item);
        }
    }

    private void taskUpdate(Observation o, JsonNode input) {
        Item item = created.get(input.path("taskId").asString(""));
        String status = status(input.path("status").asString(""));
        if (item == null || status == null || status.equals(item.status)) {
            return;
        }
        String excerpt = TextCuts.excerpt(o.inputText(), true);
        if (excerpt == null) {
            return;
        }
        emit(o, item.title, status, null,
                List.of(new Quote(o.observationId(), SourceText.TOOL_INPUT, excerpt), item.quote));
        item.status = status;
    }

    private void hookEvent(Observation o, JsonNode input, String status) {
        String subject = input.path("task_subject").asString("");
        String title = title(subject);
        Quote quote = locate(o, subject);
        if (!title.isEmpty() && quote != null) {
            emit(o, title, status, null, List.of(quote));
        }
    }

    private void emit(Observation o, String title, String status, String priority, List<Quote> quotes) {
        String body = title + "\n" + "status: " + status.replace('_', ' ') + " (Claude's to-do list)";
        sink.add(CandidateKind.TASK, o.ts(), title, body,
                new TaskFields(status, priority, List.of(), TaskFields.TODO_LIST), quotes);
    }

    /** The task id a TaskCreate response names ({@code {"task":{"id":…}}}), or null. */
    private static String taskId(String outputText) {
        JsonNode output = outputText == null ? null : parse(outputText);
        return output == null ? null : output.path("task").path("id").asString(null);
    }

    private static Quote locate(Observation o, String text) {
        if (text == null || text.isBlank()) {
            return null;
        }
        String found = o.inputText().contains(text) ? text : null;
        if (found == null) {
            String escaped = TextCuts.jsonEscape(text);
            found = o.inputText().contains(escaped) ? escaped : null;
        }
        if (found == null) {
            return null;
        }
        String quote = found.length() <= TextCuts.EXCERPT_MAX ? found : TextCuts.excerpt(found, true);
        return quote == null ? null : new Quote(o.observationId(), SourceText.TOOL_INPUT, quote);
    }

    static String title(String content) {
        return content == null ? "" : content.strip().replaceAll("\\s+", " ");
    }

    /**
     * pending, in_progress, done or cancelled; null for a status these tools do not
     * write.
     */
    static String status(String raw) {
        return switch (raw.strip().toLowerCase(Locale.ROOT)) {
            case "pending", "open", "todo" -> "pending";
            case "in_progress", "in-progress", "active" -> "in_progress";
            case "completed", "complete", "done", "resolved" -> "done";
            case "cancelled", "canceled", "deleted" -> "cancelled";
            default -> null;
        };
    }

    private static String priority(String raw) {
        String p = raw.strip().toLowerCase(Locale.ROOT);
        return Set.of("low", "medium", "high", "critical").contains(p) ? p : null;
    }

    private static JsonNode parse(String text) {
        try {
            JsonNode node = MAPPER.readTree(text);
            return node != null && node.isObject() ? node : null;
        }
        catch (JacksonException e) {
            return null;
        }
    }

}
