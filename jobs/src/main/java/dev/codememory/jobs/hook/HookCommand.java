package dev.codememory.jobs.hook;

import dev.codememory.capture.privacy.Redactor;
import dev.codememory.capture.spool.Spool;
import dev.codememory.capture.spool.SpoolLineBuilder;
import dev.codememory.config.home.CodeMemoryHome;
import dev.codememory.config.text.IsoInstant;
import dev.codememory.jobs.client.ServeClient;
import dev.codememory.jobs.invocation.QueryLogging;
import dev.codememory.retrieval.context.ContextBudgetClock;
import dev.codememory.retrieval.context.HookContext;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * {@code jobs.jar hook}: one Claude Code hook event on stdin → one redacted line in the
 * spool, fsync'd. Exits 0 and prints nothing unless there is context to inject
 * (UserPromptSubmit, SessionStart: asked of the resident {@code serve} through
 * {@link ServeClient} when it runs, else worked out here by {@link HookContext}; either
 * way only after the line is safely spooled): a memory tool must never block Claude Code.
 * Failures (unwritable home) are written to {@code logs/hook.log}, never the payload.
 * When the spool cannot take the line (a full disk), the first hook to fail says so on
 * stderr and exits 1, a non-blocking error whose first stderr line Claude Code shows the
 * user; later hooks stay quiet until an append succeeds again ({@link Spool#failure}).
 */
public final class HookCommand {

    /**
     * Kept from the budget when asking {@code serve}: if it has not answered by then
     * (busy, or killed mid-answer), the hook still has this long to answer on its own, or
     * at least to exit in time.
     */
    static final Duration COLD_RESERVE = Duration.ofMillis(500);

    /**
     * Upper bound on what we read from stdin; a larger input is cut and flagged, never
     * refused.
     */
    private static final int MAX_INPUT_BYTES = 256 * 1024 * 1024;

    /**
     * How long the hook waits for stdin to close, from when it starts reading: Claude
     * Code writes the event and closes the pipe at once, so a pipe still open past this
     * holds no whole event. Well inside the shortest timeout Claude Code gives a command
     * hook that may wait (UserPromptSubmit, 30 s); {@code CODE_MEMORY_HOOK_STDIN_MS}
     * changes it.
     */
    static final Duration STDIN_BOUND = Duration.ofSeconds(10);

    private HookCommand() {
    }

    /** The hook as Claude Code runs it: its budget counts from this process's start. */
    public static int run(InputStream stdin, PrintStream stdout) {
        return run(stdin, stdout, System.err, null);
    }

    /**
     * As {@link #run(InputStream, PrintStream, PrintStream, Instant)} telling on stderr.
     */
    public static int run(InputStream stdin, PrintStream stdout, Instant budgetStart) {
        return run(stdin, stdout, System.err, budgetStart);
    }

    /**
     * The hook on one event; the context budget counts from {@code budgetStart}, or, when
     * null, from this process's start (Claude Code waits from when it launched the
     * process, JVM start-up included). A caller that runs the hook inside a longer-lived
     * process ({@code demo}) gives the moment it calls.
     */
    public static int run(InputStream stdin, PrintStream stdout, PrintStream stderr, Instant budgetStart) {
        CodeMemoryHome home = null;
        int exit = 0;
        try {
            nameTheSelectorProvider();
            Instant receivedAt = Instant.now();
            Duration stdinBound = stdinBound();
            StdinRead read = StdinRead.within(stdin, MAX_INPUT_BYTES, stdinBound);
            byte[] input = read.bytes();
            home = CodeMemoryHome.resolve();
            boolean context = read.ended()
                    && !"off".equalsIgnoreCase(String.valueOf(System.getenv("CODE_MEMORY_CONTEXT")));
            // connect to serve while the event is spooled: it asks only for these two
            // events, whose names redaction leaves alone
            ServeClient serve = ServeClient.forHome(home);
            if (context && mayAsk(new String(input, StandardCharsets.ISO_8859_1))) {
                serve.connectAhead();
            }
            SpoolLineBuilder builder = new SpoolLineBuilder(Redactor.defaults(), maxFieldBytes());
            // a pipe still open holds no whole event: what came is kept as a reject
            String line = read.ended() ? builder.build(input, receivedAt, "hook", null).json()
                    : builder
                        .rejected(input, receivedAt, "hook", null,
                                "stdin was still open after " + stdinBound.toMillis() + " ms (" + input.length
                                        + " bytes read)")
                        .json();
            if (!(context && mayInject(line))) {
                append(home, line);
            }
            else {
                CodeMemoryHome h = home;
                // the budget runs from when Claude Code started this process, JVM
                // start-up included (ProcessStart: to a clock tick)
                Instant started = budgetStart != null ? budgetStart : earliest(ProcessStart.started(), receivedAt);
                Instant deadline = started.plus(ContextBudgetClock.budgetFromEnvironment()).minus(COLD_RESERVE);
                Optional<ServeClient.HookAnswer> served;
                Instant spooled;
                // serve works on the context while the line is synced to the spool; its
                // answer is read only once the line is there
                try (ServeClient.AskedHook asked = serve.askHook(line, started, deadline)) {
                    append(home, line);
                    spooled = Instant.now();
                    served = asked.answer();
                }
                String answer;
                if (served.isPresent()) {
                    // where this process's time went: start-up to main, reading,
                    // redacting
                    // and syncing the event (serve already working), then the rest of
                    // serve's answer
                    String split = " jvm=" + Duration.between(started, receivedAt).toMillis() + " spool="
                            + Duration.between(receivedAt, spooled).toMillis() + " serve="
                            + Duration.between(spooled, Instant.now()).toMillis();
                    served.get().info().forEach(message -> HookLog.info(h, message + split));
                    served.get().errors().forEach(message -> HookLog.write(h, "ERROR " + message));
                    answer = served.get().stdout();
                }
                else {
                    // nothing may reach stdout (Claude Code reads it) but the answer
                    QueryLogging.off();
                    answer = HookContext.respond(home, line, started, (where, e) -> HookLog.error(h, where, e),
                            message -> HookLog.info(h, message));
                }
                if (answer != null) {
                    stdout.print(answer);
                }
            }
        }
        catch (CaptureFailing e) {
            stderr.println(e.getMessage());
            stderr.flush();
            HookLog.error(home, "hook", e.getCause());
            exit = 1;
        }
        catch (Throwable e) {
            HookLog.error(home, "hook", e);
        }
        stdout.flush();
        return exit;
    }

    /**
     * Appends the line to the spool; when that fails for the first time since the last
     * success, throws {@link CaptureFailing} with the line the user is shown.
     */
    private static void append(CodeMemoryHome home, String line) throws IOException {
        Spool spool = Spool.forHome(home);
        try {
            spool.append(line);
        }
        catch (IOException e) {
            if (spool.recordFailure(e)) {
                throw new CaptureFailing(e);
            }
            throw e;
        }
    }

    /** The first failing append: its message is the one line the user is shown. */
    static final class CaptureFailing extends IOException {

        private static final long serialVersionUID = 1L;

        CaptureFailing(IOException cause) {
            super("code-memory: capture is failing (" + String.valueOf(cause.getMessage()).replace('\n', ' ')
                    + "): events are not being saved. It resumes by itself once the disk has room; "
                    + "`code-memory stats` shows since when.", cause);
        }

    }

    private static Instant earliest(Instant a, Instant b) {
        return a.isBefore(b) ? a : b;
    }

    /**
     * Names this platform's default NIO provider in {@code java.nio.channels.spi.
     * SelectorProvider}, unless set, so that the first socket does not look for one
     * through {@link java.util.ServiceLoader}: that opens every jar on the class path
     * (89, from the manifest's {@code Class-Path}) for a {@code META-INF/services} entry,
     * 45–90 ms of a fresh JVM on two busy cores before the hook can reach serve. The
     * provider is the one the JDK would pick anyway ({@code HookCommandTests} checks
     * that); on other systems the lookup is left alone.
     */
    static void nameTheSelectorProvider() {
        String property = "java.nio.channels.spi.SelectorProvider";
        String provider = defaultSelectorProvider(System.getProperty("os.name", ""));
        if (provider != null && System.getProperty(property) == null) {
            System.setProperty(property, provider);
        }
    }

    /** The JDK's own default provider on this system, or null when not known here. */
    static String defaultSelectorProvider(String osName) {
        if (osName.startsWith("Linux")) {
            return "sun.nio.ch.EPollSelectorProvider";
        }
        if (osName.startsWith("Mac")) {
            return "sun.nio.ch.KQueueSelectorProvider";
        }
        return null;
    }

    /**
     * Whether the raw input may be an event serve is asked about (a false yes only costs
     * a connection left unused).
     */
    static boolean mayAsk(String input) {
        return input.contains("UserPromptSubmit") || input.contains("SessionStart");
    }

    /**
     * Whether the spooled line may be an event whose output Claude Code injects
     * (UserPromptSubmit, SessionStart): a cheap look before anything beyond the JDK is
     * loaded; {@link HookContext} checks properly.
     */
    static boolean mayInject(String spoolLine) {
        return spoolLine.contains("\"hook_event_name\":\"UserPromptSubmit\"")
                || spoolLine.contains("\"hook_event_name\":\"SessionStart\"");
    }

    /**
     * Runs the hook path on built-in sample events (into {@code CODE_MEMORY_HOME}), so
     * the build can record a class-data-sharing archive of exactly the classes a real
     * hook call loads: a prompt, small tool calls, a credential file, invalid input, and
     * a few kilobytes of {@link HookTraining}'s tool output (code, logs, config lines, a
     * token of each kind the redactor matches by hand and by regex, a control character,
     * non-Latin-1 text).
     */
    public static int train() {
        String tokens = "\\n\\u001b[32mok\\u001b[0m ghp_" + "a1B2c3D4".repeat(5)
                + " eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0In0"
                + ".sig-ABC123 AKIAIOSFODNN7EXAMPLE gr\u00fc\u00dfe \u4f60\u597d \ud83d\ude00\"";
        String large = HookTraining.toolOutputEvent(4 * 1024).replace("\",\"stderr\"", tokens + ",\"stderr\"");
        String[] samples = { large,
                "{\"session_id\":\"cds\",\"cwd\":\"/tmp\",\"hook_event_name\":\"UserPromptSubmit\","
                        + "\"prompt\":\"use the token=abc123 <private>x</private> and Bearer abcdefghijkl\"}",
                "{\"session_id\":\"cds\",\"cwd\":\"/tmp\",\"hook_event_name\":\"PostToolUse\",\"tool_name\":\"Bash\","
                        + "\"tool_input\":{\"command\":\"ls\",\"password\":\"p\"},\"tool_response\":{\"stdout\":\"a\\nb\","
                        + "\"exit\":0,\"ok\":true,\"x\":null,\"n\":[1.5e3,-2]},\"duration_ms\":12}",
                "{\"session_id\":\"cds\",\"cwd\":\"/tmp\",\"hook_event_name\":\"PostToolUse\",\"tool_name\":\"Read\","
                        + "\"tool_input\":{\"file_path\":\"/tmp/.env\"},\"tool_response\":{\"file\":{\"content\":"
                        + "\"DB_URL=postgres://app:pw@db/app\\nAPI_KEY=\\\"k\\\"\\n\"}}}",
                "not json" };
        for (String sample : samples) {
            run(new ByteArrayInputStream(sample.getBytes(StandardCharsets.UTF_8)), System.out);
        }
        // once more with a stand-in for serve on the socket, so the archive holds the
        // client's classes too
        Path socket = CodeMemoryHome.resolve().root().resolve(ServeClient.SOCKET);
        try (ServerSocketChannel server = ServerSocketChannel.open(StandardProtocolFamily.UNIX)) {
            Files.deleteIfExists(socket);
            server.bind(UnixDomainSocketAddress.of(socket));
            Thread standIn = new Thread(() -> {
                try (SocketChannel client = server.accept()) {
                    client.read(ByteBuffer.allocate(64 * 1024));
                    client.write(ByteBuffer.wrap(("{\"stdout\":\"{}\",\"info\":[\"training answered 1 ms\"],"
                            + "\"errors\":[],\"exit\":0}\n")
                        .getBytes(StandardCharsets.UTF_8)));
                }
                catch (IOException e) {
                    // training only
                }
            });
            standIn.setDaemon(true);
            standIn.start();
            // the prompt: only UserPromptSubmit and SessionStart ask serve
            run(new ByteArrayInputStream(samples[1].getBytes(StandardCharsets.UTF_8)),
                    new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
        }
        catch (IOException e) {
            // training only: the archive is then just without the client's classes
        }
        finally {
            try {
                Files.deleteIfExists(socket);
            }
            catch (IOException ignored) {
                // training home
            }
        }
        return 0;
    }

    /** {@link #STDIN_BOUND}, or {@code CODE_MEMORY_HOOK_STDIN_MS} when set. */
    static Duration stdinBound() {
        String configured = System.getenv("CODE_MEMORY_HOOK_STDIN_MS");
        if (configured == null || configured.isBlank()) {
            return STDIN_BOUND;
        }
        try {
            return Duration.ofMillis(Math.max(1, Long.parseLong(configured.trim())));
        }
        catch (NumberFormatException e) {
            return STDIN_BOUND;
        }
    }

    public static int maxFieldBytes() {
        String configured = System.getenv("CODE_MEMORY_MAX_FIELD_BYTES");
        if (configured == null || configured.isBlank()) {
            return SpoolLineBuilder.DEFAULT_MAX_FIELD_BYTES;
        }
        try {
            return Math.max(1024, Integer.parseInt(configured.trim()));
        }
        catch (NumberFormatException e) {
            return SpoolLineBuilder.DEFAULT_MAX_FIELD_BYTES;
        }
    }

    /**
     * Appends one line about a failure to {@code logs/hook.log}: time, where, exception
     * type and message.
     */
    static final class HookLog {

        /**
         * Past this size the log moves to {@code hook.log.1} (replacing the previous one)
         * and starts again: one line per prompt would otherwise grow for as long as the
         * tool is installed.
         */
        static final long MAX_BYTES = 1024 * 1024;

        private HookLog() {
        }

        static void error(CodeMemoryHome home, String where, Throwable e) {
            write(home, "ERROR " + where + " pid=" + ProcessHandle.current().pid() + " " + e.getClass().getName() + ": "
                    + String.valueOf(e.getMessage()).replace('\n', ' '));
        }

        /** One line about what the hook did (counts and timings, never payload text). */
        static void info(CodeMemoryHome home, String message) {
            write(home, "INFO " + message.replace('\n', ' '));
        }

        static void write(CodeMemoryHome home, String line) {
            try {
                CodeMemoryHome h = home != null ? home : CodeMemoryHome.resolve();
                CodeMemoryHome.createPrivateDirectory(h.root());
                CodeMemoryHome.createPrivateDirectory(h.logs());
                Path log = h.logs().resolve("hook.log");
                rotate(log);
                CodeMemoryHome.createPrivateFile(log);
                // without java.time.format: its set-up would cost the prompt's hook ~5 ms
                // after serve's answer is in
                String message = IsoInstant.format(Instant.now()) + " " + line + "\n";
                Files.writeString(log, message, StandardCharsets.UTF_8, StandardOpenOption.APPEND);
            }
            catch (IOException | RuntimeException ignored) {
                // nowhere left to report; Claude Code must still go on
            }
        }

        /**
         * Moves a log over {@link #MAX_BYTES} aside; two hooks racing to do it lose at
         * most a line.
         */
        static void rotate(Path log) throws IOException {
            if (Files.isRegularFile(log) && Files.size(log) > MAX_BYTES) {
                Files.move(log, log.resolveSibling(log.getFileName() + ".1"), StandardCopyOption.REPLACE_EXISTING);
            }
        }

    }

}
