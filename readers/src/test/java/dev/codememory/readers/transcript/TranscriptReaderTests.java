package dev.codememory.readers.transcript;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.codememory.readers.transcript.TranscriptReader.Message;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TranscriptReaderTests {

    /** Marks what passed the redaction, so a test sees that every text did. */
    private final TranscriptReader reader = new TranscriptReader(text -> text.replace("sk-secret", "[REDACTED]"));

    @TempDir
    Path dir;

    @Test
    void readsUserAndAssistantTextsInOrderThroughTheRedaction() throws Exception {
        Path file = transcript("{\"type\":\"summary\",\"summary\":\"Earlier work\"}",
                "{\"type\":\"user\",\"uuid\":\"u1\",\"sessionId\":\"s1\",\"timestamp\":\"2026-01-05T09:00:00Z\","
                        + "\"gitBranch\":\"feature/sk-secret\",\"message\":{\"role\":\"user\","
                        + "\"content\":\"Add retries, key sk-secret\"}}",
                "{\"type\":\"assistant\",\"uuid\":\"a1\",\"sessionId\":\"s1\",\"timestamp\":\"2026-01-05T09:00:05Z\","
                        + "\"message\":{\"content\":[{\"type\":\"thinking\",\"thinking\":\"hmm\"},"
                        + "{\"type\":\"text\",\"text\":\"Adding them.\"},{\"type\":\"tool_use\",\"name\":\"Edit\"},"
                        + "{\"type\":\"text\",\"text\":\"Done.\"}]}}",
                "{\"type\":\"user\",\"uuid\":\"u2\",\"sessionId\":\"s1\",\"isMeta\":true,"
                        + "\"message\":{\"content\":\"<command-name>/clear</command-name>\"}}",
                "{\"type\":\"user\",\"uuid\":\"u3\",\"sessionId\":\"s1\","
                        + "\"message\":{\"content\":[{\"type\":\"tool_result\",\"content\":\"ok\"}]}}");

        assertThat(reader.read(file)).containsExactly(
                new Message("u1", "user", "Add retries, key [REDACTED]", "2026-01-05T09:00:00Z", "feature/[REDACTED]"),
                new Message("a1", "assistant", "Adding them.\nDone.", "2026-01-05T09:00:05Z", null),
                new Message("u3", "user", "", null, null));
    }

    @Test
    void theBranchInTheTailIsTheLastOneNamedThereUnescaped() throws Exception {
        String filler = "{\"type\":\"assistant\",\"message\":{\"content\":\"" + "x".repeat(2_000) + "\"}}";
        Path file = transcript("{\"type\":\"user\",\"gitBranch\":\"main\"}", filler,
                "{\"type\":\"user\",\"gitBranch\": \"feature/\\\"quoted\\\"-\\u00e9\"}", filler);

        assertThat(TranscriptReader.branchInTail(file, 10_000)).isEqualTo("feature/\"quoted\"-\u00e9");
        assertThat(TranscriptReader.branchInTail(file, 2_060)).as("no whole branch in the last 2,060 bytes").isNull();
        assertThat(TranscriptReader.branchInTail(dir.resolve("missing.jsonl"), 10_000)).isNull();
    }

    @Test
    void aFifoIsNeitherOpenedNorRead() throws Exception {
        Path fifo = TranscriptFileTests.fifo(dir.resolve("fifo.jsonl"));

        // opening a FIFO for reading waits for a writer: none comes
        assertTimeoutPreemptively(Duration.ofSeconds(10), () -> {
            assertThat(TranscriptReader.branchInTail(fifo, 10_000)).isNull();
            assertThat(reader.read(fifo)).isEmpty();
        });
    }

    @Test
    void aRepeatedUuidKeepsItsLastLineAtTheEndAndOtherSessionsKeepTheirOwn() throws Exception {
        Path file = transcript(message("a1", "s1", "assistant", "first draft"),
                message("u1", "s1", "user", "and then?"), message("a1", "s1", "assistant", "final answer"),
                message("a1", "s2", "assistant", "another session"));

        assertThat(reader.read(file)).extracting(Message::uuid, Message::text)
            .containsExactly(tuple("u1", "and then?"), tuple("a1", "final answer"), tuple("a1", "another session"));
    }

    @Test
    void unreadableLinesAreSkippedAndAMissingFileIsEmpty() throws Exception {
        Path file = transcript("not json", "[1,2]", "{\"type\":\"user\",\"message\":{\"content\":\"no uuid\"}}", "",
                "{\"type\":\"user\",\"message\":{\"content\":\"no uuid either\"}}");

        assertThat(reader.read(file)).extracting(Message::uuid, Message::text)
            .as("messages without a uuid are all kept")
            .containsExactly(tuple(null, "no uuid"), tuple(null, "no uuid either"));
        assertThat(reader.read(dir.resolve("missing.jsonl"))).isEmpty();
        assertThat(reader.read(dir)).isEmpty();
        assertThat(reader.read(null)).isEmpty();
    }

    @Test
    void theReplyToAPromptIsTheAssistantTextUpToTheNextUserMessageOfItsLastAsking() {
        List<Message> messages = List.of(said("user", "Run the tests"), said("assistant", "Old reply."),
                said("user", "Something else"), said("assistant", "Other reply."), said("user", "  Run the tests "),
                said("assistant", "They pass."), said("assistant", " "), said("assistant", "All 40."),
                said("user", "Thanks"), said("assistant", "You're welcome."));

        assertThat(TranscriptReader.replyTo(messages, "Run the tests")).isEqualTo("They pass.\n\nAll 40.");
        assertThat(TranscriptReader.replyTo(messages, "Unknown prompt")).isNull();
        assertThat(TranscriptReader.replyTo(List.of(said("user", "Hello"), said("assistant", "")), "Hello"))
            .as("nothing said")
            .isNull();
    }

    @Test
    void theBranchIsTheLastOneNamed() {
        assertThat(TranscriptReader
            .branch(List.of(onBranch("main"), onBranch("feature/retries"), onBranch(" "), onBranch(null))))
            .isEqualTo("feature/retries");
        assertThat(TranscriptReader.branch(List.of(onBranch(null)))).isNull();
    }

    private Path transcript(String... lines) throws Exception {
        return Files.write(dir.resolve("session.jsonl"), List.of(lines));
    }

    private static String message(String uuid, String session, String role, String text) {
        return "{\"type\":\"" + role + "\",\"uuid\":\"" + uuid + "\",\"sessionId\":\"" + session
                + "\",\"message\":{\"content\":\"" + text + "\"}}";
    }

    private static Message said(String role, String text) {
        return new Message(null, role, text, null, null);
    }

    private static Message onBranch(String branch) {
        return new Message("u", "user", "x", null, branch);
    }

}
