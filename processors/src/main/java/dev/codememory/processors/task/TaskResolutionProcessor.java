package dev.codememory.processors.task;

import dev.codememory.config.graduate.CandidateKind;
import dev.codememory.config.graduate.EntryDraft;
import dev.codememory.config.graduate.GraphUpdate.EdgeRow;
import dev.codememory.config.graduate.GraphUpdate.EntityRow;
import dev.codememory.config.graduate.GraphUpdate.ReplacedEdgeSet;
import dev.codememory.config.graduate.GraphUpdate.Supersession;
import dev.codememory.config.graduate.GraphUpdate.TaskEventRow;
import dev.codememory.config.graduate.GraphUpdate;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;
import org.springframework.batch.infrastructure.item.ItemProcessor;
import tools.jackson.databind.json.JsonMapper;

/**
 * Tasks are entities: a verified task entry is resolved against the existing tasks
 * (find-or-create, strict matching only), producing task events; the task's state is the
 * fold of its events. The processor keeps the folded state of all tasks in memory, loaded
 * from the stored task events on first use and advanced with every event it emits, so
 * each entry sees the tasks the entries before it created, in the same chunk too.
 *
 * <p>
 * Each task entry is one statement about a task (a to-do list showing it in progress, a
 * sentence saying it is blocked), linked to the task by an {@code evidence_of} edge. Of a
 * task's statements only the newest stays active (the others are superseded by it), so a
 * search finds a task once, by its latest record.
 *
 * <p>
 * A verified piece of work (a commit, a pull request) whose title strictly matches an
 * open task of its project ({@link TaskMatcher#strict}) completes it: the task moves to
 * done with the work entry as its source, and a {@code completes} edge links them.
 */
public class TaskResolutionProcessor implements ItemProcessor<EntryDraft, GraphUpdate> {

    public static final String STAGE = "tasks";

    private static final JsonMapper MAPPER = JsonMapper.builder().build();

    private final TaskResolver resolver;

    private final TaskMatcher matcher = new TaskMatcher();

    private final TaskProjector projector = new TaskProjector();

    private final Supplier<List<TaskEventRow>> storedEvents;

    private final Supplier<List<TaskStatement>> storedStatements;

    private TaskIndex tasks;

    /** Per task, its active statement: the newest entry that speaks of it. */
    private Map<String, TaskStatement> latest;

    /** An active task entry that speaks of a task. */
    public record TaskStatement(String taskId, String entryId, LocalDateTime ts) {

        boolean newerThan(TaskStatement other) {
            int byTime = ts.compareTo(other.ts);
            return byTime != 0 ? byTime > 0 : entryId.compareTo(other.entryId) > 0;
        }
    }

    /**
     * @param storedEvents the task events already stored, in seq order
     * @param storedStatements the active task entries already linked to their tasks
     */
    public TaskResolutionProcessor(TaskResolver resolver, Supplier<List<TaskEventRow>> storedEvents,
            Supplier<List<TaskStatement>> storedStatements) {
        this.resolver = resolver;
        this.storedEvents = storedEvents;
        this.storedStatements = storedStatements;
    }

    @Override
    public GraphUpdate process(EntryDraft entry) {
        if (tasks == null) {
            tasks = new TaskIndex(
                    projector.project(storedEvents.get().stream().map(TaskResolutionProcessor::decode).toList())
                        .values());
            latest = new HashMap<>();
            for (TaskStatement s : storedStatements.get()) {
                latest.merge(s.taskId(), s, (a, b) -> b.newerThan(a) ? b : a);
            }
        }
        if (entry.kind() == CandidateKind.WORK) {
            return completes(entry);
        }
        if (entry.task() == null) {
            return GraphUpdate.markOnly(entry.entryId(), STAGE);
        }
        TaskResolution resolution = resolver.resolve(
                new TaskCandidate(entry.title(), entry.task(), entry.project(), entry.ts(), entry.entryId(), true),
                tasks);
        List<TaskEventRow> events = new ArrayList<>();
        List<EntityRow> entities = new ArrayList<>();
        for (TaskEvent e : resolution.events()) {
            events.add(row(e));
            if (e instanceof ConditionDeclared d) {
                entities.add(new EntityRow(d.conditionId(), "condition", d.key(), d.project(), d.text(), "active",
                        MAPPER.writeValueAsString(d)));
            }
            else if (e instanceof ArtifactDeclared a) {
                entities.add(new EntityRow(a.artifactId(), "artifact", a.key(), null, a.ref(), "active",
                        MAPPER.writeValueAsString(a)));
            }
            else {
                advance(e);
            }
        }
        TaskState task = resolution.taskId() == null ? null : tasks.byId(resolution.taskId()).orElse(null);
        List<EdgeRow> edges = new ArrayList<>();
        List<ReplacedEdgeSet> cleared = new ArrayList<>();
        List<Supersession> supersessions = new ArrayList<>();
        if (task != null) {
            entities.add(entity(task));
            edges.add(new EdgeRow("entry", entry.entryId(), "evidence_of", "entity", task.taskId(), null));
            cleared.add(new ReplacedEdgeSet(task.taskId(), "blocked_by"));
            cleared.add(new ReplacedEdgeSet(task.taskId(), "blocked_by_suggested"));
            for (BlockerRef b : task.blockers()) {
                edges.add(blockerEdge(task, "blocked_by", b));
            }
            for (BlockerRef b : task.suggestedBlockers()) {
                edges.add(blockerEdge(task, "blocked_by_suggested", b));
            }
            supersede(new TaskStatement(task.taskId(), entry.entryId(), entry.ts()), supersessions);
        }
        return new GraphUpdate(entry.entryId(), STAGE, events, entities, cleared, edges, supersessions);
    }

    /** A piece of work completes the open task its title strictly matches, if any. */
    private GraphUpdate completes(EntryDraft work) {
        TaskLookup lookup = tasks;
        List<TaskMatch> ranked = matcher.rank(work.title(), work.project(), lookup, TaskMatcher.STRICT_FLOOR)
            .stream()
            .filter(m -> m.status() != TaskStatus.DONE && m.status() != TaskStatus.CANCELLED)
            .toList();
        Optional<TaskState> match = TaskMatcher.strict(ranked).flatMap(m -> lookup.byId(m.taskId()));
        if (match.isEmpty() || work.ts().isBefore(match.get().updatedTs())) {
            return GraphUpdate.markOnly(work.entryId(), STAGE);
        }
        TaskState task = match.get();
        TaskStatusChanged done = new TaskStatusChanged(task.taskId(), task.status(), TaskStatus.DONE, work.ts(),
                work.entryId());
        advance(done);
        return new GraphUpdate(work.entryId(), STAGE, List.of(row(done)),
                List.of(entity(tasks.byId(task.taskId()).orElseThrow())),
                List.of(new ReplacedEdgeSet(task.taskId(), "blocked_by"),
                        new ReplacedEdgeSet(task.taskId(), "blocked_by_suggested")),
                List.of(new EdgeRow("entry", work.entryId(), "completes", "entity", task.taskId(), null)), List.of());
    }

    /**
     * The newest statement of a task stays active; the one it replaces is superseded by
     * it.
     */
    private void supersede(TaskStatement statement, List<Supersession> out) {
        TaskStatement current = latest.get(statement.taskId());
        if (current == null || current.entryId().equals(statement.entryId())) {
            latest.put(statement.taskId(), statement);
        }
        else if (statement.newerThan(current)) {
            out.add(new Supersession(current.entryId(), statement.entryId(), 1.0));
            latest.put(statement.taskId(), statement);
        }
        else {
            out.add(new Supersession(statement.entryId(), current.entryId(), 1.0));
        }
    }

    private void advance(TaskEvent e) {
        TaskState next = projector.apply(tasks.byId(e.entityId()).orElse(null), e);
        if (next != null) {
            tasks.put(next);
        }
    }

    private static TaskEventRow row(TaskEvent e) {
        return new TaskEventRow(e.dedupeKey(), e.type(), e.entityId(), MAPPER.writeValueAsString(e), e.ts(),
                e.sourceEntryId());
    }

    private static EntityRow entity(TaskState task) {
        return new EntityRow(task.taskId(), "task", task.key(), task.project(), task.title(),
                task.status().name().toLowerCase(Locale.ROOT), MAPPER.writeValueAsString(task));
    }

    /** A stored task event back as its record. */
    static TaskEvent decode(TaskEventRow row) {
        Class<? extends TaskEvent> type = switch (row.eventType()) {
            case TaskCreated.TYPE -> TaskCreated.class;
            case TaskStatusChanged.TYPE -> TaskStatusChanged.class;
            case TaskPriorityChanged.TYPE -> TaskPriorityChanged.class;
            case TaskBlockersSet.TYPE -> TaskBlockersSet.class;
            case TaskTransitionRejected.TYPE -> TaskTransitionRejected.class;
            case ConditionDeclared.TYPE -> ConditionDeclared.class;
            case ArtifactDeclared.TYPE -> ArtifactDeclared.class;
            default -> throw new IllegalArgumentException("unknown task event type " + row.eventType());
        };
        return MAPPER.readValue(row.payloadJson(), type);
    }

    private static EdgeRow blockerEdge(TaskState task, String rel, BlockerRef b) {
        return new EdgeRow("entity", task.taskId(), rel, "entity", b.entityId(), MAPPER.writeValueAsString(Map
            .of("kind", b.kind().name().toLowerCase(Locale.ROOT), "raw", b.rawText(), "confidence", b.confidence())));
    }

}
