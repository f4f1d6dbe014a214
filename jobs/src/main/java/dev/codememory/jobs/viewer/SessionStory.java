package dev.codememory.jobs.viewer;

import dev.codememory.processors.workingset.WorkingSet;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A session told as a story: its goal, what was done, what was decided, what is left
 * open, the files it changed. Taken from what already holds them, never worked out again:
 * the session's summary memory once graduation wrote one (its lines, as
 * {@code SessionSummaryComposer} lays them out, each with the citation it rests on), else
 * the session's working set read from its raw events (each item with its event).
 *
 * @param goal the user's words; null when the session stated none
 * @param from {@code summary} or {@code events}: where the story was read
 */
record SessionStory(Line goal, List<Line> done, List<Line> decided, List<Line> open, List<Line> files, String from) {

    SessionStory {
        done = List.copyOf(done);
        decided = List.copyOf(decided);
        open = List.copyOf(open);
        files = List.copyOf(files);
    }

    /**
     * A text and what it rests on: a memory's citation ({@code mem:…}) or an event id.
     */
    record Line(String text, String source) {
    }

    private static final Pattern CITED = Pattern.compile("^(.*?)\\s*\\[(mem:[A-Za-z0-9_-]+)\\]\\s*$");

    boolean isEmpty() {
        return goal == null && done.isEmpty() && decided.isEmpty() && open.isEmpty() && files.isEmpty();
    }

    /**
     * The story a summary body tells: {@code Goal:}, then the sections {@code Done},
     * {@code Decided}, {@code Left open} of {@code - item [mem:…]} lines, then
     * {@code Changed: file [mem:…], …}. A line it does not know is left out.
     */
    static SessionStory ofSummary(String body) {
        Line goal = null;
        List<Line> done = new ArrayList<>();
        List<Line> decided = new ArrayList<>();
        List<Line> open = new ArrayList<>();
        List<Line> files = new ArrayList<>();
        List<Line> section = null;
        for (String line : body.split("\n")) {
            if (line.startsWith("Goal: ")) {
                goal = cited(line.substring("Goal: ".length()));
                section = null;
            }
            else if (line.startsWith("Done")) {
                section = done;
            }
            else if (line.startsWith("Decided")) {
                section = decided;
            }
            else if (line.startsWith("Left open")) {
                section = open;
            }
            else if (line.startsWith("Changed: ")) {
                for (String file : line.substring("Changed: ".length()).split("(?<=\\]), ")) {
                    files.add(cited(file));
                }
                section = null;
            }
            else if (line.startsWith("- ") && section != null) {
                section.add(cited(line.substring(2)));
            }
        }
        return new SessionStory(goal, done, decided, open, files, "summary");
    }

    /**
     * The story of a session not summarized yet, from its working set: the goal, the
     * to-do items done and open, the decisions, the files edited.
     */
    static SessionStory ofWorkingSet(WorkingSet set) {
        List<Line> done = new ArrayList<>();
        List<Line> open = new ArrayList<>();
        for (WorkingSet.Todo todo : set.todos()) {
            (todo.open() ? open : done).add(new Line(todo.title(), todo.eventId()));
        }
        return new SessionStory(set.goal() == null ? null : line(set.goal()), done,
                set.decisions().stream().map(SessionStory::line).toList(), open,
                set.files().stream().map(SessionStory::line).toList(), "events");
    }

    private static Line line(WorkingSet.Cited cited) {
        return new Line(cited.text(), cited.eventId());
    }

    private static Line cited(String text) {
        Matcher m = CITED.matcher(text);
        return m.matches() ? new Line(m.group(1).strip(), m.group(2)) : new Line(text.strip(), null);
    }

}
