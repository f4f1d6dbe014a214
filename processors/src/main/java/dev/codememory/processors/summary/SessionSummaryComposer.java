package dev.codememory.processors.summary;

import dev.codememory.capture.guard.ContextGate;
import dev.codememory.config.graduate.Quote;
import dev.codememory.config.summary.SessionMaterial.Item;
import dev.codememory.config.summary.SessionMaterial;
import dev.codememory.config.summary.SessionSummary;
import dev.codememory.config.text.TextCuts;
import dev.codememory.processors.canonical.CanonicalKeys;
import dev.codememory.processors.turns.MemoryTalk;
import dev.codememory.processors.turns.Prompts;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Writes a finished session's summary for the next morning from its verified memories.
 * Pure and deterministic.
 *
 * <p>
 * The body, at most {@value #MAX_CHARS} characters, every line ending with the citation
 * of the memory it rests on: <pre>
 * Goal: &lt;the first prompt that asked for something, other than to pick up where work was left&gt; [mem:…]
 * Done:
 * - Committed: &lt;subject&gt; [mem:…]            (work: commits, pull requests, issues)
 * - Completed: &lt;to-do item&gt; [mem:…]
 * - Fixed `&lt;command&gt;`: &lt;what failed&gt; by changing &lt;file&gt; [mem:…]   (the error → fix insight's own title)
 * Decided:
 * - &lt;decision&gt; [mem:…]
 * Left open:
 * - &lt;task&gt; (pending) [mem:…]
 * Changed: &lt;file&gt; (3 edits) [mem:…], &lt;file&gt; [mem:…]
 * </pre> Sections without items are left out. Lines are added in that order while they
 * fit: the goal first, then each section's items in time order (the changed files most
 * edited first, at most {@value #MAX_FILES}); a heading whose first item does not fit is
 * left out with its section; a section that could not show all its items says how many it
 * shows ({@code Done (5 of 12):}). Item texts are cut to {@value #ITEM_CHARS} characters
 * at a word boundary, after the context gate (every item but the goal: the goal is the
 * user's own words).
 *
 * <p>
 * Title {@code Session <start date>: <goal>} (goal cut to 80 characters), or
 * {@code Session <date>} without one. Entry id: {@code "ent_"} + the first 32 hex digits
 * of sha256({@code summary|project|session|lastSeq}), so a session that grows later gets
 * a new summary, which replaces the old one. A session with nothing to summarise (no goal
 * and no items) gets none, nor does a statement {@code mem-save} spooled (its session is
 * no session of work: {@link MemoryTalk#isSaveSession}).
 */
public final class SessionSummaryComposer {

    public static final int MAX_CHARS = 1_200;
    static final int ITEM_CHARS = 140;
    static final int GOAL_CHARS = 200;
    static final int MAX_FILES = 6;
    static final int TITLE_GOAL_CHARS = 80;

    /** The summary, or null when the session left nothing to summarise. */
    public SessionSummary compose(SessionMaterial m) {
        if (MemoryTalk.isSaveSession(m.sessionId())) {
            return null;
        }
        Item goal = m.goals()
            .stream()
            .filter(g -> !Prompts.asksToContinue(g.text()))
            .findFirst()
            .orElse(m.goals().isEmpty() ? null : m.goals().get(0));
        List<Section> sections = List.of(
                new Section("Done", prefixed(m.work(), "Committed: ", m.completed(), "Completed: ", m.fixes(), "")),
                new Section("Decided", m.decisions()), new Section("Left open", m.open()));
        List<Item> files = m.changed().stream().limit(MAX_FILES).toList();
        if (goal == null && sections.stream().allMatch(s -> s.items().isEmpty()) && files.isEmpty()) {
            return null;
        }
        Map<String, Quote> cited = new LinkedHashMap<>();
        StringBuilder body = new StringBuilder();
        if (goal != null) {
            appendLine(body, "Goal: " + TextCuts.shorten(oneLine(goalShown(goal.text())), GOAL_CHARS), goal, cited);
        }
        for (Section section : sections) {
            List<String> lines = new ArrayList<>();
            int shown = 0;
            int room = MAX_CHARS - body.length() - filesReserve(files, body.length());
            int used = 0;
            for (Item item : section.items()) {
                String line = "- " + itemText(item) + " " + cite(item);
                int headingLength = 1
                        + (section.title() + " (" + section.items().size() + " of " + section.items().size() + "):")
                            .length();
                if (used + line.length() + 1 + (shown == 0 ? headingLength : 0) > room) {
                    break;
                }
                used += line.length() + 1 + (shown == 0 ? headingLength : 0);
                lines.add(line);
                cited.putIfAbsent(item.memoryId(), item.quote());
                shown++;
            }
            if (shown == 0) {
                continue;
            }
            String heading = shown < section.items().size()
                    ? section.title() + " (" + shown + " of " + section.items().size() + "):" : section.title() + ":";
            body.append(body.length() == 0 ? "" : "\n").append(heading);
            for (String line : lines) {
                body.append('\n').append(line);
            }
        }
        if (!files.isEmpty()) {
            StringBuilder line = new StringBuilder("Changed: ");
            int count = 0;
            for (Item file : files) {
                String piece = (count == 0 ? "" : ", ") + itemText(file) + " " + cite(file);
                if (body.length() + 1 + line.length() + piece.length() > MAX_CHARS) {
                    break;
                }
                line.append(piece);
                cited.putIfAbsent(file.memoryId(), file.quote());
                count++;
            }
            if (count > 0) {
                body.append(body.length() == 0 ? "" : "\n").append(line);
            }
        }
        if (cited.isEmpty()) {
            return null;
        }
        String date = m.startedAt().toLocalDate().toString();
        String title = goal == null ? "Session " + date
                : "Session " + date + ": " + TextCuts.shorten(oneLine(goalShown(goal.text())), TITLE_GOAL_CHARS);
        String id = "ent_" + CanonicalKeys.sha256("summary|" + m.project() + "|" + m.sessionId() + "|" + m.lastSeq())
            .substring(0, 32);
        String key = CanonicalKeys.key("summary:" + m.project(), m.sessionId() + " " + m.lastSeq());
        return new SessionSummary(id, m.sessionId(), m.project(), m.endedAt(), m.lastSeq(), title, body.toString(), key,
                List.copyOf(cited.keySet()), List.copyOf(cited.values()));
    }

    /**
     * What the changed-files line needs kept free: its first file, so the lists cannot
     * crowd it out entirely.
     */
    private static int filesReserve(List<Item> files, int bodyLength) {
        if (files.isEmpty()) {
            return 0;
        }
        Item first = files.get(0);
        return "\nChanged: ".length() + itemText(first).length() + 1 + cite(first).length();
    }

    private static void appendLine(StringBuilder body, String text, Item item, Map<String, Quote> cited) {
        body.append(body.length() == 0 ? "" : "\n").append(text).append(' ').append(cite(item));
        cited.putIfAbsent(item.memoryId(), item.quote());
    }

    /**
     * An item's text passes the context gate: it is another memory's title (written by
     * the rules from structure, a to-do item Claude wrote, a decision), and the summary
     * is shown at the next session start. The goal is the user's own prompt and does not.
     */
    private static String itemText(Item item) {
        String text = TextCuts.shorten(oneLine(ContextGate.pass(item.text()).text()), ITEM_CHARS);
        return item.detail().isEmpty() ? text : text + " (" + item.detail() + ")";
    }

    private static String cite(Item item) {
        return "[" + item.citation() + "]";
    }

    private static String oneLine(String text) {
        return text.strip().replaceAll("\\s*\\R\\s*", " ");
    }

    /** The items of several lists, each text given its prefix, in the order given. */
    private static List<Item> prefixed(List<Item> a, String pa, List<Item> b, String pb, List<Item> c, String pc) {
        List<Item> out = new ArrayList<>();
        a.forEach(i -> out.add(new Item(pa + i.text(), i.detail(), i.memoryId(), i.citation(), i.quote())));
        b.forEach(i -> out.add(new Item(pb + i.text(), i.detail(), i.memoryId(), i.citation(), i.quote())));
        c.forEach(i -> out.add(new Item(pc + i.text(), i.detail(), i.memoryId(), i.citation(), i.quote())));
        return out;
    }

    private record Section(String title, List<Item> items) {
    }

    /**
     * The user's goal as the summary shows it: the user's words as they are, what the
     * prompt quotes from a page or a log gated, both before the goal is cut.
     */
    private static String goalShown(String prompt) {
        return ContextGate.passUserText(prompt).text();
    }

}
