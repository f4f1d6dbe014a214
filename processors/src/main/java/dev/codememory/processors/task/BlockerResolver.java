package dev.codememory.processors.task;

import dev.codememory.processors.canonical.CanonicalKeys;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Turns the blockers a task entry names into entity references. Per text, first rule that
 * applies:
 * <ol>
 * <li>an artifact pattern ({@link TaskKeys#artifact}: URL, {@code owner/repo#12},
 * {@code ABC-123}, {@code #12}) → {@link BlockerKind#ARTIFACT}, confidence 1.0, declared
 * with {@link ArtifactDeclared};</li>
 * <li>an explicit task id ({@code task_…}) or task key ({@code task:…}) of an existing
 * task → {@link BlockerKind#TASK}, confidence 1.0; an id or key of no known task falls
 * through;</li>
 * <li>a title whose canonical key is an existing, not cancelled task's → that task,
 * confidence 1.0;</li>
 * <li>a title that matches an existing task strictly ({@link TaskMatcher#strict}) → that
 * task, confidence = score;</li>
 * <li>anything else → {@link BlockerKind#CONDITION} on the text, confidence
 * {@value #CONDITION_CONFIDENCE}, declared with {@link ConditionDeclared}, keeping as
 * candidates the tasks scoring at least {@value TaskMatcher#CANDIDATE_MIN_SCORE} (best
 * {@value #MAX_CANDIDATES}).</li>
 * </ol>
 * A task is never created here: a blocker that might be a task but is not one beyond
 * doubt stays a condition, so loose wording cannot multiply tasks. The blocked task
 * itself is never its own blocker. Texts with no letter or digit are skipped, and two
 * texts naming the same entity give one reference.
 */
public final class BlockerResolver {

    public static final double CONDITION_CONFIDENCE = 0.5;
    static final int MAX_CANDIDATES = 3;
    static final String PLACEHOLDER_PREFIX = "unknown blocker for ";

    private final TaskMatcher matcher;

    public BlockerResolver(TaskMatcher matcher) {
        this.matcher = Objects.requireNonNull(matcher, "matcher");
    }

    /**
     * @param blockedTaskId the task these texts block, never resolved as its own blocker;
     * {@code null} when none
     */
    public BlockerResolution resolve(List<String> texts, String project, String blockedTaskId, TaskLookup lookup,
            LocalDateTime ts, String sourceEntryId) {
        Map<String, BlockerRef> refs = new LinkedHashMap<>();
        Map<String, TaskEvent> declarations = new LinkedHashMap<>();
        for (String raw : texts) {
            if (raw == null || CanonicalKeys.normalize(raw).isEmpty()) {
                continue;
            }
            String text = raw.strip();
            Optional<ArtifactRef> artifact = TaskKeys.artifact(project, text);
            if (artifact.isPresent()) {
                ArtifactRef a = artifact.get();
                refs.putIfAbsent(a.artifactId(),
                        new BlockerRef(BlockerKind.ARTIFACT, a.artifactId(), a.key(), text, 1.0, List.of(), false));
                declarations.putIfAbsent(a.artifactId(),
                        new ArtifactDeclared(a.artifactId(), a.key(), a.kind(), a.ref(), ts, sourceEntryId));
                continue;
            }
            Optional<BlockerRef> task = explicitTask(text, blockedTaskId, lookup)
                .or(() -> exactTitle(text, project, blockedTaskId, lookup));
            if (task.isPresent()) {
                refs.putIfAbsent(task.get().entityId(), task.get());
                continue;
            }
            List<TaskMatch> ranked = matcher.rank(text, project, lookup, TaskMatcher.CANDIDATE_MIN_SCORE)
                .stream()
                .filter(m -> !m.taskId().equals(blockedTaskId))
                .toList();
            Optional<TaskMatch> strict = TaskMatcher.strict(ranked);
            if (strict.isPresent()) {
                TaskMatch m = strict.get();
                refs.putIfAbsent(m.taskId(),
                        new BlockerRef(BlockerKind.TASK, m.taskId(), m.key(), text, m.score(), List.of(), false));
                continue;
            }
            List<TaskMatch> candidates = ranked.stream()
                .filter(m -> m.score() >= TaskMatcher.CANDIDATE_MIN_SCORE)
                .limit(MAX_CANDIDATES)
                .toList();
            String key = TaskKeys.condition(project, text);
            String conditionId = TaskKeys.conditionId(key);
            refs.putIfAbsent(conditionId, new BlockerRef(BlockerKind.CONDITION, conditionId, key, text,
                    CONDITION_CONFIDENCE, candidates, false));
            declarations.putIfAbsent(conditionId,
                    new ConditionDeclared(conditionId, key, text, project, false, ts, sourceEntryId));
        }
        return new BlockerResolution(new ArrayList<>(refs.values()), new ArrayList<>(declarations.values()));
    }

    /**
     * The "unknown blocker" condition of a task that is blocked by nothing named: one per
     * task, flagged {@code autoPlaceholder}, confidence 0.0.
     */
    public BlockerResolution placeholder(String project, String taskTitle, LocalDateTime ts, String sourceEntryId) {
        BlockerRef ref = placeholderRef(project, taskTitle);
        return new BlockerResolution(List.of(ref), List
            .of(new ConditionDeclared(ref.entityId(), ref.key(), ref.rawText(), project, true, ts, sourceEntryId)));
    }

    static BlockerRef placeholderRef(String project, String taskTitle) {
        String text = PLACEHOLDER_PREFIX + taskTitle.strip();
        String key = TaskKeys.condition(project, text);
        return new BlockerRef(BlockerKind.CONDITION, TaskKeys.conditionId(key), key, text, 0.0, List.of(), true);
    }

    private static Optional<BlockerRef> explicitTask(String text, String blockedTaskId, TaskLookup lookup) {
        Optional<TaskState> named = Optional.empty();
        if (TaskKeys.isTaskId(text)) {
            named = lookup.byId(TaskKeys.unwrap(text));
        }
        else if (TaskKeys.isTaskKey(text)) {
            named = lookup.byKey(text);
        }
        return named.filter(t -> !t.taskId().equals(blockedTaskId)).map(t -> taskRef(t, text, 1.0));
    }

    private static Optional<BlockerRef> exactTitle(String text, String project, String blockedTaskId,
            TaskLookup lookup) {
        return lookup.byKey(TaskKeys.task(project, text))
            .filter(t -> !t.taskId().equals(blockedTaskId) && t.status() != TaskStatus.CANCELLED)
            .map(t -> taskRef(t, text, 1.0));
    }

    private static BlockerRef taskRef(TaskState task, String text, double confidence) {
        return new BlockerRef(BlockerKind.TASK, task.taskId(), task.key(), text, confidence, List.of(), false);
    }

}
