package dev.codememory.readers.workingset;

import static org.assertj.core.api.Assertions.assertThat;

import dev.codememory.config.home.CodeMemoryHome;
import dev.codememory.config.ingest.SpoolLine;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SpoolTailTests {

    @TempDir
    Path tmp;

    private CodeMemoryHome home;

    @BeforeEach
    void spool() throws Exception {
        home = new CodeMemoryHome(tmp);
        Files.createDirectories(home.sealedSpool());
        Files.writeString(home.sealedSpool().resolve("20260301T090000.000000Z.jsonl"),
                "{\"session_id\":\"s1\",\"n\":1}\n{\"session_id\":\"s2\",\"n\":2}\n");
        Files.writeString(home.spool().resolve("current.jsonl"),
                "{\"session_id\":\"s1\",\"n\":3}\n{\"session_id\":\"s10\",\"n\":4}\n{\"session_id\":\"s1\",\"n\":5");
    }

    @Test
    void readsTheSessionsWholeLinesSealedFilesFirst() throws Exception {
        assertThat(SpoolTail.linesOf(home, "s1", 1 << 20)).extracting(SpoolLine::text)
            .containsExactly("{\"session_id\":\"s1\",\"n\":1}", "{\"session_id\":\"s1\",\"n\":3}");
    }

    @Test
    void readsEverySessionsWholeLines() throws Exception {
        assertThat(SpoolTail.lines(home, 1 << 20)).extracting(SpoolLine::text)
            .containsExactly("{\"session_id\":\"s1\",\"n\":1}", "{\"session_id\":\"s2\",\"n\":2}",
                    "{\"session_id\":\"s1\",\"n\":3}", "{\"session_id\":\"s10\",\"n\":4}");
    }

    @Test
    void readsAtMostTheNewestBytes() throws Exception {
        long current = Files.size(home.spool().resolve("current.jsonl"));

        assertThat(SpoolTail.linesOf(home, "s1", current)).extracting(SpoolLine::text)
            .containsExactly("{\"session_id\":\"s1\",\"n\":3}");
        assertThat(SpoolTail.linesOf(home, "s1", current - 5)).isEmpty();
    }

    @Test
    void noSpoolNoLines() throws Exception {
        assertThat(SpoolTail.linesOf(new CodeMemoryHome(tmp.resolve("none")), "s1", 1 << 20)).isEmpty();
    }

}
