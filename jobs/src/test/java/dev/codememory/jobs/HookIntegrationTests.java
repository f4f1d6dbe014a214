package dev.codememory.jobs;

import static dev.codememory.jobs.JobsJar.utf8;
import static org.assertj.core.api.Assertions.assertThat;

import dev.codememory.capture.spool.SmallDisk;
import dev.codememory.config.json.Json;
import dev.codememory.jobs.hook.HookTraining;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The hook as Claude Code runs it: a fresh JVM per event, stdin in, nothing out, exit 0.
 */
class HookIntegrationTests {

    private static final String SECRET = "the-launch-code-is-4471";

    @TempDir
    Path home;

    @Test
    void postToolUseIsSpooledSilentlyWithPrivateTextRemoved() throws Exception {
        String payload = postToolUse("s1", 1, "before <private>" + SECRET + "</private> after");

        JobsJar.Result result = JobsJar.run(home, utf8(payload), JobsJar.hookCommand());

        assertThat(result.exit()).isZero();
        assertThat(result.stdout()).isEmpty();
        List<String> lines = Files.readAllLines(home.resolve("spool/current.jsonl"));
        assertThat(lines).hasSize(1);
        @SuppressWarnings("unchecked")
        Map<String, Object> envelope = (Map<String, Object>) Json.parse(lines.get(0));
        @SuppressWarnings("unchecked")
        Map<String, Object> event = (Map<String, Object>) envelope.get("event");
        @SuppressWarnings("unchecked")
        Map<String, Object> input = (Map<String, Object>) event.get("tool_input");
        assertThat(input.get("content")).isEqualTo("before [PRIVATE] after");
        assertThat(event.get("hook_event_name")).isEqualTo("PostToolUse");
        assertThat(envelope).containsKeys("received_at", "source");
        assertThat(filesContaining(home, SECRET)).isEmpty();
    }

    @Test
    void hookRedactingAHundredKilobytesLoadsNoClassBeyondTheJdkAndItsOwn() throws Exception {
        byte[] event = utf8(HookTraining.toolOutputEvent(100 * 1024));
        List<String> command = new java.util.ArrayList<>(JobsJar.hookCommand());
        command.add(command.indexOf("-jar"), "-Xlog:class+load=info:file=" + home.resolve("classes.log"));

        JobsJar.Result result = JobsJar.run(home, event, command);

        assertThat(result.exit()).isZero();
        assertThat(Files.readString(home.resolve("spool/current.jsonl"))).contains("postgres://app:[REDACTED]@db")
            .doesNotContain("Sup3rS3cret");
        List<String> loaded = Files.readAllLines(home.resolve("classes.log"))
            .stream()
            .filter(l -> l.contains(" source: "))
            .map(l -> l.substring(l.indexOf("] ") + 2, l.indexOf(" source: ")).trim())
            .map(l -> l.substring(l.lastIndexOf(' ') + 1))
            .toList();
        assertThat(loaded).contains("dev.codememory.capture.privacy.Redactor");
        assertThat(loaded)
            .filteredOn(c -> !c.startsWith("java.") && !c.startsWith("javax.") && !c.startsWith("jdk.")
                    && !c.startsWith("sun.") && !c.startsWith("com.sun.") && !c.startsWith("dev.codememory."))
            .isEmpty();
    }

    @Test
    void parallelHooksWriteIntactLinesAndIngestKeepsEachOnce() throws Exception {
        int processes = 8;
        int eventsEach = 200;
        ExecutorService pool = Executors.newFixedThreadPool(processes);
        List<Future<Integer>> failures = new ArrayList<>();
        for (int p = 0; p < processes; p++) {
            int proc = p;
            failures.add(pool.submit(() -> {
                int bad = 0;
                for (int i = 0; i < eventsEach; i++) {
                    String payload = postToolUse("session-" + proc, i,
                            "x".repeat(2000) + " <private>" + SECRET + "</private> " + proc + "/" + i);
                    JobsJar.Result r = JobsJar.run(home, utf8(payload), JobsJar.hookCommand());
                    if (r.exit() != 0 || !r.stdout().isEmpty()) {
                        bad++;
                    }
                }
                return bad;
            }));
        }
        int bad = 0;
        for (Future<Integer> f : failures) {
            bad += f.get();
        }
        pool.shutdown();
        assertThat(bad).isZero();

        List<String> lines = Files.readAllLines(home.resolve("spool/current.jsonl"), StandardCharsets.UTF_8);
        assertThat(lines).hasSize(processes * eventsEach);
        Set<String> ids = new HashSet<>();
        for (String line : lines) {
            @SuppressWarnings("unchecked")
            Map<String, Object> event = (Map<String, Object>) ((Map<String, Object>) Json.parse(line)).get("event");
            ids.add(event.get("session_id") + "#" + event.get("tool_use_id"));
        }
        assertThat(ids).hasSize(processes * eventsEach);
        assertThat(filesContaining(home, SECRET)).isEmpty();

        assertThat(JobsJar.run(home, new byte[0], "--job=ingest").exit()).isZero();
        assertThat(JobsJar.duckLong(home, "SELECT count(*) FROM events")).isEqualTo(1600);
        assertThat(
                JobsJar.duckLong(home,
                        "SELECT count(DISTINCT session_id || tool_use) FROM "
                                + "(SELECT session_id, payload->>'tool_use_id' AS tool_use FROM events)"))
            .isEqualTo(1600);
        assertThat(JobsJar.duckLong(home, "SELECT count(*) FROM event_rejects")).isZero();

        assertThat(JobsJar.run(home, new byte[0], "--job=ingest").exit()).isZero();
        assertThat(JobsJar.duckLong(home, "SELECT count(*) FROM events")).isEqualTo(1600);
        assertThat(JobsJar.duckLong(home, "SELECT count(*) FROM events WHERE payload::VARCHAR LIKE '%" + SECRET + "%'"))
            .isZero();
        assertThat(filesContaining(home, SECRET)).isEmpty();
        try (Stream<Path> sealed = Files.list(home.resolve("spool/sealed"))) {
            assertThat(sealed).isEmpty();
        }
    }

    @Test
    void badInputsExitZeroAndLandAsRejectsWhileNeighboursAreIngested() throws Exception {
        byte[] invalidUtf8 = { '{', '"', 'a', '"', ':', '"', (byte) 0xC3, (byte) 0x28, '"', '}' };
        byte[] binary = new byte[4096];
        new java.util.Random(7).nextBytes(binary);
        String huge = "{\"session_id\":\"s\",\"cwd\":\"/tmp\",\"hook_event_name\":\"PostToolUse\",\"tool_name\":\"Read\","
                + "\"tool_response\":{\"content\":\"" + "a".repeat(10 * 1024 * 1024) + "\"},\"tool_use_id\":\"big\"}";
        List<byte[]> inputs = List.of(utf8(postToolUse("s", 1, "first good")),
                utf8("{\"session_id\":\"s\",\"hook_event_name\":\"PostToolUse\",\"tool_input\":{\"content\":\"cut"),
                invalidUtf8, utf8(huge), new byte[0],
                utf8("{\"session_id\":\"s\",\"cwd\":\"/tmp\",\"hook_event_name\":\"TotallyNewEvent\"}"), binary,
                utf8(postToolUse("s", 2, "last good")));
        for (byte[] input : inputs) {
            JobsJar.Result r = JobsJar.run(home, input, JobsJar.hookCommand());
            assertThat(r.exit()).isZero();
            assertThat(r.stdout()).isEmpty();
        }
        assertThat(Files.readAllLines(home.resolve("spool/current.jsonl"))).hasSize(8);

        assertThat(JobsJar.run(home, new byte[0], "--job=ingest").exit()).isZero();

        assertThat(JobsJar.duckRows(home,
                "SELECT payload->>'tool_use_id', length(payload->'tool_response'->>'content') FROM events ORDER BY seq"))
            .containsExactly(List.of("toolu_1", 10L),
                    List.of("big", 2L * 1024 * 1024 + "\n[TRUNCATED: kept 2097152 of 10485760 bytes]".length()),
                    List.of("toolu_2", 9L));
        assertThat(JobsJar.duckLong(home,
                "SELECT count(*) FROM events WHERE payload->>'tool_use_id' = 'big' AND "
                        + "(payload->'tool_response'->>'content') LIKE '%[TRUNCATED: kept 2097152 of 10485760 bytes]'"))
            .isEqualTo(1);
        assertThat(JobsJar.duckRows(home, "SELECT spool_line, reason FROM event_rejects ORDER BY spool_line"))
            .extracting(row -> row.get(1).toString())
            .satisfiesExactly(reason -> assertThat(reason).startsWith("hook input rejected: invalid JSON"),
                    reason -> assertThat(reason).isEqualTo("hook input rejected: input is not valid UTF-8"),
                    reason -> assertThat(reason).isEqualTo("hook input rejected: empty input"),
                    reason -> assertThat(reason).isEqualTo("unknown hook event 'TotallyNewEvent'"),
                    reason -> assertThat(reason).isEqualTo("hook input rejected: input is not valid UTF-8"));
        assertThat(JobsJar.duckLong(home,
                "SELECT count(*) FROM event_rejects WHERE raw_text IS NOT NULL " + "AND length(raw_text) > 0"))
            .isEqualTo(4);
    }

    @Test
    void unwritableHomeStillExitsZeroAndPrintsNothing() throws Exception {
        Path notADirectory = Files.writeString(home.resolve("file"), "x");

        JobsJar.Result result = JobsJar.run(notADirectory.resolve("home"), utf8(postToolUse("s", 1, "x")),
                JobsJar.hookCommand());

        assertThat(result.exit()).isZero();
        assertThat(result.stdout()).isEmpty();
    }

    /**
     * Claude Code closes the hook's stdin; a caller that does not must not keep the hook
     * for good: past its bound the hook keeps what came as a reject and exits 0.
     */
    @Test
    void aHookWhoseStdinNeverClosesKeepsWhatCameAsARejectAndExitsZero() throws Exception {
        ProcessBuilder pb = new ProcessBuilder(JobsJar.hookCommand()).redirectOutput(home.resolve("hook.out").toFile())
            .redirectError(home.resolve("hook.err").toFile());
        pb.environment().put("CODE_MEMORY_HOME", home.toString());
        pb.environment().put("CODE_MEMORY_HOOK_STDIN_MS", "1500");
        Process hook = pb.start();
        try {
            hook.getOutputStream().write(utf8(postToolUse("s", 1, "half sent password=" + SECRET).substring(0, 300)));
            hook.getOutputStream().flush();

            assertThat(hook.waitFor(60, java.util.concurrent.TimeUnit.SECONDS)).as("the hook exited").isTrue();
            assertThat(hook.exitValue()).isZero();
            assertThat(Files.readString(home.resolve("hook.out"))).isEmpty();
        }
        finally {
            hook.destroyForcibly();
        }
        List<String> lines = Files.readAllLines(home.resolve("spool/current.jsonl"));
        assertThat(lines).hasSize(1);
        @SuppressWarnings("unchecked")
        Map<String, Object> envelope = (Map<String, Object>) Json.parse(lines.get(0));
        assertThat(envelope.get("error")).isEqualTo("stdin was still open after 1500 ms (300 bytes read)");
        assertThat(envelope.get("raw_bytes")).isEqualTo(new Json.JsonNumber("300"));
        assertThat((String) envelope.get("raw")).startsWith("{\"session_id\":\"s\"").doesNotContain(SECRET);

        assertThat(JobsJar.run(home, new byte[0], "--job=ingest").exit()).isZero();
        assertThat(JobsJar.duckRows(home, "SELECT reason, raw_text LIKE '{\"session_id\":\"s\"%' FROM event_rejects"))
            .containsExactly(List.of("hook input rejected: stdin was still open after 1500 ms (300 bytes read)", true));
        assertThat(JobsJar.duckLong(home, "SELECT count(*) FROM events")).isZero();
    }

    /**
     * A home on a real full disk (a 256 KiB tmpfs; skipped where mounting is not
     * allowed): the first hook that cannot spool says so on stderr with exit 1 (a
     * non-blocking error Claude Code shows), the next ones stay quiet, stats reports it,
     * the spool keeps only whole lines, and capture resumes once there is room.
     */
    @Test
    void aFullDiskIsToldOnceAndCaptureResumesWhenThereIsRoom() throws Exception {
        Path disk = Files.createDirectories(home.resolve("disk"));
        SmallDisk.mount(disk, "256k");
        try {
            JobsJar.Result first = JobsJar.run(disk, utf8(postToolUse("s", 1, "before")), JobsJar.hookCommand());
            assertThat(first.exit()).isZero();
            Path filler = disk.resolve("filler");
            SmallDisk.fillLeaving(filler, 1024);

            JobsJar.Result failing = JobsJar.run(disk, utf8(postToolUse("s", 2, "x".repeat(16 * 1024))),
                    JobsJar.hookCommand());
            JobsJar.Result stillFailing = JobsJar.run(disk, utf8(postToolUse("s", 3, "y".repeat(16 * 1024))),
                    JobsJar.hookCommand());
            JobsJar.Result statsWhileFull = JobsJar.run(disk, new byte[0], "stats", "--json");

            assertThat(failing.exit()).isEqualTo(1);
            assertThat(failing.stdout()).isEmpty();
            assertThat(failing.stderr()).contains("code-memory: capture is failing (No space left on device)");
            assertThat(stillFailing.exit()).isZero();
            assertThat(stillFailing.stderr()).doesNotContain("code-memory:");
            assertThat(spoolMap(statsWhileFull).get("capture_failing_since")).isNotNull();
            // a disk full to the byte has no room for the reason's text either
            assertThat(spoolMap(statsWhileFull).get("capture_failing_reason"))
                .isEqualTo(dev.codememory.capture.spool.Spool.UNRECORDED);
            assertThat(toolUseIds(disk)).containsExactly("toolu_1");

            Files.delete(filler);
            JobsJar.Result recovered = JobsJar.run(disk, utf8(postToolUse("s", 4, "after")), JobsJar.hookCommand());
            JobsJar.Result statsAfter = JobsJar.run(disk, new byte[0], "stats", "--json");

            assertThat(recovered.exit()).isZero();
            assertThat(recovered.stderr()).doesNotContain("code-memory:");
            assertThat(toolUseIds(disk)).containsExactly("toolu_1", "toolu_4");
            assertThat(spoolMap(statsAfter).get("capture_failing_since")).isNull();
        }
        finally {
            SmallDisk.unmount(disk);
        }
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> spoolMap(JobsJar.Result stats) {
        String json = stats.stdout().substring(stats.stdout().indexOf('{'));
        return (Map<String, Object>) ((Map<String, Object>) Json.parse(json.trim())).get("spool");
    }

    /** The tool_use_id of every spooled line, each of which must be whole JSON. */
    @SuppressWarnings("unchecked")
    private static List<Object> toolUseIds(Path home) throws IOException {
        List<Object> ids = new ArrayList<>();
        for (String line : Files.readAllLines(home.resolve("spool/current.jsonl"))) {
            ids.add(((Map<String, Object>) ((Map<String, Object>) Json.parse(line)).get("event")).get("tool_use_id"));
        }
        return ids;
    }

    static String postToolUse(String session, int i, String content) {
        return "{\"session_id\":\"" + session + "\",\"transcript_path\":\"/tmp/t.jsonl\",\"cwd\":\"/tmp\","
                + "\"permission_mode\":\"default\",\"hook_event_name\":\"PostToolUse\",\"tool_name\":\"Write\","
                + "\"tool_input\":{\"file_path\":\"/tmp/f.txt\",\"content\":" + quote(content) + "},"
                + "\"tool_response\":{\"filePath\":\"/tmp/f.txt\",\"success\":true,\"content\":" + quote(content)
                + "},\"tool_use_id\":\"toolu_" + i + "\",\"duration_ms\":12}";
    }

    static String quote(String s) {
        StringBuilder sb = new StringBuilder();
        Json.writeString(s, sb);
        return sb.toString();
    }

    /** Every file under the folder whose raw bytes contain the text. */
    static List<Path> filesContaining(Path root, String text) throws IOException {
        byte[] needle = text.getBytes(StandardCharsets.UTF_8);
        List<Path> found = new ArrayList<>();
        try (Stream<Path> files = Files.walk(root)) {
            for (Path f : (Iterable<Path>) files.filter(Files::isRegularFile)::iterator) {
                byte[] bytes = Files.readAllBytes(f);
                if (indexOf(bytes, needle) >= 0) {
                    found.add(f);
                }
            }
        }
        return found;
    }

    private static int indexOf(byte[] haystack, byte[] needle) {
        outer: for (int i = 0; i <= haystack.length - needle.length; i++) {
            for (int j = 0; j < needle.length; j++) {
                if (haystack[i + j] != needle[j]) {
                    continue outer;
                }
            }
            return i;
        }
        return -1;
    }

}
