package dev.codememory.jobs.runtime;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.stream.Stream;

/**
 * Removes DuckDB native libraries that killed processes left in the home's tmp folder.
 */
public final class NativeLibraryCleaner {

    private static final Duration STALE = Duration.ofMinutes(10);

    private NativeLibraryCleaner() {
    }

    public static int removeStale(Path tmp) {
        if (!Files.isDirectory(tmp)) {
            return 0;
        }
        FileTime cutoff = FileTime.from(Instant.now().minus(STALE));
        int removed = 0;
        try (Stream<Path> files = Files.list(tmp)) {
            for (Path p : (Iterable<Path>) files::iterator) {
                String name = p.getFileName().toString();
                // a running process has the library mapped already; unlinking does not
                // affect it
                if (name.startsWith("libduckdb_java") && Files.getLastModifiedTime(p).compareTo(cutoff) < 0) {
                    Files.deleteIfExists(p);
                    removed++;
                }
            }
        }
        catch (IOException e) {
            // best effort: a leftover file costs disk, not correctness
        }
        return removed;
    }

}
