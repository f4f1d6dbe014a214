package dev.codememory.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every reader of outside text, run as the real jar on a real home: afterwards no file
 * under the home (spool, DuckDB file and its WAL, batch metadata, logs) holds a byte of
 * the private text or of the secrets, while a plain word from the same text is found
 * there, so the scan would see the others if they had been stored.
 */
class PrivacyIntegrationTests {

    private static final String SESSION = "5b0e9f7c-0000-4000-8000-00000000000b";

    /** Fake secrets in the shapes of the example and of real transcripts. */
    private static final String PRIVATE = "hunter2-private-canary-7731";

    private static final String ANTHROPIC = "sk-ant-api03-"
            + "Zq7XbN2kLm9PwR4tYv8Cd3Fg6Hj1Ks5".repeat(3).substring(0, 93) + "AA";

    private static final String DB_PASSWORD = "zebra-fence-5521-canary";

    private static final String NEO4J_PASSWORD = "Quokka-Lantern-8814";

    private static final String GITHUB = "ghp_" + "R8kQ2mZ7vX4nB9cT1yH6wL3pJ5sD0fG2aE7u".substring(0, 36);

    private static final String PLAIN = "staging-database-canary";

    private static final String REPLY = "The " + PLAIN + " answers on port 5433. The password is <private>" + PRIVATE
            + "</private> and the key is " + ANTHROPIC + " and DB_PASSWORD=\"" + DB_PASSWORD + "\". In config.exs: "
            + "neo4j_password: System.get_env(\"NEO4J_PASSWORD\", \"" + NEO4J_PASSWORD + "\"). Credentials: neo4j/"
            + NEO4J_PASSWORD;

    private static final List<String> SECRETS = List.of(PRIVATE, ANTHROPIC, DB_PASSWORD, NEO4J_PASSWORD, GITHUB);

    @TempDir
    Path tmp;

    @Test
    void replyReadFromTheTranscriptAtGraduationLeavesNoSecretUnderTheHome() throws Exception {
        Path transcript = tmp.resolve("transcript.jsonl");
        Files.writeString(transcript, String.join("\n",
                transcriptLine("user", "u1", "\"How do I reach the staging database?\"", "main"), transcriptLine(
                        "assistant", "a1", "[{\"type\":\"text\",\"text\":" + json(REPLY) + "}]", "fix/" + GITHUB))
                + "\n");
        Path hooks = tmp.resolve("hooks.jsonl");
        Files.writeString(hooks,
                String.join("\n",
                        hookLine("UserPromptSubmit", "\"prompt\":\"How do I reach the staging database?\"", transcript,
                                "2026-11-03T10:00:00Z"),
                        // an older Claude Code: Stop without last_assistant_message, so
                        // graduation reads the transcript
                        hookLine("Stop", "\"stop_hook_active\":false", transcript, "2026-11-03T10:00:30Z")) + "\n");
        Path home = tmp.resolve("home");

        assertThat(JobsJar.run(home, new byte[0], "import", "--hooks", hooks.toString()).exit()).isZero();
        JobsJar.Result graduated = JobsJar.run(home, new byte[0], "--job=graduate");

        assertThat(graduated.exit()).as(graduated.stderr()).isZero();
        assertThat(JobsJar.duckRows(home, "SELECT reply_source, reply_text FROM turns"))
            .containsExactly(List.of("transcript",
                    "The " + PLAIN + " answers on port 5433. The password is [PRIVATE] and the key is "
                            + "[REDACTED] and DB_PASSWORD=\"[REDACTED]\". In config.exs: neo4j_password: "
                            + "System.get_env(\"NEO4J_PASSWORD\", \"[REDACTED]\"). Credentials: neo4j/[REDACTED]"));
        assertThat(JobsJar.duckRows(home, "SELECT branch FROM sessions")).containsExactly(List.of("fix/[REDACTED]"));
        assertNoSecretUnderHome(home);
    }

    @Test
    void hookOnStdinLeavesNoSecretUnderTheHome() throws Exception {
        Path home = tmp.resolve("home");
        String event = "{\"session_id\":\"" + SESSION + "\",\"cwd\":\"" + tmp
                + "\",\"hook_event_name\":\"PostToolUse\","
                + "\"tool_name\":\"Bash\",\"tool_input\":{\"command\":\"cat config/dev.json\"},"
                + "\"tool_response\":{\"stdout\":"
                + json("{\n  \"host\": \"" + PLAIN + "\",\n  \"NEO4J_PASSWORD\": \"" + NEO4J_PASSWORD
                        + "\",\n  \"note\": \"<private>" + PRIVATE + "</private>\",\n  \"github\": \"" + GITHUB
                        + "\"\n}")
                + ",\"stderr\":" + json("warning: DB_PASSWORD=" + DB_PASSWORD + " " + ANTHROPIC)
                + "},\"tool_use_id\":\"toolu_1\"}";

        JobsJar.Result hook = JobsJar.run(home, JobsJar.utf8(event), "hook");
        assertThat(hook.exit()).isZero();
        assertNoSecretUnderHome(home);

        assertThat(JobsJar.run(home, new byte[0], "--job=graduate").exit()).isZero();
        assertThat(JobsJar.duckLong(home, "SELECT count(*) FROM observations")).isEqualTo(1);
        assertNoSecretUnderHome(home);
    }

    @Test
    void importedHookFileLeavesNoSecretUnderTheHome() throws Exception {
        Path hooks = tmp.resolve("hooks.jsonl");
        Files.writeString(hooks,
                String.join("\n", hookLine("UserPromptSubmit",
                        "\"prompt\":"
                                + json("Use <private>" + PRIVATE + "</private> with " + GITHUB + " against " + PLAIN),
                        null, "2026-11-03T10:00:00Z"),
                        hookLine("Stop", "\"last_assistant_message\":" + json(REPLY), null, "2026-11-03T10:00:30Z"))
                        + "\n");
        Path home = tmp.resolve("home");

        assertThat(JobsJar.run(home, new byte[0], "import", "--hooks", hooks.toString()).exit()).isZero();
        assertThat(JobsJar.run(home, new byte[0], "--job=graduate").exit()).isZero();

        assertThat(JobsJar.duckRows(home, "SELECT reply_source FROM turns")).containsExactly(List.of("stop"));
        assertNoSecretUnderHome(home);
    }

    @Test
    void importedTranscriptLeavesNoSecretUnderTheHome() throws Exception {
        Path projects = tmp.resolve("projects/-work-app");
        Files.createDirectories(projects);
        Files.writeString(projects.resolve(SESSION + ".jsonl"),
                String.join("\n",
                        transcriptLine("user", "u1", json("Use <private>" + PRIVATE + "</private> to reach " + PLAIN),
                                "main"),
                        transcriptLine("assistant", "a1", "[{\"type\":\"text\",\"text\":" + json(REPLY) + "}]",
                                "fix/" + GITHUB))
                        + "\n");
        Path home = tmp.resolve("home");

        JobsJar.Result imported = JobsJar.run(home, new byte[0], "import", "--transcripts",
                tmp.resolve("projects").toString());
        assertThat(imported.exit()).as(imported.stderr()).isZero();
        assertThat(JobsJar.run(home, new byte[0], "--job=graduate").exit()).isZero();

        assertThat(JobsJar.duckLong(home, "SELECT count(*) FROM turns")).isEqualTo(1);
        assertNoSecretUnderHome(home);
    }

    /**
     * Scans every file under the home as bytes; the plain word proves the scan reaches
     * the stored text.
     */
    private static void assertNoSecretUnderHome(Path home) throws IOException {
        List<Path> files;
        try (Stream<Path> walk = Files.walk(home)) {
            files = walk.filter(Files::isRegularFile).toList();
        }
        assertThat(files).isNotEmpty();
        List<String> found = new ArrayList<>();
        boolean plainSeen = false;
        for (Path file : files) {
            byte[] bytes = Files.readAllBytes(file);
            for (String secret : SECRETS) {
                if (indexOf(bytes, secret.getBytes(StandardCharsets.UTF_8)) >= 0) {
                    found.add(home.relativize(file) + ": " + secret);
                }
            }
            plainSeen |= indexOf(bytes, PLAIN.getBytes(StandardCharsets.UTF_8)) >= 0;
        }
        assertThat(found).as("secrets found under the home").isEmpty();
        assertThat(plainSeen).as("the plain word of the same text is found under the home").isTrue();
    }

    private static int indexOf(byte[] haystack, byte[] needle) {
        outer: for (int i = 0; i + needle.length <= haystack.length; i++) {
            for (int j = 0; j < needle.length; j++) {
                if (haystack[i + j] != needle[j]) {
                    continue outer;
                }
            }
            return i;
        }
        return -1;
    }

    private String hookLine(String event, String body, Path transcript, String timestamp) {
        return "{\"session_id\":\"" + SESSION + "\","
                + (transcript == null ? "" : "\"transcript_path\":\"" + transcript + "\",") + "\"cwd\":\"" + tmp
                + "\",\"hook_event_name\":\"" + event + "\"," + body + ",\"timestamp\":\"" + timestamp + "\"}";
    }

    private static String transcriptLine(String type, String uuid, String content, String branch) {
        return "{\"type\":\"" + type + "\",\"uuid\":\"" + uuid + "\",\"sessionId\":\"" + SESSION + "\","
                + "\"timestamp\":\"2026-11-03T10:00:10Z\",\"gitBranch\":" + json(branch) + ",\"message\":{\"role\":\""
                + type + "\",\"content\":" + content + "}}";
    }

    private static String json(String s) {
        StringBuilder sb = new StringBuilder("\"");
        for (char c : s.toCharArray()) {
            switch (c) {
                case '"' -> sb.append("\\\"");
                case '\\' -> sb.append("\\\\");
                case '\n' -> sb.append("\\n");
                default -> sb.append(c);
            }
        }
        return sb.append('"').toString();
    }

}
