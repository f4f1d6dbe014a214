package dev.codememory.jobs.demo;

import dev.codememory.capture.spool.Spool;
import dev.codememory.capture.spool.SpoolLineBuilder;
import dev.codememory.config.home.CodeMemoryHome;
import dev.codememory.config.json.Json;
import dev.codememory.jobs.command.ExitCode;
import dev.codememory.jobs.hook.HookCommand;
import dev.codememory.jobs.runtime.CodeMemoryApplication;
import dev.codememory.jobs.runtime.ConsoleProgress;
import dev.codememory.jobs.runtime.JobCommandRunner;
import dev.codememory.jobs.transcript.TranscriptImport;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code demo}: the product on a small sample of sessions it ships (three made-up Claude
 * Code sessions of a made-up project, as transcripts), in a home of its own — never the
 * user's. It imports them as {@code import --transcripts} does, runs the main job
 * ({@code --job=graduate}), then runs the real hook for the next session's SessionStart
 * and for one prompt, and prints what Claude would be shown each time.
 */
@Command(name = "demo", header = "see it work on a shipped sample of sessions, in a home of its own",
        mixinStandardHelpOptions = true, sortOptions = false,
        description = { "Shows code-memory working on a small sample of sessions it ships, in a fresh home of its own "
                + "(your ~/.code-memory is not touched): imports them, runs --job=graduate, then prints what Claude "
                + "would be shown at the next SessionStart and for one prompt." },
        footer = { "", "Exit codes: 0 shown, 1 failed." })
public final class DemoCommand implements Callable<Integer> {

    /** The sample sessions, in {@code src/main/resources/demo/}. */
    static final List<String> SESSIONS = List.of("0d3c2a10-5e7b-4c1d-9f00-000000000001",
            "0d3c2a10-5e7b-4c1d-9f00-000000000002", "0d3c2a10-5e7b-4c1d-9f00-000000000003");

    /** Where the sample sessions say they ran: their project. */
    static final String PROJECT = "/home/demo/shop-api";
    static final String PROMPT = "Why do we keep the invoices in PostgreSQL and not in DuckDB?";
    static final String NEXT_SESSION = "0d3c2a10-5e7b-4c1d-9f00-0000000000ff";

    @Option(names = "--home", paramLabel = "DIR",
            description = "the demo's home (default: a new temporary folder); " + "must not be your CODE_MEMORY_HOME")
    Path home;

    @Option(names = "--prompt", paramLabel = "TEXT",
            description = "the prompt to show the context for (default: " + "\"" + PROMPT + "\")")
    String prompt = PROMPT;

    @Option(names = "--verbose", description = "also show the framework's log lines")
    boolean verbose;

    private final PrintStream out;

    private final PrintStream err;

    public DemoCommand(PrintStream out, PrintStream err) {
        this.out = out;
        this.err = err;
    }

    @Override
    public Integer call() {
        try {
            Path root = home != null ? home.toAbsolutePath().normalize()
                    : Files.createTempDirectory("code-memory-demo");
            if (home != null && Files.exists(root.resolve("memory.duckdb"))) {
                err.println("demo: " + root + " already holds a store; give a new folder (the demo never mixes its "
                        + "sample into real memories)");
                return ExitCode.USAGE;
            }
            System.setProperty(CodeMemoryHome.PROPERTY, root.toString());
            CodeMemoryHome demoHome = new CodeMemoryHome(root).ensureCreated();
            Path transcripts = writeSample(demoHome);
            out.println("demo home: " + root + " (your own memory is not touched)");
            out.println("1. importing " + SESSIONS.size() + " sample Claude Code sessions of " + PROJECT);
            TranscriptImport.Result imported = TranscriptImport.run(transcripts, Spool.forHome(demoHome),
                    SpoolLineBuilder.defaults(), p -> {
                    });
            out.println("   " + ConsoleProgress.number(imported.events()) + " events: "
                    + imported.eventsByType()
                        .entrySet()
                        .stream()
                        .map(e -> e.getKey() + " " + e.getValue())
                        .collect(java.util.stream.Collectors.joining(", ")));
            out.println("2. graduating them into memories (the main job, --job=graduate)");
            int exit = CodeMemoryApplication.run(new String[0],
                    verbose ? CodeMemoryApplication.Console.VERBOSE : CodeMemoryApplication.Console.QUIET,
                    context -> context.getBean(JobCommandRunner.class).runJob("graduate", out, false));
            if (exit != 0) {
                err.println("demo: graduation failed; details in " + demoHome.logs().resolve("jobs.log"));
                return exit;
            }
            out.println();
            out.println("3. what Claude is shown when the next session starts in " + PROJECT + ":");
            show(hookContext(sessionStart()));
            out.println("4. what Claude is shown with the prompt \"" + prompt + "\":");
            show(hookContext(userPrompt(prompt)));
            out.println("Each [mem:xxxxxx] is a citation: see where it came from with");
            out.println("  CODE_MEMORY_HOME=" + root + " java -jar jobs/target/jobs.jar show mem:xxxxxx");
            out.println("and search the sample with");
            out.println("  CODE_MEMORY_HOME=" + root + " java -jar jobs/target/jobs.jar search --project " + PROJECT
                    + " \"rate limit\"");
            out.println("To use it for real: java -jar jobs/target/jobs.jar install   (then import --transcripts for "
                    + "your past sessions)");
            return 0;
        }
        catch (IOException | RuntimeException e) {
            err.println("demo failed: " + e.getMessage());
            return ExitCode.FAILED;
        }
    }

    private void show(String context) {
        String rule = "─".repeat(78);
        out.println(rule);
        out.println(context == null ? "(nothing: no memory is relevant enough to inject)" : context.strip());
        out.println(rule);
        out.println();
    }

    /**
     * Runs the hook itself on an event and returns the context it prints, or null when it
     * prints none.
     */
    static String hookContext(String event) {
        ByteArrayOutputStream stdout = new ByteArrayOutputStream();
        // the budget counts from this call: the demo's own process started long before
        HookCommand.run(new ByteArrayInputStream(event.getBytes(StandardCharsets.UTF_8)),
                new PrintStream(stdout, true, StandardCharsets.UTF_8), java.time.Instant.now());
        String printed = stdout.toString(StandardCharsets.UTF_8);
        if (printed.isBlank()) {
            return null;
        }
        Map<?, ?> output = (Map<?, ?>) Json.parse(printed);
        return (String) ((Map<?, ?>) output.get("hookSpecificOutput")).get("additionalContext");
    }

    static String sessionStart() {
        Map<String, Object> event = base("SessionStart");
        event.put("source", "startup");
        return Json.write(event);
    }

    static String userPrompt(String prompt) {
        Map<String, Object> event = base("UserPromptSubmit");
        event.put("prompt", prompt);
        return Json.write(event);
    }

    private static Map<String, Object> base(String name) {
        Map<String, Object> event = new LinkedHashMap<>();
        event.put("session_id", NEXT_SESSION);
        event.put("transcript_path", "/home/demo/.claude/projects/-home-demo-shop-api/" + NEXT_SESSION + ".jsonl");
        event.put("cwd", PROJECT);
        event.put("permission_mode", "default");
        event.put("hook_event_name", name);
        return event;
    }

    /**
     * Copies the shipped sessions into the demo home, laid out as Claude Code keeps them.
     */
    static Path writeSample(CodeMemoryHome home) throws IOException {
        Path project = home.root().resolve("sample-transcripts").resolve("-home-demo-shop-api");
        Files.createDirectories(project);
        for (String session : SESSIONS) {
            try (InputStream in = DemoCommand.class.getResourceAsStream("/demo/" + session + ".jsonl")) {
                if (in == null) {
                    throw new IOException("the jar lacks its demo sessions (demo/" + session + ".jsonl)");
                }
                Files.write(project.resolve(session + ".jsonl"), in.readAllBytes());
            }
        }
        return project.getParent();
    }

}
