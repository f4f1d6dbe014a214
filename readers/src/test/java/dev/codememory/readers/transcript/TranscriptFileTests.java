package dev.codememory.readers.transcript;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TranscriptFileTests {

    @TempDir
    Path dir;

    @Test
    void readsOnlyWhatTheFileHeldWhenItWasOpened() throws Exception {
        Path file = Files.writeString(dir.resolve("s.jsonl"), "{\"n\":1}\n");

        try (InputStream in = TranscriptFile.open(file)) {
            // Claude Code goes on writing it
            Files.writeString(file, "{\"n\":2}\n", StandardOpenOption.APPEND);
            assertThat(new String(in.readAllBytes(), StandardCharsets.UTF_8)).isEqualTo("{\"n\":1}\n");
        }
        assertThat(new String(TranscriptFile.tail(file, 5), StandardCharsets.UTF_8)).isEqualTo("\":2}\n");
        assertThat(new String(TranscriptFile.tail(file, 100), StandardCharsets.UTF_8))
            .isEqualTo("{\"n\":1}\n{\"n\":2}\n");
    }

    @Test
    void aFifoAFolderAndAMissingFileAreRefusedUnopened() throws Exception {
        Path fifo = fifo(dir.resolve("fifo.jsonl"));

        assertTimeoutPreemptively(Duration.ofSeconds(10), () -> {
            assertThatThrownBy(() -> TranscriptFile.open(fifo)).isInstanceOf(IOException.class)
                .hasMessage("not a regular file: " + fifo);
            assertThatThrownBy(() -> TranscriptFile.tail(fifo, 100)).isInstanceOf(IOException.class)
                .hasMessage("not a regular file: " + fifo);
        });
        assertThatThrownBy(() -> TranscriptFile.open(dir)).hasMessage("not a regular file: " + dir);
        assertThatThrownBy(() -> TranscriptFile.open(dir.resolve("none.jsonl")))
            .hasMessage("no such file: " + dir.resolve("none.jsonl"));
    }

    @Test
    void aLinkIsFollowedToARegularFileButNotToAFifo() throws Exception {
        Path file = Files.writeString(dir.resolve("s.jsonl"), "{\"n\":1}\n");
        Path toFile = Files.createSymbolicLink(dir.resolve("link.jsonl"), file);
        Path toFifo = Files.createSymbolicLink(dir.resolve("fifo-link.jsonl"), fifo(dir.resolve("fifo")));

        try (InputStream in = TranscriptFile.open(toFile)) {
            assertThat(new String(in.readAllBytes(), StandardCharsets.UTF_8)).isEqualTo("{\"n\":1}\n");
        }
        assertTimeoutPreemptively(Duration.ofSeconds(10), () -> assertThatThrownBy(() -> TranscriptFile.open(toFifo))
            .hasMessage("not a regular file: " + toFifo));
    }

    /** Makes a named pipe (mkfifo) at {@code path}. */
    static Path fifo(Path path) throws IOException, InterruptedException {
        Process mkfifo = new ProcessBuilder("mkfifo", path.toString()).redirectErrorStream(true).start();
        assertThat(mkfifo.waitFor()).as(new String(mkfifo.getInputStream().readAllBytes())).isZero();
        assertThat(Files.isRegularFile(path)).isFalse();
        assertThat(Files.exists(path)).isTrue();
        return path;
    }

}
