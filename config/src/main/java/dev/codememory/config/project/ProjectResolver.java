package dev.codememory.config.project;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Names the project an event belongs to: one repository is one project wherever in it
 * Claude Code runs, in any of its subfolders and in any of its git worktrees.
 * <ul>
 * <li>In a checkout ({@code .git} folder), the project is its top level.</li>
 * <li>In a linked worktree ({@code .git} file whose {@code gitdir} is a folder under the
 * repository's {@code worktrees/}), the project is the repository's main working tree:
 * the folder holding the common {@code .git} folder (read from the worktree's
 * {@code commondir}, else the {@code worktrees/} folder's parent), or, for a bare
 * repository, the folder whose {@code .git} file points at it, else the bare repository
 * itself. The worktree stays the event's {@link #worktreeOf worktree}.</li>
 * <li>A submodule ({@code .git} file pointing anywhere else) is a repository of its own,
 * and so is a worktree whose repository is no longer on disk.</li>
 * <li>Outside any repository, the normalized {@code cwd} itself.</li>
 * </ul>
 * Results are cached per cwd for the life of the resolver.
 */
public final class ProjectResolver {

    public static final String UNKNOWN = "(unknown)";

    private static final String GIT = ".git";

    /**
     * What {@link #relative} learned of folders outside a project: their worktree root.
     */
    private static final Map<String, Optional<Tree>> TREES_SEEN = new ConcurrentHashMap<>();

    private static final int TREES_SEEN_MAX = 10_000;

    private final Map<String, Tree> cache = new ConcurrentHashMap<>();

    /** A working tree ({@code root}) and the project it belongs to. */
    private record Tree(String root, String project) {
    }

    /**
     * {@code path} relative to {@code project} when it lies inside it or inside one of
     * its worktrees, else as it is.
     */
    public static String relative(String path, String project) {
        String prefix = project.endsWith("/") ? project : project + "/";
        if (path.startsWith(prefix)) {
            return path.substring(prefix.length());
        }
        if (!path.startsWith("/") || project.equals(UNKNOWN)) {
            return path;
        }
        Path parent = parentOf(path);
        if (parent == null) {
            return path;
        }
        if (TREES_SEEN.size() > TREES_SEEN_MAX) {
            TREES_SEEN.clear();
        }
        Optional<Tree> tree = TREES_SEEN.computeIfAbsent(parent.toString(),
                p -> Optional.ofNullable(treeOf(Path.of(p))));
        if (tree.isPresent() && tree.get().project().equals(project)) {
            String root = tree.get().root().endsWith("/") ? tree.get().root() : tree.get().root() + "/";
            if (path.startsWith(root)) {
                return path.substring(root.length());
            }
        }
        return path;
    }

    public String projectOf(String cwd) {
        if (cwd == null || cwd.isBlank()) {
            return UNKNOWN;
        }
        return cache.computeIfAbsent(cwd, ProjectResolver::resolve).project();
    }

    /**
     * The working tree {@code cwd} lies in: the worktree's top level in a linked
     * worktree, else the same as {@link #projectOf}.
     */
    public String worktreeOf(String cwd) {
        if (cwd == null || cwd.isBlank()) {
            return UNKNOWN;
        }
        return cache.computeIfAbsent(cwd, ProjectResolver::resolve).root();
    }

    private static Tree resolve(String cwd) {
        Path path;
        try {
            path = Path.of(cwd).normalize();
        }
        catch (InvalidPathException e) {
            return new Tree(cwd, cwd);
        }
        if (!path.isAbsolute()) {
            return new Tree(path.toString(), path.toString());
        }
        Tree tree = treeOf(path);
        return tree != null ? tree : new Tree(path.toString(), path.toString());
    }

    /** The nearest working tree holding {@code path}, or null outside any. */
    private static Tree treeOf(Path path) {
        for (Path p = path; p != null; p = p.getParent()) {
            Path git = p.resolve(GIT);
            if (Files.isDirectory(git)) {
                return new Tree(p.toString(), p.toString());
            }
            if (Files.exists(git)) {
                return new Tree(p.toString(), mainTreeOf(p, git).toString());
            }
        }
        return null;
    }

    /**
     * The main working tree of the repository a worktree's {@code .git} file points at;
     * {@code worktree} itself when the file points at no linked worktree on disk.
     */
    private static Path mainTreeOf(Path worktree, Path gitFile) {
        Path gitDir = gitDirOf(worktree, gitFile);
        if (gitDir == null || !Files.isDirectory(gitDir)) {
            return worktree;
        }
        Path common = commonDirOf(gitDir);
        if (common == null || !Files.isDirectory(common)) {
            return worktree;
        }
        if (common.getFileName() != null && common.getFileName().toString().equals(GIT)) {
            return common.getParent();
        }
        // a bare repository: the folder beside it whose .git file points at it is its
        // main tree
        Path container = common.getParent();
        if (container != null && Files.isRegularFile(container.resolve(GIT), LinkOption.NOFOLLOW_LINKS)) {
            Path pointed = gitDirOf(container, container.resolve(GIT));
            if (common.equals(pointed)) {
                return container;
            }
        }
        return common;
    }

    /** The folder a {@code .git} file names ({@code gitdir: …}), normalized, or null. */
    private static Path gitDirOf(Path worktree, Path gitFile) {
        try {
            if (Files.size(gitFile) > 4096) {
                return null;
            }
            String text = Files.readString(gitFile, StandardCharsets.UTF_8).strip();
            if (!text.startsWith("gitdir:")) {
                return null;
            }
            return worktree.resolve(text.substring("gitdir:".length()).strip()).normalize();
        }
        catch (IOException | InvalidPathException | java.io.UncheckedIOException e) {
            return null;
        }
    }

    /**
     * The repository's common folder for a linked worktree's git folder: its
     * {@code commondir} file, else the parent of {@code worktrees/}; null for a git
     * folder that is no linked worktree's (a submodule's).
     */
    private static Path commonDirOf(Path gitDir) {
        Path commondir = gitDir.resolve("commondir");
        if (Files.isRegularFile(commondir)) {
            try {
                if (Files.size(commondir) <= 4096) {
                    return gitDir.resolve(Files.readString(commondir, StandardCharsets.UTF_8).strip()).normalize();
                }
            }
            catch (IOException | InvalidPathException e) {
                return null;
            }
        }
        Path parent = gitDir.getParent();
        if (parent != null && parent.getFileName() != null && parent.getFileName().toString().equals("worktrees")) {
            return parent.getParent();
        }
        return null;
    }

    private static Path parentOf(String path) {
        try {
            return Path.of(path).normalize().getParent();
        }
        catch (InvalidPathException e) {
            return null;
        }
    }

}
