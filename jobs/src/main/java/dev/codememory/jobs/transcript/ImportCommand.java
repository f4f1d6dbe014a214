package dev.codememory.jobs.transcript;

import dev.codememory.capture.privacy.Redactor;
import dev.codememory.capture.spool.Spool;
import dev.codememory.capture.spool.SpoolLineBuilder;
import dev.codememory.config.home.CodeMemoryHome;
import dev.codememory.config.home.UserHome;
import dev.codememory.jobs.command.ExitCode;
import dev.codememory.jobs.hook.HookCommand;
import dev.codememory.jobs.invocation.Invocation;
import dev.codememory.jobs.runtime.ConsoleProgress;
import dev.codememory.jobs.runtime.JobCommandRunner;
import dev.codememory.jobs.runtime.JobRunListener;
import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code import --hooks PATH} replays a file or folder ({@code *.jsonl}, in name order)
 * of hook JSON lines through the same redaction into the spool. A line's optional
 * top-level {@code timestamp} becomes the event time at ingest; lines keep their origin
 * (file:line) so a re-import without timestamps is recognised. Bad lines are spooled
 * flagged, like bad hook input, and show up as rejects after ingest.
 *
 * <p>
 * {@code import --transcripts [PATH]} reads Claude Code's own transcripts (default
 * {@code ~/.claude/projects}) into the events its hooks would have sent
 * ({@link TranscriptImport}), then ingests them, printing what it found and what was new.
 */
@Command(name = "import", header = "bring past sessions in: Claude Code transcripts, or hook JSON lines",
        mixinStandardHelpOptions = true, sortOptions = false,
        description = { "Brings past sessions in, through the same redaction as the hook.",
                "--transcripts reads Claude Code's transcripts (prompts, replies, tool calls with their results, session "
                        + "start and end, subagents), keeps each record once however often it is read (by its uuid), "
                        + "skips lines that are not JSON, and ingests the events; a session the hooks already captured "
                        + "is not imported twice.",
                "--hooks replays hook JSON lines (one hook object per line; an optional \"timestamp\" is the event time) "
                        + "into the spool for the next ingest." },
        footer = { "", "Exit codes: 0 imported, 1 failed, 2 bad usage or no such file, 3 imported but a job holds the "
                + "database (the events are ingested by the next run)." })
public final class ImportCommand implements Callable<Integer> {

    private static final int BATCH = 1000;

    @ArgGroup(exclusive = true, multiplicity = "1")
    Source source;

    static final class Source {

        @Option(names = "--hooks", paramLabel = "PATH", required = true,
                description = "a .jsonl file of hook objects, or a folder of them")
        Path hooks;

        @Option(names = "--transcripts", paramLabel = "PATH", arity = "0..1", required = true,
                fallbackValue = "~/.claude/projects",
                description = "a transcript file or a folder searched for them (default: ~/.claude/projects)")
        String transcripts;

    }

    @Option(names = "--no-ingest", description = "--transcripts: only spool the events (the next job ingests them)")
    boolean noIngest;

    @Option(names = "--verbose", description = "also show the framework's log lines while ingesting")
    boolean verbose;

    private final PrintStream out;

    private final PrintStream err;

    private final Invocation invocation;

    public ImportCommand(PrintStream out, PrintStream err) {
        this(out, err, Invocation.local());
    }

    /** The command for {@code invocation}: in this process, or in serve for a caller. */
    public ImportCommand(PrintStream out, PrintStream err, Invocation invocation) {
        this.out = out;
        this.err = err;
        this.invocation = invocation;
    }

    @Override
    public Integer call() {
        Path path = invocation.resolve(source.hooks != null ? source.hooks : expandHome(source.transcripts));
        if (!Files.exists(path)) {
            err.println("import: no such file or folder: " + path);
            return ExitCode.USAGE;
        }
        if (!Files.isDirectory(path) && !Files.isRegularFile(path)) {
            // a FIFO or a device: opening it could wait for good
            err.println("import: not a regular file or folder: " + path);
            return ExitCode.USAGE;
        }
        CodeMemoryHome home = invocation.home().ensureCreated();
        SpoolLineBuilder builder = new SpoolLineBuilder(Redactor.defaults(), HookCommand.maxFieldBytes());
        try {
            if (source.hooks != null) {
                Result result = importHooks(path, Spool.forHome(home), builder);
                out.printf("imported %d lines from %d file(s) into %s (%d flagged as bad input)%n", result.lines(),
                        result.files(), home.spool(), result.flagged());
                out.println("run `java -jar jobs.jar --job=ingest` (or wait for `serve`) to load them");
                return 0;
            }
            return importTranscripts(path, home, builder);
        }
        catch (IOException | RuntimeException e) {
            err.println("import failed: " + e.getMessage());
            return ExitCode.FAILED;
        }
    }

    private int importTranscripts(Path path, CodeMemoryHome home, SpoolLineBuilder builder) throws IOException {
        boolean terminal = invocation.terminal();
        long start = System.nanoTime();
        TranscriptImport.Result found = TranscriptImport.run(path, Spool.forHome(home), builder, p -> {
            if (terminal) {
                out.printf("\r\033[2Kreading transcripts: %d of %d files, %s events …", p.filesDone(), p.files(),
                        ConsoleProgress.number(p.events()));
                out.flush();
            }
        });
        if (terminal) {
            out.print("\r\033[2K");
        }
        out.println(describe(path, found, System.nanoTime() - start));
        if (found.events() == 0) {
            return 0;
        }
        if (noIngest) {
            out.println("spooled; `java -jar jobs.jar --job=ingest` (or `serve`) loads them");
            return 0;
        }
        return invocation.withJobs(verbose, context -> {
            int exit = context.getBean(JobCommandRunner.class).runJob("ingest", out, err, false);
            JobRunListener.Totals before = context.getBean(JobRunListener.class).before();
            JobRunListener.Totals after = context.getBean(JobRunListener.class).after();
            if (exit == 0 && before.events() >= 0 && after.events() >= 0) {
                long added = after.events() - before.events();
                out.println(
                        added == 0 ? "added no new events: every record was imported (or captured by the hooks) before"
                                : "added " + ConsoleProgress.number(added) + " new events; `java -jar jobs.jar "
                                        + "--job=graduate` (or `serve`) turns them into memories");
            }
            else if (exit == ExitCode.BUSY) {
                out.println("the events wait in the spool; the next ingest loads them");
            }
            return exit;
        });
    }

    /**
     * "found 14 session files (…): 4,347 records, 82 invalid lines skipped, 131 repeated;
     * events: Stop 280, …".
     */
    static String describe(Path path, TranscriptImport.Result r, long nanos) {
        String byType = r.eventsByType()
            .entrySet()
            .stream()
            .map(e -> e.getKey() + " " + ConsoleProgress.number(e.getValue()))
            .collect(Collectors.joining(", "));
        return String.format(Locale.ROOT,
                "found %d session file(s) and %d subagent file(s) in %s: %s records, "
                        + "%s invalid line(s) skipped, %s repeated record(s) skipped%nspooled %s events%s in %s",
                r.sessionFiles(), r.subagentFiles(), path, ConsoleProgress.number(r.records()),
                ConsoleProgress.number(r.invalidLines()), ConsoleProgress.number(r.repeatedRecords()),
                ConsoleProgress.number(r.events()), byType.isEmpty() ? "" : " (" + byType + ")",
                ConsoleProgress.seconds(nanos));
    }

    private static Path expandHome(String path) {
        return UserHome.expand(path);
    }

    public record Result(int files, long lines, long flagged) {
    }

    public static Result importHooks(Path path, Spool spool, SpoolLineBuilder builder) throws IOException {
        List<Path> files = new ArrayList<>();
        if (Files.isDirectory(path)) {
            try (Stream<Path> list = Files.list(path)) {
                list.filter(p -> p.getFileName().toString().endsWith(".jsonl") && Files.isRegularFile(p))
                    .sorted()
                    .forEach(files::add);
            }
        }
        else {
            files.add(path);
        }
        long lines = 0;
        long flagged = 0;
        for (Path file : files) {
            List<String> batch = new ArrayList<>(BATCH);
            try (InputStream in = new BufferedInputStream(Files.newInputStream(file), 1 << 16)) {
                long lineNumber = 0;
                byte[] raw;
                while ((raw = nextLine(in)) != null) {
                    lineNumber++;
                    if (isBlank(raw)) {
                        continue;
                    }
                    SpoolLineBuilder.Line line = builder.build(raw, Instant.now(), "import", file + ":" + lineNumber);
                    if (line.flagged()) {
                        flagged++;
                    }
                    batch.add(line.json());
                    lines++;
                    if (batch.size() == BATCH) {
                        spool.appendAll(batch);
                        batch.clear();
                    }
                }
            }
            if (!batch.isEmpty()) {
                spool.appendAll(batch);
            }
        }
        return new Result(files.size(), lines, flagged);
    }

    private static byte[] nextLine(InputStream in) throws IOException {
        ByteArrayOutputStream line = new ByteArrayOutputStream(1024);
        int b;
        boolean any = false;
        while ((b = in.read()) != -1) {
            any = true;
            if (b == '\n') {
                break;
            }
            line.write(b);
        }
        if (!any) {
            return null;
        }
        byte[] bytes = line.toByteArray();
        int n = bytes.length;
        return n > 0 && bytes[n - 1] == '\r' ? java.util.Arrays.copyOf(bytes, n - 1) : bytes;
    }

    private static boolean isBlank(byte[] raw) {
        for (byte b : raw) {
            if (b != ' ' && b != '\t' && b != '\r') {
                return false;
            }
        }
        return true;
    }

}
