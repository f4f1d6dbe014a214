package dev.codememory.processors.workingset;

import dev.codememory.config.graduate.AssembledSession;
import dev.codememory.config.graduate.Observation;
import dev.codememory.config.graduate.StoredEvent;
import dev.codememory.config.graduate.Turn;
import dev.codememory.config.json.Json;
import dev.codememory.processors.extract.RuleBasedExtractor;
import dev.codememory.processors.extract.TodoState;
import dev.codememory.processors.turns.Prompts;
import dev.codememory.processors.turns.SessionAssembler;
import dev.codememory.processors.turns.TranscriptSource;
import java.time.Duration;
import java.time.LocalDateTime;
import java.util.Comparator;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A session's {@link WorkingSet} from its raw events, with no graduation: the events are
 * paired by the {@link SessionAssembler} (no transcript is read) and read as follows.
 * <ul>
 * <li><b>Reach.</b> Every event given counts, however old: the caller bounds them by
 * number (a session resumed days later still has its own working set, and no clock
 * enters).</li>
 * <li><b>Goal.</b> The latest prompt that asks for something: not text Claude Code wrote
 * (a task notification, the interruption marker), not one that carries nothing ("ok",
 * "continue"), not a compaction summary and not a request to pick up where the work was
 * left ({@link Prompts}).</li>
 * <li><b>To-do list.</b> Claude's list as it stands after the last TodoWrite, TaskCreate
 * and TaskUpdate ({@link TodoState}, the extractor's reading): open items (in progress
 * first, then pending, each in list order), at most {@link #MAX_OPEN_TODOS} of them, so
 * that a long list reaches the next session whole; then done ones while the list holds
 * fewer than {@link #MAX_ITEMS}; dropped items are not shown.</li>
 * <li><b>Files.</b> Files of Edit, Write, MultiEdit and NotebookEdit calls that did not
 * fail, most recent first, each once.</li>
 * <li><b>Commands.</b> Bash commands, most recent first, each once, with the outcome of
 * its latest run: a command that failed and passed later is shown as passing, one still
 * failing as failing. The output is never read.</li>
 * <li><b>Decisions.</b> Sentences of the user's prompts that the extractor's claim rules
 * read as decisions ("let's use X instead of Y", "we decided …"), newest first.</li>
 * <li><b>Files read.</b> Files of Read calls that did not fail and were not edited since,
 * most recent first, each once.</li>
 * </ul>
 * Every other list holds at most {@link #MAX_ITEMS} items. Stateless.
 */
public final class WorkingSetBuilder {

    /** At most this many items per list. */
    public static final int MAX_ITEMS = 8;

    /** At most this many open to-do items: Claude's plan is shown whole up to here. */
    public static final int MAX_OPEN_TODOS = 20;

    /**
     * At a fresh start, the last session's working set is shown when it had an event this
     * recently (the callers' rule; the builder itself reads every event it is given).
     */
    public static final Duration WINDOW = Duration.ofHours(24);

    /** Events that mark a session's course and are not work in it. */
    private static final Set<String> MARKERS = Set.of("SessionStart", "SessionEnd", "PreCompact");

    static final Set<String> EDIT_TOOLS = Set.of("Edit", "Write", "MultiEdit", "NotebookEdit");

    private final SessionAssembler assembler;

    /** A builder that reads no transcript: the branch stays unknown. */
    public WorkingSetBuilder() {
        this(TranscriptSource.NONE);
    }

    /**
     * A builder that asks {@code transcripts} for the session's branch (only that: the
     * replies are the hook's).
     */
    public WorkingSetBuilder(TranscriptSource transcripts) {
        this.assembler = new SessionAssembler(transcripts);
    }

    /**
     * @param events one session's events in seq order; empty gives an empty working set
     */
    public WorkingSet build(String sessionId, List<StoredEvent> events) {
        if (events.isEmpty()) {
            return WorkingSet.empty(sessionId);
        }
        AssembledSession session = assembler.assemble(events);
        List<WorkingSet.Cited> edited = files(session.observations());
        return new WorkingSet(sessionId, goal(session.turns()), todos(session.observations()), edited,
                commands(session.observations()), decisions(session.turns()), read(session.observations(), edited),
                session.session().branch(), lastWork(events));
    }

    /**
     * The time of the last event that is work (a prompt, a reply, a tool call), not a
     * marker (the session's start or end, a compaction); null when there is none.
     */
    private static LocalDateTime lastWork(List<StoredEvent> events) {
        return events.stream()
            .filter(e -> e.ts() != null && !MARKERS.contains(e.eventType()))
            .map(StoredEvent::ts)
            .max(Comparator.naturalOrder())
            .orElse(null);
    }

    /**
     * Whether these events (one session's, in seq order) open with a compaction summary
     * ("This session is being continued from a previous conversation…" as the first
     * prompt): the session goes on with the work of an earlier one, as older Claude Code
     * versions did after a compaction, under a new session id.
     */
    public static boolean continuesAnother(List<StoredEvent> events) {
        return events.stream()
            .filter(e -> "UserPromptSubmit".equals(e.eventType()))
            .findFirst()
            .map(e -> Json.parse(e.payloadJson()) instanceof Map<?, ?> payload
                    && payload.get("prompt") instanceof String prompt && Prompts.isCompactionSummary(prompt))
            .orElse(false);
    }

    private static WorkingSet.Cited goal(List<Turn> turns) {
        for (int i = turns.size() - 1; i >= 0; i--) {
            Turn t = turns.get(i);
            String prompt = t.promptText();
            if (prompt != null && Prompts.isSubstantive(prompt) && !Prompts.asksToContinue(prompt)) {
                return new WorkingSet.Cited(prompt.strip(), t.promptEventId());
            }
        }
        return null;
    }

    private static List<WorkingSet.Todo> todos(List<Observation> observations) {
        List<TodoState.Item> items = TodoState.of(observations);
        List<WorkingSet.Todo> out = new ArrayList<>();
        for (String status : List.of("in_progress", "pending")) {
            items.stream()
                .filter(i -> status.equals(i.status()))
                .map(i -> new WorkingSet.Todo(i.title(), i.status(), i.eventId()))
                .forEach(out::add);
        }
        out = new ArrayList<>(out.stream().limit(MAX_OPEN_TODOS).toList());
        items.stream()
            .filter(i -> "done".equals(i.status()))
            .map(i -> new WorkingSet.Todo(i.title(), i.status(), i.eventId()))
            .limit(Math.max(0, MAX_ITEMS - out.size()))
            .forEach(out::add);
        return List.copyOf(out);
    }

    private static List<WorkingSet.Cited> files(List<Observation> observations) {
        return files(observations, EDIT_TOOLS, Set.of());
    }

    /**
     * Files of the calls of {@code tools} that did not fail, most recent first, each
     * once, none of {@code shown}.
     */
    private static List<WorkingSet.Cited> files(List<Observation> observations, Set<String> tools, Set<String> shown) {
        Set<String> seen = new LinkedHashSet<>(shown);
        List<WorkingSet.Cited> out = new ArrayList<>();
        for (int i = observations.size() - 1; i >= 0 && out.size() < MAX_ITEMS; i--) {
            Observation o = observations.get(i);
            if (!tools.contains(o.tool()) || o.failed()) {
                continue;
            }
            for (String file : o.files()) {
                String relative = relative(file, o.project());
                if (out.size() < MAX_ITEMS && seen.add(relative)) {
                    out.add(new WorkingSet.Cited(relative, o.observationId()));
                }
            }
        }
        return out;
    }

    private static List<WorkingSet.Command> commands(List<Observation> observations) {
        Map<String, WorkingSet.Command> latest = new LinkedHashMap<>();
        for (int i = observations.size() - 1; i >= 0 && latest.size() < MAX_ITEMS; i--) {
            Observation o = observations.get(i);
            if (!"Bash".equals(o.tool()) || o.command() == null || o.command().isBlank()) {
                continue;
            }
            String command = o.command().strip();
            latest.putIfAbsent(command, new WorkingSet.Command(command, o.failed(), o.observationId()));
        }
        return List.copyOf(latest.values());
    }

    private static List<WorkingSet.Cited> decisions(List<Turn> turns) {
        List<WorkingSet.Cited> out = new ArrayList<>();
        Set<String> seen = new LinkedHashSet<>();
        for (int i = turns.size() - 1; i >= 0 && out.size() < MAX_ITEMS; i--) {
            Turn t = turns.get(i);
            String prompt = t.promptText();
            if (prompt == null || !Prompts.isSubstantive(prompt)) {
                continue;
            }
            List<String> found = RuleBasedExtractor.decisions(prompt);
            for (int j = found.size() - 1; j >= 0 && out.size() < MAX_ITEMS; j--) {
                if (seen.add(found.get(j))) {
                    out.add(new WorkingSet.Cited(found.get(j), t.promptEventId()));
                }
            }
        }
        return out;
    }

    private static List<WorkingSet.Cited> read(List<Observation> observations, List<WorkingSet.Cited> edited) {
        Set<String> shown = new LinkedHashSet<>();
        edited.forEach(f -> shown.add(f.text()));
        return files(observations, Set.of("Read"), shown);
    }

    /** {@code file} relative to {@code project} when it lies under it. */
    static String relative(String file, String project) {
        if (project != null && !project.isEmpty()) {
            String root = project.endsWith("/") ? project : project + "/";
            if (file.startsWith(root) && file.length() > root.length()) {
                return file.substring(root.length());
            }
        }
        return file;
    }

}
