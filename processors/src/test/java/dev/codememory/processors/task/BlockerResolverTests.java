package dev.codememory.processors.task;

import static dev.codememory.processors.task.TaskFixtures.PROJECT;
import static dev.codememory.processors.task.TaskFixtures.T0;
import static dev.codememory.processors.task.TaskFixtures.task;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.assertj.core.groups.Tuple.tuple;

import java.util.List;
import org.junit.jupiter.api.Test;

class BlockerResolverTests {

    private final BlockerResolver resolver = new BlockerResolver(new TaskMatcher());

    private final TaskState vectorSearch = task("Implement vector search", TaskStatus.IN_PROGRESS);

    private final TaskState releaseNotes = task("Write release notes", TaskStatus.PENDING);

    private final TaskState blocked = task("Ship version two", TaskStatus.PENDING);

    private final InMemoryTaskLookup lookup = InMemoryTaskLookup.of(List.of(vectorSearch, releaseNotes, blocked));

    private BlockerResolution resolve(String... texts) {
        return resolver.resolve(List.of(texts), PROJECT, blocked.taskId(), lookup, T0, "entry-1");
    }

    @Test
    void urlBecomesAnArtifactDeclaredOnce() {
        BlockerResolution r = resolve("https://example.com/spec");
        String key = TaskKeys.artifact(PROJECT, "https://example.com/spec").orElseThrow().key();
        BlockerRef expected = new BlockerRef(BlockerKind.ARTIFACT, TaskKeys.artifactId(key), key,
                "https://example.com/spec", 1.0, List.of(), false);
        assertThat(r.blockers()).containsExactly(expected);
        assertThat(r.declarations()).containsExactly(new ArtifactDeclared(TaskKeys.artifactId(key), key,
                ArtifactKind.URL, "https://example.com/spec", T0, "entry-1"));
    }

    @Test
    void jiraKeyBecomesAJiraArtifact() {
        BlockerResolution r = resolve("OPS-42");
        assertThat(r.blockers()).singleElement().satisfies(b -> {
            assertThat(b.kind()).isEqualTo(BlockerKind.ARTIFACT);
            assertThat(b.key()).isEqualTo("art:jira:OPS-42");
            assertThat(b.entityId()).isEqualTo(TaskKeys.artifactId("art:jira:OPS-42"));
        });
        assertThat(r.declarations()).singleElement()
            .isInstanceOfSatisfying(ArtifactDeclared.class, d -> assertThat(d.kind()).isEqualTo(ArtifactKind.JIRA));
    }

    @Test
    void ownerRepoIssueBecomesAGithubArtifact() {
        BlockerResolution r = resolve("anthropic/claude-code#12");
        assertThat(r.blockers()).extracting(BlockerRef::key).containsExactly("art:gh_issue:anthropic/claude-code:12");
        assertThat(r.declarations()).extracting(TaskEvent::type).containsExactly(ArtifactDeclared.TYPE);
    }

    @Test
    void explicitTaskIdLinksTheTask() {
        BlockerResolution r = resolve(releaseNotes.taskId());
        assertThat(r.blockers()).containsExactly(new BlockerRef(BlockerKind.TASK, releaseNotes.taskId(),
                releaseNotes.key(), releaseNotes.taskId(), 1.0, List.of(), false));
        assertThat(r.declarations()).isEmpty();
    }

    @Test
    void explicitTaskKeyLinksTheTask() {
        BlockerResolution r = resolve(releaseNotes.key());
        assertThat(r.blockers()).extracting(BlockerRef::kind, BlockerRef::entityId)
            .containsExactly(tuple(BlockerKind.TASK, releaseNotes.taskId()));
    }

    @Test
    void unknownTaskIdFallsBackToACondition() {
        BlockerResolution r = resolve("task_00000000000000ff");
        String key = TaskKeys.condition(PROJECT, "task_00000000000000ff");
        assertThat(r.blockers()).containsExactly(new BlockerRef(BlockerKind.CONDITION, TaskKeys.conditionId(key), key,
                "task_00000000000000ff", 0.5, List.of(), false));
        assertThat(r.declarations()).containsExactly(new ConditionDeclared(TaskKeys.conditionId(key), key,
                "task_00000000000000ff", PROJECT, false, T0, "entry-1"));
    }

    @Test
    void exactTitleLinksTheTaskWithFullConfidence() {
        assertThat(resolve("write release NOTES").blockers()).containsExactly(new BlockerRef(BlockerKind.TASK,
                releaseNotes.taskId(), releaseNotes.key(), "write release NOTES", 1.0, List.of(), false));
    }

    @Test
    void strictTitleMatchLinksTheTaskWithItsScore() {
        BlockerRef ref = resolve("Implment vector search").blockers().get(0);
        assertThat(ref.kind()).isEqualTo(BlockerKind.TASK);
        assertThat(ref.entityId()).isEqualTo(vectorSearch.taskId());
        assertThat(ref.confidence()).isCloseTo(0.6 + 0.4 * 22.0 / 23.0, within(1e-12));
    }

    @Test
    void nearMissTitleBecomesAConditionKeepingCandidates() {
        BlockerResolution r = resolve("Implement vector search index");
        String key = TaskKeys.condition(PROJECT, "Implement vector search index");
        BlockerRef ref = r.blockers().get(0);
        assertThat(ref.kind()).isEqualTo(BlockerKind.CONDITION);
        assertThat(ref.key()).isEqualTo(key).isEqualTo("cond:/home/dev/code-memory:implement vector search index");
        assertThat(ref.confidence()).isEqualTo(0.5);
        assertThat(ref.candidates()).extracting(TaskMatch::taskId).containsExactly(vectorSearch.taskId());
        // J = 3/4; C is best without spaces: 26 against 21 letters, 1 - 5/26
        assertThat(ref.candidates().get(0).score()).isCloseTo(0.6 * 0.75 + 0.4 * (21.0 / 26.0), within(1e-12));
        assertThat(r.declarations()).extracting(TaskEvent::type).containsExactly(ConditionDeclared.TYPE);
    }

    @Test
    void freeTextBecomesAConditionWithoutCandidates() {
        BlockerResolution r = resolve("API key configured");
        assertThat(r.blockers()).singleElement().satisfies(b -> {
            assertThat(b.kind()).isEqualTo(BlockerKind.CONDITION);
            assertThat(b.key()).isEqualTo("cond:/home/dev/code-memory:api key configured");
            assertThat(b.candidates()).isEmpty();
        });
    }

    @Test
    void neverDeclaresATask() {
        BlockerResolution r = resolve("Refactor the event store", "Implement vector search index", "#3", "OPS-1");
        assertThat(r.declarations()).allSatisfy(d -> assertThat(d).isNotInstanceOf(TaskCreated.class));
        assertThat(r.blockers()).extracting(BlockerRef::kind)
            .containsExactly(BlockerKind.CONDITION, BlockerKind.CONDITION, BlockerKind.ARTIFACT, BlockerKind.ARTIFACT);
    }

    @Test
    void blockedTaskIsNeverItsOwnBlocker() {
        BlockerResolution r = resolve("Ship version two", blocked.taskId());
        assertThat(r.blockers()).extracting(BlockerRef::kind)
            .containsExactly(BlockerKind.CONDITION, BlockerKind.CONDITION);
        assertThat(r.blockers()).allSatisfy(b -> assertThat(b.candidates()).isEmpty());
    }

    @Test
    void cancelledTaskWithTheSameTitleStaysACandidate() {
        TaskState cancelled = task("Migrate to Gradle", TaskStatus.CANCELLED);
        BlockerResolution r = resolver.resolve(List.of("migrate to gradle"), PROJECT, null,
                InMemoryTaskLookup.of(List.of(cancelled)), T0, "entry-1");
        assertThat(r.blockers()).singleElement().satisfies(b -> {
            assertThat(b.kind()).isEqualTo(BlockerKind.CONDITION);
            assertThat(b.candidates()).extracting(TaskMatch::taskId, TaskMatch::score)
                .containsExactly(tuple(cancelled.taskId(), 1.0));
        });
    }

    @Test
    void textsNamingTheSameEntityGiveOneReference() {
        BlockerResolution r = resolve("OPS-42", "(OPS-42)", "API key configured", "api key configured!", " ", "??");
        assertThat(r.blockers()).extracting(BlockerRef::rawText).containsExactly("OPS-42", "API key configured");
        assertThat(r.declarations()).hasSize(2);
    }

    @Test
    void placeholderIsAFlaggedConditionPerTask() {
        BlockerResolution r = resolver.placeholder(PROJECT, "Ship version two", T0, "entry-1");
        String key = "cond:/home/dev/code-memory:unknown blocker for ship version two";
        assertThat(r.blockers()).containsExactly(new BlockerRef(BlockerKind.CONDITION, TaskKeys.conditionId(key), key,
                "unknown blocker for Ship version two", 0.0, List.of(), true));
        assertThat(r.declarations()).containsExactly(new ConditionDeclared(TaskKeys.conditionId(key), key,
                "unknown blocker for Ship version two", PROJECT, true, T0, "entry-1"));
    }

}
