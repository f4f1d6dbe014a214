package dev.codememory.config.home;

import java.nio.file.Path;
import java.util.Map;

/**
 * The user's home folder, the one every default path starts from ({@code ~/.code-memory},
 * {@code ~/.claude/settings.json}, {@code ~/.claude/projects}, the user service folders):
 * {@code $HOME} when it is set and not blank, else Java's {@code user.home}. The JVM
 * takes {@code user.home} from the password database, not from {@code $HOME}, so a
 * sandbox, a container or a test that points {@code HOME} elsewhere would otherwise still
 * read and write the real user's files. JDK only: the hook resolves its home with it.
 */
public final class UserHome {

    public static final String ENV = "HOME";

    private UserHome() {
    }

    /** The home folder of this process's environment. */
    public static Path directory() {
        return directory(System.getenv(), System.getProperty("user.home"));
    }

    /**
     * The home folder for this environment and {@code user.home} value.
     */
    public static Path directory(Map<String, String> env, String userHomeProperty) {
        String fromEnv = env.get(ENV);
        if (fromEnv != null && !fromEnv.isBlank()) {
            return Path.of(fromEnv);
        }
        return Path.of(userHomeProperty);
    }

    /**
     * The path with a leading {@code ~} or {@code ~/} read as the home folder; any other
     * path as it is.
     */
    public static Path expand(String path) {
        return expand(path, directory());
    }

    static Path expand(String path, Path home) {
        if (path.equals("~")) {
            return home;
        }
        if (path.startsWith("~/")) {
            return home.resolve(path.substring(2));
        }
        return Path.of(path);
    }

}
