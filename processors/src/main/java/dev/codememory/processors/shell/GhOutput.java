package dev.codememory.processors.shell;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads what {@code gh pr create} / {@code gh issue create} printed. Stateless and
 * thread-safe.
 */
public final class GhOutput {

    private static final Pattern URL = Pattern
        .compile("https://[A-Za-z0-9.-]+(?::\\d+)?/[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+/(?:pull|issues)/\\d+");

    private GhOutput() {
    }

    /**
     * The first pull request or issue URL in {@code output} (raw text or JSON), or null
     * when there is none or {@code output} is null:
     * {@code https://<host>/<owner>/<repo>/pull/<n>} or {@code …/issues/<n>}, the host
     * github.com or a GitHub Enterprise host, owner and repository runs of letters,
     * digits and {@code _ . -}. gh prints the URL of what it created; it also prints the
     * URL of the pull request that already exists when it refuses to create another.
     */
    public static String url(String output) {
        if (output == null) {
            return null;
        }
        Matcher m = URL.matcher(output);
        return m.find() ? m.group() : null;
    }

}
