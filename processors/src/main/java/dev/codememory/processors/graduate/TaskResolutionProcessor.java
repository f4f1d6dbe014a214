package dev.codememory.processors.graduate;

import dev.codememory.config.graduate.EntryDraft;
import dev.codememory.config.graduate.GraphUpdate;
import dev.codememory.config.graduate.GraphUpdate.EdgeRow;
import dev.codememory.config.graduate.GraphUpdate.EntityRow;
import dev.codememory.config.graduate.GraphUpdate.ReplacedEdgeSet;
import dev.codememory.config.graduate.GraphUpdate.TaskEventRow;
import dev.codememory.processors.task.ArtifactDeclared;
import dev.codememory.processors.task.BlockerRef;
import dev.codememory.processors.task.ConditionDeclared;
import dev.codememory.processors.task.TaskBlockersSet;
import dev.codememory.processors.task.TaskCandidate;
import dev.codememory.processors.task.TaskCreated;
import dev.codememory.processors.task.TaskPriorityChanged;
import dev.codememory.processors.task.TaskStatusChanged;
import dev.codememory.processors.task.TaskTransitionRejected;
import dev.codememory.processors.task.TaskEvent;
import dev.codememory.processors.task.TaskLookup;
import dev.codememory.processors.task.TaskProjector;
import dev.codememory.processors.task.TaskResolution;
import dev.codememory.processors.task.TaskResolver;
import dev.codememory.processors.task.TaskState;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;
import org.springframework.batch.infrastructure.item.ItemProcessor;
import tools.jackson.databind.json.JsonMapper;

/**
 * Tasks are entities: a verified task entry is resolved against the existing tasks (find-or-create, strict
 * matching only), producing task events; the task's state is the fold of its events. The processor keeps the
 * folded state of all tasks in memory, loaded from the stored task events on first use and advanced with every
 * event it emits, so the step must run with chunk size 1 (each entry sees the tasks the previous one created).
 */
public class TaskResolutionProcessor implements ItemProcessor<EntryDraft, GraphUpdate> {

    public static final String STAGE = "tasks";

    private static final JsonMapper MAPPER = JsonMapper.builder().build();

    private final TaskResolver resolver;
    private final TaskProjector projector = new TaskProjector();
    private final Supplier<List<TaskEventRow>> storedEvents;
    private Map<String, TaskState> tasks;

    /** @param storedEvents the task events already stored, in seq order */
    public TaskResolutionProcessor(TaskResolver resolver, Supplier<List<TaskEventRow>> storedEvents) {
        this.resolver = resolver;
        this.storedEvents = storedEvents;
    }

    @Override
    public GraphUpdate process(EntryDraft entry) {
        if (tasks == null) {
            tasks = new LinkedHashMap<>(projector.project(storedEvents.get().stream()
                    .map(TaskResolutionProcessor::decode).toList()));
        }
        if (entry.task() == null) {
            return GraphUpdate.markOnly(entry.entryId(), STAGE);
        }
        TaskResolution resolution = resolver.resolve(new TaskCandidate(entry.title(), entry.task(), entry.project(),
                entry.ts(), entry.entryId(), true), lookup());
        List<TaskEventRow> events = new ArrayList<>();
        List<EntityRow> entities = new ArrayList<>();
        for (TaskEvent e : resolution.events()) {
            events.add(new TaskEventRow(e.dedupeKey(), e.type(), e.entityId(), MAPPER.writeValueAsString(e), e.ts(),
                    e.sourceEntryId()));
            if (e instanceof ConditionDeclared d) {
                entities.add(new EntityRow(d.conditionId(), "condition", d.key(), d.project(), d.text(), "active",
                        MAPPER.writeValueAsString(d)));
            } else if (e instanceof ArtifactDeclared a) {
                entities.add(new EntityRow(a.artifactId(), "artifact", a.key(), null, a.ref(), "active",
                        MAPPER.writeValueAsString(a)));
            } else {
                TaskState next = projector.apply(tasks.get(e.entityId()), e);
                if (next != null) {
                    tasks.put(next.taskId(), next);
                }
            }
        }
        TaskState task = tasks.get(resolution.taskId());
        List<EdgeRow> edges = new ArrayList<>();
        List<ReplacedEdgeSet> cleared = new ArrayList<>();
        if (task != null) {
            entities.add(new EntityRow(task.taskId(), "task", task.key(), task.project(), task.title(),
                    task.status().name().toLowerCase(Locale.ROOT), MAPPER.writeValueAsString(task)));
            edges.add(new EdgeRow("entry", entry.entryId(), "evidence_of", "entity", task.taskId(), null));
            cleared.add(new ReplacedEdgeSet(task.taskId(), "blocked_by"));
            cleared.add(new ReplacedEdgeSet(task.taskId(), "blocked_by_suggested"));
            for (BlockerRef b : task.blockers()) {
                edges.add(blockerEdge(task, "blocked_by", b));
            }
            for (BlockerRef b : task.suggestedBlockers()) {
                edges.add(blockerEdge(task, "blocked_by_suggested", b));
            }
        }
        return new GraphUpdate(entry.entryId(), STAGE, events, entities, cleared, edges, List.of());
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
        return new EdgeRow("entity", task.taskId(), rel, "entity", b.entityId(),
                MAPPER.writeValueAsString(Map.of("kind", b.kind().name().toLowerCase(Locale.ROOT), "raw",
                        b.rawText(), "confidence", b.confidence())));
    }

    private TaskLookup lookup() {
        return new TaskLookup() {
            @Override
            public Optional<TaskState> byKey(String key) {
                return tasks.values().stream().filter(t -> t.key().equals(key)).findFirst();
            }

            @Override
            public Optional<TaskState> byId(String taskId) {
                return Optional.ofNullable(tasks.get(taskId));
            }

            @Override
            public List<TaskState> all(String project) {
                return tasks.values().stream().filter(t -> t.project().equals(project))
                        .sorted(Comparator.comparing(TaskState::taskId)).toList();
            }
        };
    }
}
