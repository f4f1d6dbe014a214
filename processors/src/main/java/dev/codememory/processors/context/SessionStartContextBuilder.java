package dev.codememory.processors.context;

import dev.codememory.processors.task.TaskStatus;
import dev.codememory.processors.text.TextCuts;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Turns what a new session should know — the last session's summary, open and blocked
 * tasks, stated preferences — into the text a {@code SessionStart} hook injects, under
 * the same {@link ContextBudget} as the prompt context.
 *
 * <p>
 * The text is the header followed by these sections, in this order, each left out when it
 * has nothing to show:
 * <ul>
 * <li>{@code Last session [mem:…]:} the summary as recorded, as a Markdown quote;</li>
 * <li>{@code Open tasks:} one line per pending or in-progress task,
 * {@code - title (in progress)  [mem:…]};</li>
 * <li>{@code Blocked:} one line per blocked task,
 * {@code - title — blocked by: a; b  [mem:…]};</li>
 * <li>{@code Preferences:} one line per preference, {@code - text  [mem:…]}.</li>
 * </ul>
 * Titles and blockers are cut to {@value #TASK_CHARS} characters, preferences to
 * {@value #PREFERENCE_CHARS}, all at a word boundary; blank texts and titles are not
 * shown. With nothing to show at all the result is empty.
 *
 * <p>
 * <b>Whose words.</b> Preferences are the user's own words and are shown as they are;
 * task titles, blockers and every line of the summary but its goal (the user's first
 * prompt) pass the {@link dev.codememory.processors.guard.ContextGate}.
 *
 * <p>
 * <b>Budget.</b> The lists come in the order given and are cut from the end: a section's
 * lines are added while they fit, and a section whose first line does not fit is left
 * out. So that a long summary cannot crowd them out, the summary leaves free what the
 * lists need, up to half the budget; a summary that does not fit in the rest is cut at a
 * word boundary and followed by a line naming the {@code show} command (or left out when
 * fewer than 80 characters of it would remain). The whole text never exceeds the budget.
 */
public final class SessionStartContextBuilder {

    static final int TASK_CHARS = 200;
    static final int PREFERENCE_CHARS = 300;

    /** How a session summary's goal line, the user's own words, starts. */
    static final String GOAL = "Goal: ";

    private final ContextBudget budget;

    /** The default budget: 2,000 estimated tokens, 10,000 characters. */
    public SessionStartContextBuilder() {
        this(ContextBudget.DEFAULT);
    }

    public SessionStartContextBuilder(ContextBudget budget) {
        this.budget = Objects.requireNonNull(budget, "budget");
    }

    /**
     * @param lastSession the last session's summary, or null when there is none
     * @param tasks open and blocked tasks, most important first
     * @param preferences stated preferences, most important first
     */
    public SessionStartContext build(CitedText lastSession, List<OpenTask> tasks, List<CitedText> preferences) {
        GateTally gate = new GateTally();
        List<Section> sections = List.of(
                new Section("Open tasks",
                        tasks.stream()
                            .filter(t -> !t.blocked() && !t.title().isBlank())
                            .map(t -> new Item(openLine(t, gate), t.citation()))
                            .toList()),
                new Section("Blocked",
                        tasks.stream()
                            .filter(t -> t.blocked() && !t.title().isBlank())
                            .map(t -> new Item(blockedLine(t, gate), t.citation()))
                            .toList()),
                new Section("Preferences",
                        preferences.stream()
                            .filter(p -> !p.text().isBlank())
                            .map(p -> new Item(preferenceLine(p), p.citation()))
                            .toList()));
        boolean hasSummary = lastSession != null && !lastSession.text().isBlank();
        if (!hasSummary && sections.stream().allMatch(s -> s.items().isEmpty())) {
            return SessionStartContext.empty();
        }
        BoundedText out = new BoundedText(budget);
        if (!out.append(ContextText.HEADER)) {
            return SessionStartContext.empty();
        }
        Set<String> citations = new LinkedHashSet<>();
        if (hasSummary) {
            int listsNeed = sections.stream().mapToInt(Section::length).sum();
            int reserve = Math.min(listsNeed, budget.charLimit() / 2);
            String head = "\n\nLast session " + ContextText.cite(lastSession.citation()) + ":\n";
            String content = ContextText
                .quoted(summaryShown(ContextText.head(lastSession.text(), out.room() + 300), gate));
            if (out.appendShortened(head, content, lastSession.citation(), reserve)) {
                citations.add(lastSession.citation());
            }
        }
        for (Section section : sections) {
            String heading = section.heading();
            for (Item item : section.items()) {
                if (!out.append(heading + item.line())) {
                    break;
                }
                heading = "";
                citations.add(item.citation());
            }
        }
        if (citations.isEmpty()) {
            return SessionStartContext.empty();
        }
        String text = out.text();
        return new SessionStartContext(text, List.copyOf(citations), ContextBudget.estimateTokens(text),
                gate.withheld());
    }

    /**
     * A session summary as it may be shown: its goal line is the user's first prompt and
     * stays as it is; every other line (what was done, decided, left open) passes the
     * gate.
     */
    static String summaryShown(String summary, GateTally gate) {
        String[] lines = summary.split("\n", -1);
        StringBuilder out = new StringBuilder(summary.length());
        for (int i = 0; i < lines.length; i++) {
            out.append(i == 0 ? "" : "\n").append(lines[i].startsWith(GOAL) ? lines[i] : gate.gated(lines[i]));
        }
        return out.toString();
    }

    private static String openLine(OpenTask task, GateTally gate) {
        String status = task.status() == TaskStatus.IN_PROGRESS ? "in progress" : task.status().key();
        return "\n- " + ContextText.line(gate.gated(task.title()), TASK_CHARS) + " (" + status + ")  "
                + ContextText.cite(task.citation());
    }

    private static String blockedLine(OpenTask task, GateTally gate) {
        String blockers = task.blockers()
            .stream()
            .map(gate::gated)
            .map(ContextText::oneLine)
            .filter(b -> !b.isEmpty())
            .collect(Collectors.joining("; "));
        return "\n- " + ContextText.line(gate.gated(task.title()), TASK_CHARS) + " — blocked by: "
                + (blockers.isEmpty() ? "(not named)" : TextCuts.shorten(blockers, TASK_CHARS)) + "  "
                + ContextText.cite(task.citation());
    }

    private static String preferenceLine(CitedText preference) {
        return "\n- " + ContextText.line(preference.text(), PREFERENCE_CHARS) + "  "
                + ContextText.cite(preference.citation());
    }

    /** One rendered line (with its leading line break) and the citation it carries. */
    private record Item(String line, String citation) {
    }

    private record Section(String title, List<Item> items) {

        String heading() {
            return "\n\n" + title + ":";
        }

        /** The characters the whole section takes; 0 when it is empty. */
        int length() {
            return items.isEmpty() ? 0 : heading().length() + items.stream().mapToInt(i -> i.line().length()).sum();
        }
    }

}
