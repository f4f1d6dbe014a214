package dev.codememory.jobs.install;

import com.github.difflib.DiffUtils;
import com.github.difflib.UnifiedDiffUtils;
import dev.codememory.config.home.CodeMemoryHome;
import dev.codememory.config.home.UserHome;
import dev.codememory.config.project.ProjectResolver;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermission;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Arrays;
import java.util.List;
import java.util.Set;

/**
 * A Claude Code settings file on disk: which one ({@code ~/.claude/settings.json}, a
 * project's {@code .claude/settings.json}, or a path given), reading it, a backup beside
 * it before it changes, an atomic write that keeps its permissions, and the unified diff
 * a dry run prints.
 */
final class SettingsFile {

    private static final DateTimeFormatter STAMP = DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss");

    private SettingsFile() {
    }

    /**
     * {@code --settings} if given, else the project's with {@code --project}, else the
     * user's.
     */
    static Path choose(Path settings, boolean project) {
        if (settings != null) {
            return settings.toAbsolutePath().normalize();
        }
        if (project) {
            String top = new ProjectResolver().projectOf(Path.of("").toAbsolutePath().toString());
            return Path.of(top, ".claude", "settings.json");
        }
        return UserHome.directory().resolve(".claude").resolve("settings.json");
    }

    /** The file's text, or "" when it does not exist. */
    static String read(Path file) throws IOException {
        return Files.exists(file) ? Files.readString(file, StandardCharsets.UTF_8) : "";
    }

    /**
     * Copies the file beside itself ({@code settings.json.code-memory-backup-<time>});
     * null when it did not exist.
     */
    static Path backup(Path file) throws IOException {
        if (!Files.exists(file)) {
            return null;
        }
        Path backup = file
            .resolveSibling(file.getFileName() + ".code-memory-backup-" + STAMP.format(LocalDateTime.now()));
        for (int n = 1; Files.exists(backup); n++) {
            backup = file.resolveSibling(
                    file.getFileName() + ".code-memory-backup-" + STAMP.format(LocalDateTime.now()) + "-" + n);
        }
        return Files.copy(file, backup, StandardCopyOption.COPY_ATTRIBUTES);
    }

    /**
     * Replaces the file's content through a temporary file in the same folder and an
     * atomic move, keeping the file's permissions (a new file is owner-only).
     */
    static void write(Path file, String text) throws IOException {
        Path dir = file.toAbsolutePath().getParent();
        Files.createDirectories(dir);
        Set<PosixFilePermission> permissions = null;
        try {
            permissions = Files.exists(file) ? Files.getPosixFilePermissions(file) : CodeMemoryHome.filePermissions();
        }
        catch (UnsupportedOperationException e) {
            // not a POSIX file system
        }
        Path tmp = Files.createTempFile(dir, "." + file.getFileName(), ".tmp");
        try {
            Files.writeString(tmp, text, StandardCharsets.UTF_8);
            if (permissions != null) {
                Files.setPosixFilePermissions(tmp, permissions);
            }
            Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        }
        finally {
            Files.deleteIfExists(tmp);
        }
    }

    /** A unified diff (3 lines of context) of the change; empty when there is none. */
    /** What {@link #apply} did. {@code backup}: the copy made before writing, or null. */
    record Applied(boolean changed, boolean written, Path backup) {
    }

    /**
     * Reads {@code file}, changes it with {@code change} and applies the result as
     * {@link #apply} does. Null when {@code change} refuses the file (it throws
     * {@link IllegalArgumentException}): {@code command} then says on {@code err} that
     * the file is left as it is.
     */
    static Applied edit(Path file, java.util.function.UnaryOperator<String> change, String command, boolean dryRun,
            java.io.PrintStream out, java.io.PrintStream err) throws IOException {
        String before = read(file);
        String after;
        try {
            after = change.apply(before);
        }
        catch (IllegalArgumentException e) {
            err.println(command + ": " + file + " is left as it is: " + e.getMessage());
            return null;
        }
        return apply(file, before, after, dryRun, out);
    }

    /**
     * Puts {@code after} in place of {@code before}: nothing when they are equal; with
     * {@code dryRun} the diff is printed and nothing written; otherwise the file is
     * backed up beside itself and replaced.
     */
    static Applied apply(Path file, String before, String after, boolean dryRun, java.io.PrintStream out)
            throws IOException {
        if (before.equals(after)) {
            return new Applied(false, false, null);
        }
        if (dryRun) {
            out.print(diff(file, before, after));
            out.println("dry run: " + file + " was not changed");
            return new Applied(true, false, null);
        }
        Path backup = backup(file);
        write(file, after);
        return new Applied(true, true, backup);
    }

    static String diff(Path file, String before, String after) {
        if (before.equals(after)) {
            return "";
        }
        List<String> a = lines(before);
        List<String> b = lines(after);
        List<String> diff = UnifiedDiffUtils.generateUnifiedDiff(before.isEmpty() ? "/dev/null" : file.toString(),
                file.toString(), a, DiffUtils.diff(a, b), 3);
        return String.join("\n", diff) + "\n";
    }

    private static List<String> lines(String text) {
        return text.isEmpty() ? List.of() : Arrays.asList(text.split("\n", -1));
    }

}
