package dev.codememory.jobs.cli;

public final class BenchCommand {
    private BenchCommand() {
    }

    public static int run(String[] args) {
        return 2;
    }
}
