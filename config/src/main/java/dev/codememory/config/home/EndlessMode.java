package dev.codememory.config.home;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/**
 * Whether a home is in endless mode: at a session's start, the project's active topics
 * and the last session's working set take the place of the last session's summary. Kept
 * as one word in the owner-only file {@code endless} of the home, so the hook, serve and
 * the commands read it alike without opening the database; off when the file is absent.
 */
public final class EndlessMode {

    static final String FILE = "endless";

    private EndlessMode() {
    }

    public static boolean enabled(CodeMemoryHome home) {
        try {
            return "enabled".equals(Files.readString(file(home), StandardCharsets.UTF_8).strip());
        }
        catch (NoSuchFileException e) {
            return false;
        }
        catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file(home), e);
        }
    }

    /** Turns the mode on or off: the file is replaced in one move. */
    public static void set(CodeMemoryHome home, boolean enabled) {
        home.ensureCreated();
        Path next = home.root().resolve(FILE + ".next");
        try {
            Files.deleteIfExists(next);
            CodeMemoryHome.createPrivateFile(next);
            Files.writeString(next, enabled ? "enabled\n" : "disabled\n", StandardCharsets.UTF_8);
            Files.move(next, file(home), StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        }
        catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file(home), e);
        }
    }

    static Path file(CodeMemoryHome home) {
        return home.root().resolve(FILE);
    }

}
