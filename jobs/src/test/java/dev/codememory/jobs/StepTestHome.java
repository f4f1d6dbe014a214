package dev.codememory.jobs;

import dev.codememory.config.home.CodeMemoryHome;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/**
 * The home of an in-process step test: created and named in the system property before
 * the application context starts (so in a static field of the test), removed after the
 * class.
 */
public final class StepTestHome {

    private StepTestHome() {
    }

    /**
     * A new home in a temporary folder named after {@code prefix}, made the current one.
     */
    public static Path create(String prefix) {
        try {
            Path home = Files.createTempDirectory(prefix);
            new CodeMemoryHome(home).ensureCreated();
            System.setProperty(CodeMemoryHome.PROPERTY, home.toString());
            return home;
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Forgets the home as the current one and deletes it. */
    public static void remove(Path home) throws IOException {
        System.clearProperty(CodeMemoryHome.PROPERTY);
        try (Stream<Path> files = Files.walk(home)) {
            for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }

}
