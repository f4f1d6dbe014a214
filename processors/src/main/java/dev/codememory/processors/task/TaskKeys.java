package dev.codememory.processors.task;

import dev.codememory.processors.canonical.CanonicalKeys;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Canonical keys and ids of tasks, conditions and artifacts. Two mentions of the same
 * thing get the same key, and every id is a hash of its key, so ids never depend on the
 * order in which things were first seen.
 *
 * <ul>
 * <li>task: {@code task:<project>:<normalize(title)>}</li>
 * <li>condition: {@code cond:<project>:<normalize(text)>}</li>
 * <li>artifact: {@code art:url:<16 hex of sha256(normalised URL)>},
 * {@code art:jira:ABC-123}, {@code art:gh_issue:owner/repo:12},
 * {@code art:issue:<project>:123}</li>
 * </ul>
 * The project is used as given (it is the path {@code ProjectResolver} names, so it may
 * itself hold {@code :}); keys are compared whole, never split. Task and condition keys
 * are length-bounded by {@link CanonicalKeys#key}; artifact keys by the same rule (head
 * plus {@code #} and a hash), applied here because their text must not be normalised.
 */
public final class TaskKeys {

    /** Hex characters of sha256(key) in an id. */
    static final int ID_HASH_CHARS = 16;

    private static final Pattern TASK_ID = Pattern.compile("task_[0-9a-f]{" + ID_HASH_CHARS + "}");

    private static final Pattern URL = Pattern.compile("(?i)\\bhttps?://[^\\s<>\"'`]+");

    private static final Pattern GITHUB_PATH = Pattern
        .compile("/([A-Za-z0-9][A-Za-z0-9-]*)/([A-Za-z0-9._-]+)/(?:issues|pull|pulls)/([1-9][0-9]*)(?:/.*)?");

    private static final Pattern GITHUB_SHORT = Pattern
        .compile("(?<![\\w./-])([A-Za-z0-9][A-Za-z0-9-]*)/([A-Za-z0-9._-]+)#([1-9][0-9]*)\\b");

    private static final Pattern JIRA = Pattern.compile("([A-Z][A-Z0-9_]+)-([1-9][0-9]*)");

    private static final Pattern BARE_ISSUE = Pattern
        .compile("(?i)(?:(?:issue|bug|ticket|pr|pull request|pull)\\s*)?#([1-9][0-9]*)");

    /** Upper-case words followed by a number that are standards, not issue trackers. */
    private static final Set<String> NOT_JIRA = Set.of("UTF", "SHA", "MD", "ISO", "RFC", "IEEE", "ES", "TLS", "SSL",
            "HTTP", "IPV", "CVE", "ECMA", "PEP", "JSR", "JEP");

    /**
     * Wrapping that may surround a whole-text reference: brackets, quotes and trailing
     * sentence punctuation.
     */
    private static final String WRAPPING = "()[]{}<>\"'`“”‘’.,;:!?";

    private TaskKeys() {
    }

    /**
     * {@code task:<project>:<normalize(title)>}.
     * @throws InvalidTaskException when the project is blank or the title has no letter
     * or digit
     */
    public static String task(String project, String title) {
        return normalizedKey("task", project, title, "task title");
    }

    /**
     * {@code cond:<project>:<normalize(text)>}.
     * @throws InvalidTaskException when the project is blank or the text has no letter or
     * digit
     */
    public static String condition(String project, String text) {
        return normalizedKey("cond", project, text, "condition text");
    }

    /**
     * The artifact a blocker text names, if it names one strongly enough:
     * <ol>
     * <li>a text holding exactly one URL (GitHub issue and pull-request URLs become
     * {@link ArtifactKind#GH_ISSUE}, others {@link ArtifactKind#URL}); a text with
     * several URLs names none of them;</li>
     * <li>else a text holding exactly one {@code owner/repo#12};</li>
     * <li>else a whole text (brackets, quotes and end punctuation aside) that is a Jira
     * key {@code ABC-123} (upper case, project part of two or more characters, not a
     * standard such as {@code UTF-8});</li>
     * <li>else a whole text that is {@code #123}, optionally after {@code issue},
     * {@code bug}, {@code ticket}, {@code PR}, {@code pull} or {@code pull request}.</li>
     * </ol>
     * Jira keys and bare numbers must stand alone because inside prose they are too often
     * something else.
     */
    public static Optional<ArtifactRef> artifact(String project, String text) {
        if (text == null || text.isBlank()) {
            return Optional.empty();
        }
        List<String> urls = new ArrayList<>();
        Matcher url = URL.matcher(text);
        while (url.find()) {
            urls.add(stripTrailing(url.group()));
        }
        if (urls.size() == 1) {
            return Optional.of(fromUrl(urls.get(0)));
        }
        if (urls.size() > 1) {
            return Optional.empty();
        }
        Matcher gh = GITHUB_SHORT.matcher(text);
        if (gh.find()) {
            ArtifactRef found = githubIssue(gh.group(1), gh.group(2), gh.group(3));
            return gh.find() ? Optional.empty() : Optional.of(found);
        }
        String whole = unwrap(text);
        Matcher jira = JIRA.matcher(whole);
        if (jira.matches() && !NOT_JIRA.contains(jira.group(1))) {
            return Optional.of(new ArtifactRef(ArtifactKind.JIRA, bound("art:jira:" + whole), whole));
        }
        Matcher issue = BARE_ISSUE.matcher(whole);
        if (issue.matches()) {
            requireProject(project);
            String number = issue.group(1);
            return Optional
                .of(new ArtifactRef(ArtifactKind.ISSUE, bound("art:issue:" + project + ":" + number), "#" + number));
        }
        return Optional.empty();
    }

    /** {@code task_} and 16 hex characters of sha256(key). */
    public static String taskId(String taskKey) {
        return "task_" + hashOf(taskKey);
    }

    /** {@code cond_} and 16 hex characters of sha256(key). */
    public static String conditionId(String conditionKey) {
        return "cond_" + hashOf(conditionKey);
    }

    /** {@code art_} and 16 hex characters of sha256(key). */
    public static String artifactId(String artifactKey) {
        return "art_" + hashOf(artifactKey);
    }

    /**
     * Whether the whole text (surrounding space and wrapping aside) has the shape of a
     * task id.
     */
    public static boolean isTaskId(String text) {
        return text != null && TASK_ID.matcher(unwrap(text)).matches();
    }

    /**
     * Whether the whole text is a task key: starts with {@code task:} and has a project
     * and a title part.
     */
    static boolean isTaskKey(String text) {
        String t = text == null ? "" : text.strip();
        return t.startsWith("task:") && t.indexOf(':', "task:".length()) > "task:".length()
                && t.lastIndexOf(':') < t.length() - 1;
    }

    /** The text with surrounding space, brackets, quotes and end punctuation removed. */
    static String unwrap(String text) {
        int start = 0;
        int end = text.length();
        while (start < end
                && (Character.isWhitespace(text.charAt(start)) || WRAPPING.indexOf(text.charAt(start)) >= 0)) {
            start++;
        }
        while (end > start
                && (Character.isWhitespace(text.charAt(end - 1)) || WRAPPING.indexOf(text.charAt(end - 1)) >= 0)) {
            end--;
        }
        return text.substring(start, end);
    }

    /**
     * The dedupe key of an event: sha256 over its type and its parts, each part
     * length-prefixed so that no two different part lists give the same input.
     * {@code null} parts are written as {@code -1:}.
     */
    static String digest(String type, Object... parts) {
        StringBuilder in = new StringBuilder(type).append('\n');
        for (Object part : parts) {
            if (part == null) {
                in.append("-1:");
            }
            else {
                String s = part.toString();
                in.append(s.length()).append(':').append(s);
            }
            in.append('\n');
        }
        return CanonicalKeys.sha256(in.toString());
    }

    private static String normalizedKey(String prefix, String project, String text, String what) {
        requireProject(project);
        if (CanonicalKeys.normalize(text).isEmpty()) {
            throw new InvalidTaskException(what + " has no letter or digit: '" + text + "'");
        }
        return CanonicalKeys.key(prefix + ":" + project, text);
    }

    private static void requireProject(String project) {
        if (project == null || project.isBlank()) {
            throw new InvalidTaskException("project is blank");
        }
    }

    private static String hashOf(String key) {
        if (key == null || key.isBlank()) {
            throw new IllegalArgumentException("key is blank");
        }
        return CanonicalKeys.sha256(key).substring(0, ID_HASH_CHARS);
    }

    private static ArtifactRef fromUrl(String raw) {
        String normalized = normalizeUrl(raw);
        URI uri = parse(normalized);
        if (uri != null && uri.getHost() != null
                && (uri.getHost().equals("github.com") || uri.getHost().equals("www.github.com"))
                && uri.getRawPath() != null) {
            Matcher path = GITHUB_PATH.matcher(uri.getRawPath());
            if (path.matches()) {
                return githubIssue(path.group(1), path.group(2), path.group(3));
            }
        }
        String hash = CanonicalKeys.sha256(normalized).substring(0, ID_HASH_CHARS);
        return new ArtifactRef(ArtifactKind.URL, "art:url:" + hash, normalized);
    }

    private static ArtifactRef githubIssue(String owner, String repo, String number) {
        String name = (owner + "/" + repo).toLowerCase(Locale.ROOT);
        return new ArtifactRef(ArtifactKind.GH_ISSUE, bound("art:gh_issue:" + name + ":" + number),
                name + "#" + number);
    }

    /**
     * Scheme and host in lower case, {@code http} read as {@code https}, default port,
     * fragment and trailing {@code /} dropped; path and query kept as written (they may
     * be case-sensitive).
     */
    static String normalizeUrl(String raw) {
        URI uri = parse(raw);
        if (uri == null || uri.getHost() == null) {
            String lower = raw.replaceFirst("(?i)^https?://", "https://");
            int hash = lower.indexOf('#');
            String cut = hash >= 0 ? lower.substring(0, hash) : lower;
            return cut.endsWith("/") ? cut.substring(0, cut.length() - 1) : cut;
        }
        String scheme = uri.getScheme().toLowerCase(Locale.ROOT);
        int port = uri.getPort();
        boolean defaultPort = port == -1 || (scheme.equals("http") && port == 80)
                || (scheme.equals("https") && port == 443);
        StringBuilder out = new StringBuilder("https://").append(uri.getHost().toLowerCase(Locale.ROOT));
        if (!defaultPort) {
            out.append(':').append(port);
        }
        String path = uri.getRawPath() == null ? "" : uri.getRawPath();
        while (path.endsWith("/")) {
            path = path.substring(0, path.length() - 1);
        }
        out.append(path);
        if (uri.getRawQuery() != null) {
            out.append('?').append(uri.getRawQuery());
        }
        return out.toString();
    }

    private static URI parse(String url) {
        try {
            return new URI(url);
        }
        catch (URISyntaxException e) {
            return null;
        }
    }

    private static String stripTrailing(String url) {
        int end = url.length();
        while (end > 0 && ".,;:!?)]}".indexOf(url.charAt(end - 1)) >= 0) {
            end--;
        }
        return url.substring(0, end);
    }

    /**
     * The {@link CanonicalKeys#key} length rule for keys whose text must stay as written.
     */
    private static String bound(String key) {
        if (key.length() <= CanonicalKeys.MAX_KEY_CHARS) {
            return key;
        }
        String hash = CanonicalKeys.sha256(key).substring(0, 16);
        return key.substring(0, CanonicalKeys.MAX_KEY_CHARS - 17) + "#" + hash;
    }

}
