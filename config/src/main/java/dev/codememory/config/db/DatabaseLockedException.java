package dev.codememory.config.db;

import java.nio.file.Path;
import java.util.OptionalLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The DuckDB file is held by another process; says which one when DuckDB tells us. */
public class DatabaseLockedException extends RuntimeException {

    private static final Pattern PID = Pattern.compile("PID (\\d+)");

    private final OptionalLong pid;

    public DatabaseLockedException(Path database, OptionalLong pid, Throwable cause) {
        super("the database " + database + " is in use by "
                + (pid.isPresent() ? "process " + pid.getAsLong() : "another process")
                + " (DuckDB allows one process at a time); wait for it to finish or stop it", cause);
        this.pid = pid;
    }

    public OptionalLong pid() {
        return pid;
    }

    static boolean isLockConflict(Throwable e) {
        String message = e.getMessage();
        return message != null && message.contains("Could not set lock on file");
    }

    static OptionalLong pidIn(String message) {
        if (message == null) {
            return OptionalLong.empty();
        }
        Matcher m = PID.matcher(message);
        return m.find() ? OptionalLong.of(Long.parseLong(m.group(1))) : OptionalLong.empty();
    }

}
