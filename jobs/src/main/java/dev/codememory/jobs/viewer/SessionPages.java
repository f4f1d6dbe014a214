package dev.codememory.jobs.viewer;

import static dev.codememory.jobs.viewer.Html.esc;
import static dev.codememory.jobs.viewer.Html.memoryLink;
import static dev.codememory.jobs.viewer.Html.url;

import dev.codememory.config.json.Json;
import dev.codememory.processors.workingset.WorkingSetBuilder;
import dev.codememory.readers.viewer.ViewerQueries.SessionRow;
import dev.codememory.readers.viewer.ViewerQueries;
import dev.codememory.readers.workingset.WorkingSetQueries;
import dev.codememory.retrieval.context.DuckDbDisclosure;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The viewer's pages about sessions: the timeline, which tells the newest sessions as
 * stories (goal first, then what was done, what is left, the files, what Claude keeps
 * from it, the latest exchanges), and one session's page (its story, its memories by
 * kind, then what happened, in words: tool calls named, never their JSON).
 */
final class SessionPages {

    static final int TIMELINE_SESSIONS = 20;

    /** Exchanges shown under each session of the timeline. */
    static final int LATEST_EVENTS = 4;

    /**
     * Sessions of the timeline whose story is read from their events (the others wait for
     * their summary): reading a working set costs a query of up to
     * {@value #WORKING_SET_EVENTS} events.
     */
    static final int STORIES_FROM_EVENTS = 5;

    static final int WORKING_SET_EVENTS = 2_000;

    /** Items of a section the timeline shows before "and N more". */
    static final int STORY_ITEMS = 3;

    /** The kinds in the order a reader asks about them, with their plural. */
    static final Map<String, String> KINDS = kinds();

    private static final DateTimeFormatter DAY = DateTimeFormatter.ofPattern("yyyy-MM-dd");

    private static final DateTimeFormatter CLOCK = DateTimeFormatter.ofPattern("HH:mm");

    private final ViewerPages pages;

    SessionPages(ViewerPages pages) {
        this.pages = pages;
    }

    String timeline(String project) throws SQLException {
        try (Connection c = pages.session().connection()) {
            Object[] marks = ViewerQueries.marks(c);
            StringBuilder s = new StringBuilder(pages.projectChooser(c, "/", project));
            s.append("<p class=\"hint\">The newest sessions first: what each was for, what came of it and what "
                    + "Claude keeps from it. New events appear as serve ingests them "
                    + "(<span id=\"live\">live updates off</span>).</p>");
            s.append("<div id=\"timeline\" class=\"timeline\" data-seq=\"")
                .append(marks[0])
                .append("\" data-memories=\"")
                .append(esc(marks[1]))
                .append("\" data-project=\"")
                .append(esc(project == null ? "" : project))
                .append("\">");
            List<SessionRow> sessions = ViewerQueries.recentSessions(c, project, TIMELINE_SESSIONS);
            int fromEvents = 0;
            for (SessionRow row : sessions) {
                boolean read = row.summaryBody() != null || fromEvents++ < STORIES_FROM_EVENTS;
                SessionStory story = read ? story(c, row) : null;
                s.append(storySection(row, story, ViewerQueries.storyEvents(c, row.sessionId(), LATEST_EVENTS)));
            }
            if (sessions.isEmpty()) {
                s.append("<p class=\"meta\" id=\"empty\">No session captured yet: once the hooks are installed, "
                        + "each Claude Code session appears here.</p>");
            }
            return s.append("</div>").toString();
        }
    }

    /** The story of a session: from its summary, else from its working set. */
    static SessionStory story(Connection c, SessionRow row) throws SQLException {
        if (row.summaryBody() != null) {
            return SessionStory.ofSummary(row.summaryBody());
        }
        return SessionStory.ofWorkingSet(new WorkingSetBuilder().build(row.sessionId(),
                WorkingSetQueries.sessionEvents(c, row.sessionId(), WORKING_SET_EVENTS)));
    }

    static String storySection(SessionRow row, SessionStory story, List<ViewerQueries.TimelineItem> latest) {
        StringBuilder s = new StringBuilder("<section class=\"story\" data-session=\"").append(esc(row.sessionId()))
            .append("\"><h2 class=\"goal\"><a href=\"/session/")
            .append(esc(url(row.sessionId())))
            .append("\">")
            .append(story == null || story.goal() == null ? "A session without a stated goal"
                    : esc(story.goal().text()))
            .append("</a></h2><p class=\"meta\">")
            .append(meta(row))
            .append("</p>");
        if (story != null) {
            s.append("<dl class=\"story\">");
            items(s, "Done", story.done());
            items(s, "Left open", story.open());
            items(s, "Files", story.files());
            s.append("</dl>");
        }
        s.append(kindsLine(row.memoriesByKind(), row.sessionId()));
        s.append("<ol class=\"latest\">");
        for (ViewerQueries.TimelineItem e : latest) {
            s.append(latestItem(e));
        }
        return s.append("</ol></section>").toString();
    }

    /** One exchange under a session of the timeline: who, and what, in one line. */
    static String latestItem(ViewerQueries.TimelineItem e) {
        return "<li><time title=\"" + Html.time(e.ts()) + "\">" + clock(e.ts()) + "</time> <span class=\"who\">"
                + esc(who(e.type())) + "</span> " + esc(e.text()) + "</li>";
    }

    /** Who an event's words are: the user's, Claude's, or a tool's. */
    static String who(String eventType) {
        return switch (eventType) {
            case "UserPromptSubmit" -> "you";
            case "Stop", "SubagentStop" -> "Claude";
            case "PostToolUseFailure" -> "failed";
            default -> "tool";
        };
    }

    private static void items(StringBuilder s, String label, List<SessionStory.Line> lines) {
        if (lines.isEmpty()) {
            return;
        }
        s.append("<dt>").append(label).append("</dt><dd>");
        List<SessionStory.Line> shown = lines.subList(0, Math.min(STORY_ITEMS, lines.size()));
        for (int i = 0; i < shown.size(); i++) {
            s.append(i == 0 ? "" : "; ").append(esc(shown.get(i).text()));
        }
        if (lines.size() > shown.size()) {
            s.append(" <span class=\"meta\">and ").append(lines.size() - shown.size()).append(" more</span>");
        }
        s.append("</dd>");
    }

    /**
     * "Claude keeps 2 decisions, 1 fact and a summary from it", linked to the session.
     */
    static String kindsLine(Map<String, Long> byKind, String sessionId) {
        if (byKind.isEmpty()) {
            return "<p class=\"kinds meta\">Nothing kept from it yet (graduation has not run since).</p>";
        }
        List<String> parts = KINDS.keySet()
            .stream()
            .filter(byKind::containsKey)
            .map(k -> kindCount(k, byKind.get(k)))
            .toList();
        return "<p class=\"kinds\">Claude keeps <a href=\"/session/" + esc(url(sessionId)) + "#memories\">"
                + esc(joined(parts)) + "</a> from it.</p>";
    }

    static String kindCount(String kind, long n) {
        return n + " " + (n == 1 ? kind : KINDS.getOrDefault(kind, kind + "s"));
    }

    Optional<String> session(String sessionId) throws SQLException {
        try (Connection c = pages.session().connection()) {
            Optional<SessionRow> found = ViewerQueries.sessionRow(c, sessionId);
            if (found.isEmpty()) {
                return Optional.empty();
            }
            SessionRow row = found.get();
            List<ViewerQueries.SessionEvent> events = ViewerQueries.sessionEvents(c, sessionId);
            List<ViewerQueries.MemoryLine> memories = ViewerQueries.sessionMemories(c, sessionId);
            SessionStory story = story(c, row);
            StringBuilder s = new StringBuilder("<p class=\"meta\">").append(meta(row))
                .append(" · <code>")
                .append(esc(sessionId))
                .append("</code></p>");
            s.append("<section class=\"story\" id=\"story\"><h2>Goal</h2><p class=\"goal\">")
                .append(story.goal() == null ? "<span class=\"meta\">none stated</span>" : line(story.goal()))
                .append("</p>");
            list(s, "Done", story.done());
            list(s, "Decided", story.decided());
            list(s, "Left open", story.open());
            list(s, "Files changed", story.files());
            s.append("<p class=\"hint\">")
                .append("summary".equals(story.from())
                        ? "From the summary graduation wrote for this session; each line links to the memory it rests on."
                        : "Read from the session's events: graduation has not summarized it yet.")
                .append("</p></section>");
            s.append("<h2 id=\"memories\">What Claude keeps from it</h2>").append(memoriesByKind(memories));
            s.append("<h2>What happened</h2><ol class=\"events\">");
            for (ViewerQueries.SessionEvent e : events) {
                s.append(event(e));
            }
            s.append("</ol>");
            s.append(ViewerPages.forgetButton("session", sessionId, "Forget this session…"));
            return Optional.of(s.toString());
        }
    }

    private static void list(StringBuilder s, String label, List<SessionStory.Line> lines) {
        if (lines.isEmpty()) {
            return;
        }
        s.append("<h2>").append(label).append("</h2><ul>");
        lines.forEach(l -> s.append("<li>").append(line(l)).append("</li>"));
        s.append("</ul>");
    }

    /** A story line with a link to what it rests on: its memory, or its event below. */
    private static String line(SessionStory.Line l) {
        if (l.source() == null) {
            return esc(l.text());
        }
        return esc(l.text()) + " " + (l.source().startsWith("mem:") ? memoryLink(l.source(), l.source())
                : "<a class=\"meta\" href=\"#e-" + esc(l.source()) + "\">event</a>");
    }

    static String memoriesByKind(List<ViewerQueries.MemoryLine> memories) {
        if (memories.isEmpty()) {
            return "<p class=\"meta\">nothing yet: graduation has not run since this session</p>";
        }
        Map<String, List<ViewerQueries.MemoryLine>> byKind = new LinkedHashMap<>();
        KINDS.keySet().forEach(k -> byKind.put(k, new java.util.ArrayList<>()));
        memories.forEach(m -> byKind.computeIfAbsent(m.kind(), k -> new java.util.ArrayList<>()).add(m));
        StringBuilder s = new StringBuilder("<div class=\"kinds\">");
        byKind.forEach((kind, lines) -> {
            if (!lines.isEmpty()) {
                s.append("<h3>")
                    .append(esc(capitalized(KINDS.getOrDefault(kind, kind))))
                    .append(" <span class=\"meta\">")
                    .append(lines.size())
                    .append("</span></h3>")
                    .append(ViewerPages.memoryList(lines));
            }
        });
        return s.append("</div>").toString();
    }

    /**
     * One event in words: the user's prompt and Claude's reply as text, a tool call by
     * its name and what it acted on, its output folded away and shown as data (never
     * markup, never raw JSON), Claude Code's own bookkeeping as a short note.
     */
    static String event(ViewerQueries.SessionEvent e) {
        StringBuilder s = new StringBuilder("<li class=\"").append(e.failed() ? "failed " : "")
            .append(ViewerQueries.STORY_EVENTS.contains(e.eventType()) ? "said" : "note")
            .append("\" id=\"e-")
            .append(esc(e.eventId()))
            .append("\"><time title=\"")
            .append(Html.time(e.ts()))
            .append("\">")
            .append(clock(e.ts()))
            .append("</time> ");
        if (e.prompt() != null) {
            s.append("<span class=\"who\">you</span>").append(text(e.prompt()));
        }
        else if (e.reply() != null) {
            s.append("<span class=\"who\">Claude</span>")
                .append(e.reply().isBlank() ? " <span class=\"meta\">(the reply's text was not recorded)</span>"
                        : text(e.reply()));
        }
        else if (e.tool() != null) {
            s.append("<span class=\"who\">tool</span> <span class=\"call\">")
                .append(esc(DuckDbDisclosure.named(e.tool(), e.toolInput())))
                .append("</span>");
            if (e.failed()) {
                s.append(" <strong class=\"bad\">failed</strong>");
            }
            String output = output(e.toolResponse());
            if (output != null && !output.isBlank()) {
                s.append("<details><summary>output of ")
                    .append(esc(e.tool()))
                    .append(" (data, not instructions)</summary><pre>")
                    .append(esc(output))
                    .append("</pre></details>");
            }
        }
        else {
            s.append("<span class=\"meta\">").append(esc(note(e.eventType(), e.detail()))).append("</span>");
        }
        return s.append("</li>").toString();
    }

    private static String text(String said) {
        String cut = said.length() >= ViewerQueries.MAX_EVENT_CHARS
                ? "<span class=\"meta\"> (cut at " + ViewerQueries.MAX_EVENT_CHARS + " characters)</span>" : "";
        return "<div class=\"text\">" + esc(said) + cut + "</div>";
    }

    /** Claude Code's bookkeeping events, in words. */
    static String note(String eventType, String detail) {
        String d = detail == null || detail.isBlank() || "other".equals(detail) ? "" : " (" + detail + ")";
        return switch (eventType) {
            case "Stop" -> "Claude replied (its text was not recorded)";
            case "SessionStart" -> "session started" + d;
            case "SessionEnd" -> "session ended" + d;
            case "PreCompact" -> "context compacted" + d;
            case "Notification" -> "notification" + d;
            case "SubagentStop" -> "a subagent finished";
            case "PreToolUse" -> "tool call requested";
            default -> eventType + d;
        };
    }

    /**
     * A tool's output as text: the text itself when it is one; of a JSON object, its text
     * fields as {@code name: value} lines (nested objects flattened); of a list of
     * content blocks, their texts.
     */
    static String output(String response) {
        if (response == null) {
            return null;
        }
        String trimmed = response.strip();
        if (!trimmed.startsWith("{") && !trimmed.startsWith("[") && !trimmed.startsWith("\"")) {
            return response;
        }
        Object parsed;
        try {
            parsed = Json.parse(trimmed);
        }
        catch (RuntimeException cutOrNotJson) {
            // cut at the viewer's limit: still shown, as the text it is
            return response;
        }
        StringBuilder out = new StringBuilder();
        flatten("", parsed, out);
        return out.toString().strip();
    }

    private static void flatten(String name, Object value, StringBuilder out) {
        if (value instanceof Map<?, ?> map) {
            map.forEach((k, v) -> flatten(name.isEmpty() ? String.valueOf(k) : name + "." + k, v, out));
        }
        else if (value instanceof List<?> list) {
            list.forEach(v -> flatten(name, v, out));
        }
        else if (value instanceof String text && !text.isBlank()) {
            boolean plain = name.isEmpty() || name.endsWith("text") || name.endsWith("stdout")
                    || name.endsWith("content") || name.endsWith("output");
            out.append(plain ? "" : name + ": ").append(text).append(text.contains("\n") ? "\n" : "").append('\n');
        }
        else if (value != null && !(value instanceof String)) {
            out.append(name).append(": ").append(value instanceof Json.JsonNumber n ? n.literal() : value).append('\n');
        }
    }

    /** The last part of a project's path: its folder's name. */
    static String projectName(String project) {
        if (project == null) {
            return "";
        }
        String trimmed = project.replaceAll("/+$", "");
        int slash = trimmed.lastIndexOf('/');
        return slash < 0 ? trimmed : trimmed.substring(slash + 1);
    }

    /** A time range, earliest first, to the minute: one day once. */
    static String span(LocalDateTime first, LocalDateTime last) {
        if (first == null) {
            return "";
        }
        String from = DAY.format(first) + " " + CLOCK.format(first);
        if (last == null || last.equals(first)) {
            return from + " UTC";
        }
        String to = last.toLocalDate().equals(first.toLocalDate()) ? CLOCK.format(last)
                : DAY.format(last) + " " + CLOCK.format(last);
        return from + "–" + to + " UTC";
    }

    static String clock(LocalDateTime t) {
        return t == null ? "" : CLOCK.format(t);
    }

    static String counted(long n, String noun) {
        return counted(n, noun, noun + "s");
    }

    static String counted(long n, String one, String many) {
        return n + " " + (n == 1 ? one : many);
    }

    static String joined(List<String> parts) {
        if (parts.size() <= 1) {
            return String.join("", parts);
        }
        return String.join(", ", parts.subList(0, parts.size() - 1)) + " and " + parts.get(parts.size() - 1);
    }

    /**
     * Where and when a session ran and how much it did, escaped: the line under its goal.
     */
    private static String meta(SessionRow row) {
        return esc(projectName(row.project())) + " · " + span(row.firstTs(), row.lastTs()) + " · "
                + counted(row.prompts(), "prompt") + ", " + counted(row.toolCalls(), "tool call")
                + (row.branch() == null || row.branch().isBlank() ? "" : " · branch " + esc(row.branch()));
    }

    private static String capitalized(String s) {
        return s.isEmpty() ? s : Character.toUpperCase(s.charAt(0)) + s.substring(1);
    }

    private static Map<String, String> kinds() {
        Map<String, String> kinds = new LinkedHashMap<>();
        kinds.put("summary", "summaries");
        kinds.put("decision", "decisions");
        kinds.put("task", "tasks");
        kinds.put("fact", "facts");
        kinds.put("preference", "preferences");
        kinds.put("insight", "insights");
        kinds.put("topic", "topics");
        kinds.put("observation", "observations");
        kinds.put("exchange", "exchanges");
        return java.util.Collections.unmodifiableMap(kinds);
    }

}
