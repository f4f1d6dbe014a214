package dev.codememory.processors.task;

/**
 * The kinds of outside thing a blocker can name. Each has its own key space
 * ({@code art:<prefix>:…}).
 */
public enum ArtifactKind {

    /** Any web address: {@code art:url:<hash of the normalised URL>}. */
    URL("url"),
    /** A Jira-style issue key: {@code art:jira:ABC-123}. */
    JIRA("jira"),
    /**
     * A GitHub issue or pull request (they share one number space):
     * {@code art:gh_issue:owner/repo:12}.
     */
    GH_ISSUE("gh_issue"),
    /**
     * A bare {@code #123} in the project's own tracker: {@code art:issue:<project>:123}.
     */
    ISSUE("issue");

    private final String prefix;

    ArtifactKind(String prefix) {
        this.prefix = prefix;
    }

    /** The key segment after {@code art:}. */
    public String prefix() {
        return prefix;
    }

}
