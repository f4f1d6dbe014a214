package dev.codememory.processors.shell;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class GhOutputTests {

    @Test
    void readsPullRequestUrlFromRawOutput() {
        String output = "\nCreating pull request for fix into main in acme/code-memory\n\n"
                + "https://github.com/acme/code-memory/pull/42\n";

        assertThat(GhOutput.url(output)).isEqualTo("https://github.com/acme/code-memory/pull/42");
    }

    @Test
    void readsIssueUrlFromCompactJson() {
        String output = "{\"stdout\":\"https://github.com/acme/code-memory/issues/7\\n\",\"stderr\":\"Creating issue"
                + " in acme/code-memory\\n\",\"interrupted\":false}";

        assertThat(GhOutput.url(output)).isEqualTo("https://github.com/acme/code-memory/issues/7");
    }

    @Test
    void readsEnterpriseHostsAndTakesTheFirstUrl() {
        assertThat(GhOutput.url("https://git.corp.example.com:8443/team/repo.js/pull/1234/files"))
            .isEqualTo("https://git.corp.example.com:8443/team/repo.js/pull/1234");
        assertThat(GhOutput.url("https://github.com/a/b/pull/3 https://github.com/a/b/pull/4"))
            .isEqualTo("https://github.com/a/b/pull/3");
    }

    @Test
    void otherUrlsAreNoPullRequestOrIssue() {
        assertThat(GhOutput.url("https://github.com/acme/code-memory")).isNull();
        assertThat(GhOutput.url("https://github.com/acme/code-memory/pulls")).isNull();
        assertThat(GhOutput.url("http://github.com/acme/code-memory/pull/1")).isNull();
        assertThat(GhOutput.url(null)).isNull();
    }

}
