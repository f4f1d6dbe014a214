package dev.codememory.processors.team;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A project's name in the team store, the same on every developer's machine although each
 * clone lives at its own path: the URL of the clone's {@code origin} remote, read from
 * {@code .git/config}, without scheme, credentials, port separator or {@code .git}
 * ({@code git@github.com:acme/shop.git} and {@code https://u:p@github.com/acme/shop} are
 * both {@code github.com/acme/shop}). A project without an origin keeps its local path:
 * shared only with homes on the same machine.
 */
public final class TeamProjectKey {

    private static final Pattern REMOTE = Pattern.compile("^\\s*\\[remote\\s+\"([^\"]+)\"\\]\\s*$");

    private static final Pattern SECTION = Pattern.compile("^\\s*\\[.*$");

    private static final Pattern URL = Pattern.compile("^\\s*url\\s*=\\s*(\\S+)\\s*$");

    private TeamProjectKey() {
    }

    /** The team key of a local project (its git top level or normalized path). */
    public static String of(String project) {
        Path config = Path.of(project).resolve(".git").resolve("config");
        if (Files.isRegularFile(config)) {
            try {
                String origin = origin(Files.readAllLines(config, StandardCharsets.UTF_8));
                if (origin != null) {
                    return normalize(origin);
                }
            }
            catch (IOException | RuntimeException e) {
                // unreadable: the local path below
            }
        }
        return project;
    }

    /** The {@code url} of {@code [remote "origin"]}, or null. */
    static String origin(List<String> lines) {
        boolean inOrigin = false;
        for (String line : lines) {
            Matcher remote = REMOTE.matcher(line);
            if (remote.matches()) {
                inOrigin = remote.group(1).equals("origin");
                continue;
            }
            if (SECTION.matcher(line).matches()) {
                inOrigin = false;
                continue;
            }
            Matcher url = URL.matcher(line);
            if (inOrigin && url.matches()) {
                return url.group(1);
            }
        }
        return null;
    }

    /** host/path of a remote URL, lower-case host, no credentials, no {@code .git}. */
    static String normalize(String url) {
        String s = url.strip();
        int scheme = s.indexOf("://");
        if (scheme >= 0) {
            s = s.substring(scheme + 3);
        }
        else if (s.matches("^[^/]+@[^/:]+:.*")) { // scp-like: git@host:owner/repo
            s = s.replaceFirst(":", "/");
        }
        int at = s.indexOf('@');
        int slash = s.indexOf('/');
        if (at >= 0 && (slash < 0 || at < slash)) {
            s = s.substring(at + 1);
        }
        slash = s.indexOf('/');
        String host = (slash < 0 ? s : s.substring(0, slash)).toLowerCase(Locale.ROOT).replaceFirst(":\\d+$", "");
        String path = slash < 0 ? "" : s.substring(slash);
        path = path.replaceAll("/+$", "").replaceFirst("\\.git$", "");
        return host + path;
    }

}
