package dev.codememory.processors.task;

import static dev.codememory.processors.task.TaskFixtures.PROJECT;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.codememory.processors.canonical.CanonicalKeys;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class TaskKeysTests {

    // ---- task and condition keys ----

    @Test
    void taskKeyIsProjectAndNormalisedTitle() {
        assertThat(TaskKeys.task("code-memory", "  Implement Vector-Search! "))
            .isEqualTo("task:code-memory:implement vector search");
        assertThat(TaskKeys.task(PROJECT, "Fix the LOGIN page"))
            .isEqualTo("task:/home/dev/code-memory:fix the login page");
    }

    @Test
    void sameTitleWrittenDifferentlyGivesSameKey() {
        assertThat(TaskKeys.task("p", "implement vector_search"))
            .isEqualTo(TaskKeys.task("p", "Implement  Vector Search."));
    }

    @Test
    void conditionKeyIsProjectAndNormalisedText() {
        assertThat(TaskKeys.condition("code-memory", "API key configured?"))
            .isEqualTo("cond:code-memory:api key configured");
    }

    @Test
    void longTitleKeyIsBoundedAndKeepsItsHead() {
        String key = TaskKeys.task("p", "word ".repeat(60));
        assertThat(key).hasSize(CanonicalKeys.MAX_KEY_CHARS).startsWith("task:p:word word");
        assertThat(key).isNotEqualTo(TaskKeys.task("p", "word ".repeat(61)));
    }

    @Test
    void titleWithoutLetterOrDigitAndBlankProjectAreRefused() {
        assertThatThrownBy(() -> TaskKeys.task("p", " ?! ")).isInstanceOf(InvalidTaskException.class)
            .hasMessage("task title has no letter or digit: ' ?! '");
        assertThatThrownBy(() -> TaskKeys.condition(" ", "x")).isInstanceOf(InvalidTaskException.class)
            .hasMessage("project is blank");
    }

    // ---- ids ----

    @Test
    void idsAreKindPrefixAndSixteenHexOfTheKeyHash() {
        String key = "task:p:fix login";
        String hash = CanonicalKeys.sha256(key).substring(0, 16);
        assertThat(TaskKeys.taskId(key)).isEqualTo("task_" + hash).hasSize(21);
        assertThat(TaskKeys.conditionId("cond:p:x"))
            .isEqualTo("cond_" + CanonicalKeys.sha256("cond:p:x").substring(0, 16));
        assertThat(TaskKeys.artifactId("art:jira:ABC-1"))
            .isEqualTo("art_" + CanonicalKeys.sha256("art:jira:ABC-1").substring(0, 16));
    }

    @Test
    void recognisesTaskIdsOnlyInFull() {
        assertThat(TaskKeys.isTaskId("task_0123456789abcdef")).isTrue();
        assertThat(TaskKeys.isTaskId(" (task_0123456789abcdef). ")).isTrue();
        assertThat(TaskKeys.isTaskId("task_0123456789ABCDEF")).isFalse();
        assertThat(TaskKeys.isTaskId("task_0123")).isFalse();
        assertThat(TaskKeys.isTaskId("see task_0123456789abcdef")).isFalse();
    }

    // ---- artifacts ----

    @Test
    void urlKeyHashesTheNormalisedUrl() {
        ArtifactRef ref = TaskKeys.artifact(PROJECT, "https://Docs.Example.com:443/Guide/Setup/?v=2#install")
            .orElseThrow();
        assertThat(ref.kind()).isEqualTo(ArtifactKind.URL);
        assertThat(ref.ref()).isEqualTo("https://docs.example.com/Guide/Setup?v=2");
        assertThat(ref.key())
            .isEqualTo("art:url:" + CanonicalKeys.sha256("https://docs.example.com/Guide/Setup?v=2").substring(0, 16));
    }

    @Test
    void httpAndHttpsAndTrailingSlashNameTheSameUrl() {
        String a = TaskKeys.artifact(PROJECT, "http://example.com/a/").orElseThrow().key();
        String b = TaskKeys.artifact(PROJECT, "https://EXAMPLE.com/a").orElseThrow().key();
        String otherPathCase = TaskKeys.artifact(PROJECT, "https://example.com/A").orElseThrow().key();
        assertThat(a).isEqualTo(b).isNotEqualTo(otherPathCase);
    }

    @Test
    void urlInsideProseIsFoundWithoutTrailingPunctuation() {
        ArtifactRef ref = TaskKeys.artifact(PROJECT, "waiting for https://example.com/rfc/42.").orElseThrow();
        assertThat(ref.ref()).isEqualTo("https://example.com/rfc/42");
    }

    @Test
    void textWithTwoUrlsNamesNoArtifact() {
        assertThat(TaskKeys.artifact(PROJECT, "https://a.example/x or https://b.example/y")).isEmpty();
    }

    @Test
    void githubIssueAndPullUrlsBecomeGithubIssueKeys() {
        assertThat(TaskKeys.artifact(PROJECT, "https://github.com/Anthropic/Claude-Code/issues/12"))
            .contains(new ArtifactRef(ArtifactKind.GH_ISSUE, "art:gh_issue:anthropic/claude-code:12",
                    "anthropic/claude-code#12"));
        assertThat(TaskKeys.artifact(PROJECT, "http://www.github.com/anthropic/claude-code/pull/12/files#diff"))
            .map(ArtifactRef::key)
            .contains("art:gh_issue:anthropic/claude-code:12");
    }

    @Test
    void githubRepoPageIsAPlainUrl() {
        assertThat(TaskKeys.artifact(PROJECT, "https://github.com/anthropic/claude-code").orElseThrow().kind())
            .isEqualTo(ArtifactKind.URL);
    }

    @Test
    void ownerRepoHashNumberIsAGithubIssue() {
        assertThat(TaskKeys.artifact(PROJECT, "owner/repo#12"))
            .contains(new ArtifactRef(ArtifactKind.GH_ISSUE, "art:gh_issue:owner/repo:12", "owner/repo#12"));
        assertThat(TaskKeys.artifact(PROJECT, "needs Owner/My.Repo#7 merged")).map(ArtifactRef::key)
            .contains("art:gh_issue:owner/my.repo:7");
        assertThat(TaskKeys.artifact(PROJECT, "a/b#1 and c/d#2")).isEmpty();
    }

    @Test
    void jiraKeyStandingAloneIsAJiraArtifact() {
        assertThat(TaskKeys.artifact(PROJECT, "ABC-123"))
            .contains(new ArtifactRef(ArtifactKind.JIRA, "art:jira:ABC-123", "ABC-123"));
        assertThat(TaskKeys.artifact(PROJECT, " (PROJ2-7). ")).map(ArtifactRef::key).contains("art:jira:PROJ2-7");
    }

    @Test
    void jiraLookalikesAreNotArtifacts() {
        assertThat(TaskKeys.artifact(PROJECT, "UTF-8")).isEmpty();
        assertThat(TaskKeys.artifact(PROJECT, "SHA-256")).isEmpty();
        assertThat(TaskKeys.artifact(PROJECT, "abc-123")).isEmpty();
        assertThat(TaskKeys.artifact(PROJECT, "A-1")).isEmpty();
        assertThat(TaskKeys.artifact(PROJECT, "review of ABC-123 by legal")).isEmpty();
    }

    @Test
    void bareIssueNumberIsAnIssueOfTheProject() {
        assertThat(TaskKeys.artifact("code-memory", "#123"))
            .contains(new ArtifactRef(ArtifactKind.ISSUE, "art:issue:code-memory:123", "#123"));
        assertThat(TaskKeys.artifact("code-memory", "PR #45")).map(ArtifactRef::key)
            .contains("art:issue:code-memory:45");
        assertThat(TaskKeys.artifact("code-memory", "issue#9")).map(ArtifactRef::key)
            .contains("art:issue:code-memory:9");
        assertThat(TaskKeys.artifact("code-memory", "fix #12 first")).isEmpty();
    }

    @Test
    void freeTextNamesNoArtifact() {
        assertThat(TaskKeys.artifact(PROJECT, "API key configured")).isEqualTo(Optional.empty());
        assertThat(TaskKeys.artifact(PROJECT, " ")).isEmpty();
    }

    @Test
    void longGithubKeyIsBounded() {
        String repo = "r".repeat(100);
        ArtifactRef ref = TaskKeys.artifact(PROJECT, "owner/" + repo + "#5").orElseThrow();
        assertThat(ref.key()).hasSize(CanonicalKeys.MAX_KEY_CHARS).startsWith("art:gh_issue:owner/rrr");
        assertThat(ref.ref()).isEqualTo("owner/" + repo + "#5");
    }

}
