package dev.codememory.config.project;

import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Names the project an event belongs to: the git top level of its {@code cwd} when that
 * exists on disk, else the normalized {@code cwd} itself, so that one repository is one
 * project wherever in it Claude Code runs. Results are cached per cwd for the life of the
 * resolver.
 */
public final class ProjectResolver {

    public static final String UNKNOWN = "(unknown)";

    private final Map<String, String> cache = new ConcurrentHashMap<>();

    /** {@code path} relative to {@code project} when it lies inside it, else as it is. */
    public static String relative(String path, String project) {
        String prefix = project.endsWith("/") ? project : project + "/";
        return path.startsWith(prefix) ? path.substring(prefix.length()) : path;
    }

    public String projectOf(String cwd) {
        if (cwd == null || cwd.isBlank()) {
            return UNKNOWN;
        }
        return cache.computeIfAbsent(cwd, ProjectResolver::resolve);
    }

    private static String resolve(String cwd) {
        Path path;
        try {
            path = Path.of(cwd).normalize();
        }
        catch (InvalidPathException e) {
            return cwd;
        }
        if (!path.isAbsolute()) {
            return path.toString();
        }
        for (Path p = path; p != null; p = p.getParent()) {
            // a worktree or submodule has a .git file, a normal checkout a .git folder
            if (Files.exists(p.resolve(".git"))) {
                return p.toString();
            }
        }
        return path.toString();
    }

}
