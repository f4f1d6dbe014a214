package dev.codememory.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code import --transcripts} on a small Claude Code projects folder the test writes: a
 * session, the session that resumed it (repeating its first records under the new session
 * id), a subagent's file, a truncated line and a secret in a tool's output.
 */
class TranscriptImportIntegrationTests {

    private static final String SECRET = "hunter2-launch-code";

    @TempDir
    Path tmp;

    @Test
    void importsTheEventsHooksWouldHaveSentOnceAndNeverTheSecret() throws Exception {
        Path home = tmp.resolve("home");
        Path projects = writeProjects();

        JobsJar.Result first = JobsJar.run(home, new byte[0], "import", "--transcripts", projects.toString());

        assertThat(first.exit()).as(first.stderr()).isZero();
        assertThat(first.stdout()).contains(
                "found 2 session file(s) and 1 subagent file(s) in " + projects
                        + ": 15 records, 1 invalid line(s) skipped, 2 repeated record(s) skipped",
                "spooled 13 events (PostToolUse 2, SessionEnd 2, SessionStart 2, Stop 3, SubagentStop 1, "
                        + "UserPromptSubmit 3)",
                "added 13 new events");
        assertThat(JobsJar.duckRows(home, """
                SELECT session_id, event_type, payload->>'prompt', source FROM events ORDER BY seq"""))
            .extracting(r -> r.get(0) + " " + r.get(1) + (r.get(2) == null ? "" : " " + r.get(2)) + " " + r.get(3))
            .containsExactly("s-1 SessionStart transcript",
                    "s-1 UserPromptSubmit We decided to use PostgreSQL for the invoices. transcript",
                    "s-1 PostToolUse transcript", "s-1 Stop transcript",
                    "s-1 UserPromptSubmit How do I run the tests? transcript", "s-1 Stop transcript",
                    "s-1 SessionEnd transcript", "s-2 SessionStart transcript",
                    "s-2 UserPromptSubmit Deploy to staging on Friday. transcript", "s-2 Stop transcript",
                    "s-2 SessionEnd transcript", "s-1 PostToolUse transcript", "s-1 SubagentStop transcript");
        assertThat(JobsJar.duckRows(home, "SELECT DISTINCT project FROM events"))
            .containsExactly(List.of(tmp.resolve("shop").toString()));
        assertThat(JobsJar.duckRows(home, "SELECT ts FROM events WHERE event_type = 'UserPromptSubmit' ORDER BY seq"))
            .extracting(r -> r.get(0).toString())
            .containsExactly("2026-05-04 09:00:00.0", "2026-05-04 09:02:00.0", "2026-05-05 10:01:00.0");
        assertThat(HookIntegrationTests.filesContaining(home, SECRET)).isEmpty();
        assertThat(JobsJar.duckLong(home, "SELECT count(*) FROM events WHERE payload::VARCHAR LIKE '%[REDACTED]%'"))
            .isEqualTo(1);

        JobsJar.Result second = JobsJar.run(home, new byte[0], "import", "--transcripts", projects.toString());

        assertThat(second.exit()).as(second.stderr()).isZero();
        assertThat(second.stdout()).contains("spooled 13 events", "13 events (+0)",
                "added no new events: every record was imported");
        assertThat(JobsJar.duckLong(home, "SELECT count(*) FROM events")).isEqualTo(13);

        JobsJar.Result forget = JobsJar.run(home, new byte[0], "forget", "--session", "s-1");
        assertThat(forget.exit()).as(forget.stderr()).isZero();
        assertThat(forget.stdout()).contains("forgot session s-1: 9 events, 1 session");
        JobsJar.Result third = JobsJar.run(home, new byte[0], "import", "--transcripts", projects.toString());
        assertThat(third.stdout()).contains("added no new events");
        assertThat(JobsJar.duckRows(home, "SELECT DISTINCT session_id FROM events")).containsExactly(List.of("s-2"));
        assertThat(home.resolve("logs/forget.log")).content().contains("forget session s-1: events=9 sessions=1");
    }

    /**
     * The README's order — install, then import — while a session runs: its hook events
     * wait in the spool (no ingest yet) when the import reads its transcript, and one
     * ingest reads both. The session is there once, as the hooks captured it.
     */
    @Test
    void aSessionWhoseHookEventsStillWaitInTheSpoolIsNotImportedAgain() throws Exception {
        Path home = tmp.resolve("home");
        String cwd = Files.createDirectories(tmp.resolve("shop")).toString();
        for (String hook : List.of(
                "{\"session_id\":\"s-live\",\"cwd\":\"" + cwd
                        + "\",\"hook_event_name\":\"SessionStart\",\"source\":\"startup\"}",
                "{\"session_id\":\"s-live\",\"cwd\":\"" + cwd
                        + "\",\"hook_event_name\":\"UserPromptSubmit\",\"prompt\":\"Add the invoice export.\"}")) {
            assertThat(JobsJar.run(home, JobsJar.utf8(hook), "hook").exit()).isZero();
        }
        Instant written = Instant.now().plusSeconds(1);
        Path project = Files.createDirectories(tmp.resolve("projects/-tmp-shop"));
        Files.writeString(project.resolve("s-live.jsonl"), String.join("\n",
                user("u1", "s-live", written.toString(), cwd, "\"Add the invoice export.\""), assistant("a1", "s-live",
                        written.plusSeconds(5).toString(), "[{\"type\":\"text\",\"text\":\"The export is in.\"}]"))
                + "\n");

        JobsJar.Result imported = JobsJar.run(home, new byte[0], "import", "--transcripts",
                project.getParent().toString());

        assertThat(imported.exit()).as(imported.stderr()).isZero();
        assertThat(imported.stdout()).contains("spooled 4 events", "added 2 new events");
        assertThat(JobsJar.duckRows(home, "SELECT event_type, source FROM events ORDER BY seq"))
            .extracting(r -> r.get(0) + " " + r.get(1))
            .containsExactly("SessionStart hook", "UserPromptSubmit hook");
    }

    @Test
    void aMissingFolderIsAUsageError() throws Exception {
        JobsJar.Result missing = JobsJar.run(tmp.resolve("home"), new byte[0], "import", "--transcripts",
                tmp.resolve("nowhere").toString());

        assertThat(missing.exit()).isEqualTo(2);
        assertThat(missing.stderr()).contains("no such file or folder");
    }

    @Test
    void aFifoIsAUsageErrorNotRead() throws Exception {
        Path fifo = tmp.resolve("session.jsonl");
        assertThat(new ProcessBuilder("mkfifo", fifo.toString()).start().waitFor()).isZero();

        // opening the FIFO would wait for a writer for good
        for (String source : List.of("--transcripts", "--hooks")) {
            JobsJar.Result refused = JobsJar.run(tmp.resolve("home"), new byte[0], "import", source, fifo.toString());

            assertThat(refused.exit()).as(source).isEqualTo(2);
            assertThat(refused.stderr()).as(source).contains("import: not a regular file or folder: " + fifo);
        }
    }

    private Path writeProjects() throws Exception {
        Path shop = Files.createDirectories(tmp.resolve("shop"));
        Path project = Files.createDirectories(tmp.resolve("projects/-tmp-shop"));
        String cwd = shop.toString();
        Files.writeString(project.resolve("s-1.jsonl"), String.join("\n",
                "{\"type\":\"summary\",\"summary\":\"Invoices\",\"leafUuid\":\"a2\"}",
                user("u1", "s-1", "2026-05-04T09:00:00Z", cwd, "\"We decided to use PostgreSQL for the invoices.\""),
                assistant("a1", "s-1", "2026-05-04T09:00:10Z",
                        "[{\"type\":\"tool_use\",\"id\":\"toolu_1\","
                                + "\"name\":\"Bash\",\"input\":{\"command\":\"cat .env\"}}]"),
                "{\"type\":\"user\",\"uuid\":\"r1\",\"sessionId\":\"s-1\",\"timestamp\":\"2026-05-04T09:00:20Z\","
                        + "\"message\":{\"role\":\"user\",\"content\":[{\"type\":\"tool_result\",\"tool_use_id\":"
                        + "\"toolu_1\",\"content\":\"DB_PASSWORD=" + SECRET + "\"}]},\"toolUseResult\":{\"stdout\":"
                        + "\"DB_PASSWORD=" + SECRET + "\",\"stderr\":\"\"}}",
                assistant("a2", "s-1", "2026-05-04T09:00:30Z", "[{\"type\":\"text\",\"text\":\"Noted: PostgreSQL.\"}]"),
                "{\"type\":\"assistant\",\"uuid\":\"cut\",\"message\":{\"content\":[{\"type\":\"te",
                user("u2", "s-1", "2026-05-04T09:02:00Z", cwd, "\"How do I run the tests?\""),
                assistant("a3", "s-1", "2026-05-04T09:02:10Z", "[{\"type\":\"text\",\"text\":\"Run ./mvnw test.\"}]"))
                + "\n");
        Files.writeString(project.resolve("s-2.jsonl"), String.join("\n",
                user("u1", "s-2", "2026-05-04T09:00:00Z", cwd, "\"We decided to use PostgreSQL for the invoices.\""),
                assistant("a2", "s-2", "2026-05-04T09:00:30Z", "[{\"type\":\"text\",\"text\":\"Noted: PostgreSQL.\"}]"),
                user("u3", "s-2", "2026-05-05T10:01:00Z", cwd, "\"Deploy to staging on Friday.\""),
                assistant("a4", "s-2", "2026-05-05T10:01:30Z", "[{\"type\":\"text\",\"text\":\"Will do.\"}]")) + "\n");
        Path subagents = Files.createDirectories(project.resolve("s-1/subagents"));
        Files.writeString(subagents.resolve("agent-a1.jsonl"),
                String.join("\n",
                        sidechain(user("q1", "s-1", "2026-05-04T09:01:00Z", cwd, "\"Find the invoice tables\"")),
                        sidechain(assistant("q2", "s-1", "2026-05-04T09:01:05Z",
                                "[{\"type\":\"tool_use\",\"id\":\"toolu_9\","
                                        + "\"name\":\"Grep\",\"input\":{\"pattern\":\"invoice\"}}]")),
                        sidechain("{\"type\":\"user\",\"uuid\":\"q3\",\"sessionId\":\"s-1\",\"timestamp\":"
                                + "\"2026-05-04T09:01:06Z\",\"message\":{\"role\":\"user\",\"content\":[{\"type\":"
                                + "\"tool_result\",\"tool_use_id\":\"toolu_9\",\"content\":\"schema.sql:3\"}]}}"),
                        sidechain(assistant("q4", "s-1", "2026-05-04T09:01:09Z",
                                "[{\"type\":\"text\",\"text\":\"Two tables: invoices, invoice_lines.\"}]")))
                        + "\n");
        return project.getParent();
    }

    private static String user(String uuid, String session, String ts, String cwd, String content) {
        return "{\"type\":\"user\",\"uuid\":\"" + uuid + "\",\"sessionId\":\"" + session + "\",\"timestamp\":\"" + ts
                + "\",\"cwd\":\"" + cwd + "\",\"message\":{\"role\":\"user\",\"content\":" + content + "}}";
    }

    private static String assistant(String uuid, String session, String ts, String content) {
        return "{\"type\":\"assistant\",\"uuid\":\"" + uuid + "\",\"sessionId\":\"" + session + "\",\"timestamp\":\""
                + ts + "\",\"message\":{\"role\":\"assistant\",\"content\":" + content + "}}";
    }

    private static String sidechain(String record) {
        return record.replaceFirst("^\\{", "{\"isSidechain\":true,\"agentId\":\"a1\",");
    }

}
