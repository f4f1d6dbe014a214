package dev.codememory.config.home;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.stream.Stream;

/**
 * The folder that holds everything code-memory keeps: the spool, the DuckDB file, the
 * batch metadata, logs. Resolved from {@code CODE_MEMORY_HOME} (or the
 * {@code code-memory.home} system property), else {@code ~/.code-memory} ({@code ~} as
 * {@link UserHome} reads it: {@code $HOME} first). Everything created here is readable by
 * the owner only.
 */
public record CodeMemoryHome(Path root) {

    public static final String ENV = "CODE_MEMORY_HOME";

    public static final String PROPERTY = "code-memory.home";

    // Set.of, not PosixFilePermissions.fromString: an EnumSet finds its enum's constants
    // by reflection, which costs
    // every hook process a millisecond or two before it has read a byte
    private static final Set<PosixFilePermission> DIR_PERMS = Set.of(PosixFilePermission.OWNER_READ,
            PosixFilePermission.OWNER_WRITE, PosixFilePermission.OWNER_EXECUTE);

    private static final Set<PosixFilePermission> FILE_PERMS = Set.of(PosixFilePermission.OWNER_READ,
            PosixFilePermission.OWNER_WRITE);

    public CodeMemoryHome {
        Objects.requireNonNull(root, "root");
        root = root.toAbsolutePath().normalize();
    }

    public static CodeMemoryHome resolve() {
        return resolve(System.getenv(), System.getProperty(PROPERTY));
    }

    static CodeMemoryHome resolve(Map<String, String> env, String property) {
        if (property != null && !property.isBlank()) {
            return new CodeMemoryHome(Path.of(property));
        }
        String fromEnv = env.get(ENV);
        if (fromEnv != null && !fromEnv.isBlank()) {
            return new CodeMemoryHome(Path.of(fromEnv));
        }
        return new CodeMemoryHome(UserHome.directory(env, System.getProperty("user.home")).resolve(".code-memory"));
    }

    public Path spool() {
        return root.resolve("spool");
    }

    /** Spool files closed for writing, waiting for the ingest step. */
    public Path sealedSpool() {
        return spool().resolve("sealed");
    }

    public Path logs() {
        return root.resolve("logs");
    }

    public Path database() {
        return root.resolve("memory.duckdb");
    }

    public Path batchMetadata() {
        return root.resolve("batch-metadata.sqlite");
    }

    /** Held while a job runs; names the process that holds it. */
    public Path jobLock() {
        return root.resolve("jobs.lock");
    }

    public Path tmp() {
        return root.resolve("tmp");
    }

    /** Creates the folders (owner-only) if missing and returns this. */
    public CodeMemoryHome ensureCreated() {
        createPrivateDirectory(root);
        createPrivateDirectory(spool());
        createPrivateDirectory(sealedSpool());
        createPrivateDirectory(logs());
        return this;
    }

    /**
     * Restricts every file and folder under the home to its owner (files created by
     * native code included).
     */
    public void restrictPermissions() {
        if (!Files.isDirectory(root)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(root)) {
            paths.forEach(p -> setPermissions(p, Files.isDirectory(p) ? DIR_PERMS : FILE_PERMS));
        }
        catch (IOException | UncheckedIOException e) {
            // a file may vanish while we walk (a spool file ingested meanwhile):
            // permissions of the rest still hold
        }
    }

    public static void createPrivateDirectory(Path dir) {
        try {
            if (!Files.isDirectory(dir)) {
                Files.createDirectories(dir);
            }
            setPermissions(dir, DIR_PERMS);
        }
        catch (IOException e) {
            throw new UncheckedIOException("cannot create " + dir, e);
        }
    }

    /** Creates an empty owner-only file if it does not exist yet. */
    public static void createPrivateFile(Path file) {
        try {
            Files.createFile(file, PosixFilePermissions.asFileAttribute(FILE_PERMS));
        }
        catch (FileAlreadyExistsException e) {
            setPermissions(file, FILE_PERMS);
        }
        catch (UnsupportedOperationException e) {
            try {
                Files.createFile(file);
            }
            catch (IOException ignored) {
                // exists
            }
        }
        catch (IOException e) {
            throw new UncheckedIOException("cannot create " + file, e);
        }
    }

    public static Set<PosixFilePermission> filePermissions() {
        return FILE_PERMS;
    }

    private static void setPermissions(Path path, Set<PosixFilePermission> perms) {
        try {
            Files.setPosixFilePermissions(path, perms);
        }
        catch (UnsupportedOperationException | IOException e) {
            // not a POSIX file system (Windows): the user's profile folder is private
            // already
        }
    }
}
