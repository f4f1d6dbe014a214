package dev.codememory.jobs.command;

/**
 * The exit codes of {@code jobs.jar}, the same for every command: 0 done, 1 failed, 2 bad
 * usage, 3 busy (a job or another process holds the database).
 */
public final class ExitCode {

    public static final int OK = 0;

    public static final int FAILED = 1;

    public static final int USAGE = 2;

    public static final int BUSY = 3;

    private ExitCode() {
    }

}
