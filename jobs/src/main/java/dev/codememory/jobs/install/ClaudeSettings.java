package dev.codememory.jobs.install;

import dev.codememory.config.json.Json;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Our hook entries in a Claude Code settings file, added and removed as edits of the
 * text: the file is read with the position of every value ({@link JsonText}), our entries
 * are inserted after the last element of their array (or as a new member after the last
 * member of their object), indented like the surrounding file, and removed the same way.
 * Every byte outside our entries stays as it was, so adding and then removing gives back
 * the original file. An entry is ours when its command runs {@code jobs.jar hook} (from
 * any folder: a moved clone is updated, not duplicated).
 */
public final class ClaudeSettings {

    /** Every hook event code-memory listens to, with the matcher tool events need. */
    public static final Map<String, String> EVENTS = events();

    private static final Pattern OURS = Pattern.compile("jobs\\.jar['\"]?\\s+hook\\s*$");

    private ClaudeSettings() {
    }

    private static Map<String, String> events() {
        Map<String, String> events = new LinkedHashMap<>();
        events.put("SessionStart", null);
        events.put("UserPromptSubmit", null);
        events.put("PostToolUse", "*");
        events.put("PostToolUseFailure", "*");
        events.put("Stop", null);
        events.put("SubagentStop", null);
        events.put("PreCompact", null);
        events.put("SessionEnd", null);
        // Claude Code's own task list (graduation reads them as it reads TodoWrite)
        events.put("TaskCreated", null);
        events.put("TaskCompleted", null);
        return java.util.Collections.unmodifiableMap(events);
    }

    /** Whether a hook command is code-memory's. */
    public static boolean isOurs(String command) {
        return command != null && OURS.matcher(command).find();
    }

    /**
     * The file with our hook (running {@code command}) registered for every event;
     * unchanged if it already is.
     */
    public static String install(String text, String command) {
        String current = text.isBlank() ? "{}\n" : text;
        JsonText.Node root = JsonText.parse(current);
        if (!(root instanceof JsonText.ObjectNode rootObject)) {
            throw new IllegalArgumentException("the settings file is not a JSON object");
        }
        Style style = Style.of(current, rootObject);
        JsonText.Member hooks = rootObject.member("hooks");
        if (hooks == null) {
            Map<String, Object> all = new LinkedHashMap<>();
            EVENTS.forEach((event, matcher) -> all.put(event, List.of(group(command, matcher))));
            return insertMember(current, rootObject, 0, "hooks", all, style);
        }
        if (!(hooks.value() instanceof JsonText.ObjectNode)) {
            throw new IllegalArgumentException("\"hooks\" in the settings file is not an object");
        }
        for (Map.Entry<String, String> e : EVENTS.entrySet()) {
            current = installEvent(current, e.getKey(), e.getValue(), command, style);
        }
        return current;
    }

    private static String installEvent(String text, String event, String matcher, String command, Style style) {
        JsonText.ObjectNode hooks = hooks(text);
        JsonText.Member member = hooks.member(event);
        if (member == null) {
            return insertMember(text, hooks, 1, event, List.of(group(command, matcher)), style);
        }
        if (!(member.value() instanceof JsonText.ArrayNode groups)) {
            throw new IllegalArgumentException("\"hooks\".\"" + event + "\" in the settings file is not an array");
        }
        JsonText.StringNode existing = null;
        for (JsonText.Node group : groups.elements()) {
            for (JsonText.StringNode c : ourCommands(group)) {
                if (c.value().equals(command)) {
                    return text; // already there
                }
                existing = existing == null ? c : existing;
            }
        }
        if (existing != null) { // ours from another folder: point it here
            return text.substring(0, existing.start()) + quote(command) + text.substring(existing.end());
        }
        return appendElement(text, groups, 2, group(command, matcher), style);
    }

    /**
     * The file without our hook entries: a group holding only ours goes, a group shared
     * with other hooks loses only ours; an event left with no group goes, and so does
     * {@code hooks} when nothing is left in it.
     */
    public static String uninstall(String text) {
        if (text.isBlank()) {
            return text;
        }
        String current = text;
        while (true) {
            String next = removeOne(current);
            if (next.equals(current)) {
                return current;
            }
            current = next;
        }
    }

    /** Whether the file registers our hook for every event with exactly this command. */
    public static boolean installed(String text, String command) {
        return !text.isBlank() && install(text, command).equals(text);
    }

    /**
     * Removes one of our hook entries (and a container it leaves empty); the text itself
     * when there is none.
     */
    private static String removeOne(String text) {
        JsonText.Node root = JsonText.parse(text);
        if (!(root instanceof JsonText.ObjectNode rootObject)
                || !(valueOf(rootObject, "hooks") instanceof JsonText.ObjectNode hooks)) {
            return text;
        }
        JsonText.Member hooksMember = rootObject.member("hooks");
        for (int m = 0; m < hooks.members().size(); m++) {
            JsonText.Member event = hooks.members().get(m);
            if (!(event.value() instanceof JsonText.ArrayNode groups)) {
                continue;
            }
            for (int g = 0; g < groups.elements().size(); g++) {
                JsonText.Node group = groups.elements().get(g);
                if (!(group instanceof JsonText.ObjectNode groupObject)
                        || !(valueOf(groupObject, "hooks") instanceof JsonText.ArrayNode handlers)) {
                    continue;
                }
                List<Integer> ours = new ArrayList<>();
                for (int h = 0; h < handlers.elements().size(); h++) {
                    if (handlers.elements().get(h) instanceof JsonText.ObjectNode handler
                            && valueOf(handler, "command") instanceof JsonText.StringNode s && isOurs(s.value())) {
                        ours.add(h);
                    }
                }
                if (ours.isEmpty()) {
                    continue;
                }
                if (ours.size() < handlers.elements().size()) {
                    return removeAt(text, handlers.start(), handlers.end(), spans(handlers.elements()), ours.get(0));
                }
                if (groups.elements().size() > 1) {
                    return removeAt(text, groups.start(), groups.end(), spans(groups.elements()), g);
                }
                if (hooks.members().size() > 1) {
                    return removeAt(text, hooks.start(), hooks.end(), memberSpans(hooks), m);
                }
                return removeAt(text, rootObject.start(), rootObject.end(), memberSpans(rootObject),
                        rootObject.members().indexOf(hooksMember));
            }
        }
        return text;
    }

    /** The value of an object's member, or null. */
    private static JsonText.Node valueOf(JsonText.ObjectNode object, String key) {
        JsonText.Member member = object.member(key);
        return member == null ? null : member.value();
    }

    private static JsonText.ObjectNode hooks(String text) {
        return (JsonText.ObjectNode) ((JsonText.ObjectNode) JsonText.parse(text)).member("hooks").value();
    }

    private static List<JsonText.StringNode> ourCommands(JsonText.Node group) {
        List<JsonText.StringNode> ours = new ArrayList<>();
        if (group instanceof JsonText.ObjectNode o && valueOf(o, "hooks") instanceof JsonText.ArrayNode handlers) {
            for (JsonText.Node h : handlers.elements()) {
                if (h instanceof JsonText.ObjectNode handler
                        && valueOf(handler, "command") instanceof JsonText.StringNode s && isOurs(s.value())) {
                    ours.add(s);
                }
            }
        }
        return ours;
    }

    private static Map<String, Object> group(String command, String matcher) {
        Map<String, Object> handler = new LinkedHashMap<>();
        handler.put("type", "command");
        handler.put("command", command);
        Map<String, Object> group = new LinkedHashMap<>();
        if (matcher != null) {
            group.put("matcher", matcher);
        }
        group.put("hooks", List.of(handler));
        return group;
    }

    // ---- text edits
    // ---------------------------------------------------------------------------------------------

    /**
     * How the file is laid out: its indentation unit, and whether it is spread over lines
     * at all.
     */
    record Style(String unit, boolean multiline, String colon) {

        static Style of(String text, JsonText.ObjectNode root) {
            String unit = "  ";
            boolean multiline = text.substring(root.start(), root.end()).indexOf('\n') >= 0 || root.members().isEmpty();
            String colon = ": ";
            if (!root.members().isEmpty()) {
                JsonText.Member first = root.members().get(0);
                String before = text.substring(root.start() + 1, first.keyStart());
                int nl = before.lastIndexOf('\n');
                if (nl >= 0 && nl + 1 < before.length()) {
                    unit = before.substring(nl + 1);
                }
                int keyEnd = text.indexOf('"', first.keyStart() + 1);
                while (text.charAt(keyEnd - 1) == '\\') {
                    keyEnd = text.indexOf('"', keyEnd + 1);
                }
                colon = text.substring(keyEnd + 1, first.value().start());
            }
            return new Style(unit, multiline, colon);
        }

        String indent(int level) {
            return multiline ? "\n" + unit.repeat(level) : "";
        }
    }

    static String insertMember(String text, JsonText.ObjectNode object, int level, String key, Object value,
            Style style) {
        String member = quote(key) + style.colon() + render(value, level + 1, style);
        if (object.members().isEmpty()) {
            return text.substring(0, object.start() + 1) + style.indent(level + 1) + member + style.indent(level)
                    + text.substring(object.end() - 1);
        }
        JsonText.Member last = object.members().get(object.members().size() - 1);
        int previousEnd = object.members().size() > 1 ? object.members().get(object.members().size() - 2).value().end()
                : object.start();
        String separator = between(text, previousEnd, last.keyStart());
        return text.substring(0, last.value().end()) + "," + separator + member + text.substring(last.value().end());
    }

    private static String appendElement(String text, JsonText.ArrayNode array, int level, Object value, Style style) {
        String element = render(value, level + 1, style);
        if (array.elements().isEmpty()) {
            return text.substring(0, array.start() + 1) + style.indent(level + 1) + element + style.indent(level)
                    + text.substring(array.end() - 1);
        }
        JsonText.Node last = array.elements().get(array.elements().size() - 1);
        int previousEnd = array.elements().size() > 1 ? array.elements().get(array.elements().size() - 2).end()
                : array.start();
        String separator = between(text, previousEnd, last.start());
        return text.substring(0, last.end()) + "," + separator + element + text.substring(last.end());
    }

    /**
     * The whitespace before an element: after its container's opening bracket or the
     * previous element's comma.
     */
    private static String between(String text, int previousEnd, int start) {
        String gap = text.substring(previousEnd, start);
        int comma = gap.lastIndexOf(',');
        int bracket = Math.max(gap.lastIndexOf('['), gap.lastIndexOf('{'));
        return gap.substring(Math.max(comma, bracket) + 1);
    }

    /**
     * Removes element {@code i} of a container, with the separator that belongs to it.
     */
    static String removeAt(String text, int containerStart, int containerEnd, List<int[]> spans, int i) {
        if (spans.size() == 1) {
            return text.substring(0, containerStart + 1) + text.substring(containerEnd - 1);
        }
        if (i == spans.size() - 1) {
            return text.substring(0, spans.get(i - 1)[1]) + text.substring(spans.get(i)[1]);
        }
        return text.substring(0, spans.get(i)[0]) + text.substring(spans.get(i + 1)[0]);
    }

    private static List<int[]> spans(List<JsonText.Node> elements) {
        return elements.stream().map(e -> new int[] { e.start(), e.end() }).toList();
    }

    static List<int[]> memberSpans(JsonText.ObjectNode object) {
        return object.members().stream().map(m -> new int[] { m.keyStart(), m.value().end() }).toList();
    }

    /**
     * A value laid out like the file: one member or element per line at {@code level}, or
     * all on one line.
     */
    static String render(Object value, int level, Style style) {
        if (value instanceof Map<?, ?> map) {
            if (map.isEmpty()) {
                return "{}";
            }
            StringBuilder sb = new StringBuilder("{");
            boolean first = true;
            for (Map.Entry<?, ?> e : map.entrySet()) {
                sb.append(first ? "" : style.multiline() ? "," : ", ")
                    .append(style.indent(level + 1))
                    .append(quote(String.valueOf(e.getKey())))
                    .append(style.colon())
                    .append(render(e.getValue(), level + 1, style));
                first = false;
            }
            return sb.append(style.indent(level)).append('}').toString();
        }
        if (value instanceof List<?> list) {
            if (list.isEmpty()) {
                return "[]";
            }
            StringBuilder sb = new StringBuilder("[");
            for (int i = 0; i < list.size(); i++) {
                sb.append(i == 0 ? "" : style.multiline() ? "," : ", ")
                    .append(style.indent(level + 1))
                    .append(render(list.get(i), level + 1, style));
            }
            return sb.append(style.indent(level)).append(']').toString();
        }
        return value instanceof String s ? quote(s) : String.valueOf(value);
    }

    static String quote(String s) {
        StringBuilder sb = new StringBuilder();
        Json.writeString(s, sb);
        return sb.toString();
    }

}
