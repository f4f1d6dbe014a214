package dev.codememory.readers.transcript;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TranscriptRecordsTests {

    @TempDir
    Path projects;

    @Test
    void readsObjectsWithTheirLineNumbersAndCountsEveryOtherLine() throws Exception {
        Path file = projects.resolve("s.jsonl");
        Files.write(file,
                ("{\"type\":\"user\",\"uuid\":\"u1\"}\n"
                        + "{\"type\":\"assistant\",\"uuid\":\"a1\",\"message\":{\"content\":\"cut here\n" + "\n"
                        + "[1,2]\n" + "{\"type\":\"user\",\"uuid\":\"u2\",\"text\":\"caf\u00e9 ")
                    .getBytes("UTF-8"));
        byte[] tail = { (byte) 0xC3, (byte) 0x28, '"', '}', '\n' };
        Files.write(file, tail, java.nio.file.StandardOpenOption.APPEND);

        TranscriptRecords.FileRecords read = TranscriptRecords.read(file);

        assertThat(read.records()).extracting(r -> r.line() + " " + r.text("uuid")).containsExactly("1 u1", "5 u2");
        assertThat(read.records().get(1).text("text")).isEqualTo("café \uFFFD(");
        assertThat(read.invalidLines()).isEqualTo(3); // the truncated line, the blank
                                                      // line, the array
    }

    @Test
    void findsSessionFilesInTheOrderOfTheirFirstRecordThenSubagentFiles() throws Exception {
        Path project = Files.createDirectories(projects.resolve("-home-dev-shop"));
        Files.writeString(project.resolve("b-resumed.jsonl"),
                "{\"type\":\"summary\"}\n" + "{\"timestamp\":\"2026-03-02T10:00:00Z\"}\n");
        Files.writeString(project.resolve("c-first.jsonl"), "{\"timestamp\":\"2026-03-01T10:00:00Z\"}\n");
        Path subagents = Files.createDirectories(project.resolve("c-first/subagents"));
        Files.writeString(subagents.resolve("agent-1.jsonl"), "{\"timestamp\":\"2026-03-01T10:05:00Z\"}\n");
        Files.writeString(project.resolve("notes.txt"), "not a transcript");

        assertThat(TranscriptRecords.files(projects)).containsExactly(project.resolve("c-first.jsonl"),
                project.resolve("b-resumed.jsonl"), subagents.resolve("agent-1.jsonl"));
        assertThat(TranscriptRecords.files(project.resolve("c-first.jsonl")))
            .containsExactly(project.resolve("c-first.jsonl"), subagents.resolve("agent-1.jsonl"));
        assertThat(TranscriptRecords.isSubagentFile(subagents.resolve("agent-1.jsonl"))).isTrue();
        assertThat(TranscriptRecords.isSubagentFile(project.resolve("c-first.jsonl"))).isFalse();
    }

    @Test
    void aFifoGivenOrFoundIsNeverOpened() throws Exception {
        Path project = Files.createDirectories(projects.resolve("-home-dev-shop"));
        Files.writeString(project.resolve("a.jsonl"), "{\"timestamp\":\"2026-03-01T10:00:00Z\"}\n");
        Path fifo = TranscriptFileTests.fifo(project.resolve("b.jsonl"));

        assertTimeoutPreemptively(Duration.ofSeconds(10), () -> {
            assertThat(TranscriptRecords.files(projects)).containsExactly(project.resolve("a.jsonl"));
            assertThatThrownBy(() -> TranscriptRecords.files(fifo)).isInstanceOf(IOException.class)
                .hasMessage("not a regular file: " + fifo);
            assertThatThrownBy(() -> TranscriptRecords.read(fifo)).isInstanceOf(IOException.class)
                .hasMessage("not a regular file: " + fifo);
        });
    }

}
