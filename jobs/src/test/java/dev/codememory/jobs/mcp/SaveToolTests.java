package dev.codememory.jobs.mcp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.codememory.capture.spool.Spool;
import dev.codememory.config.home.CodeMemoryHome;
import dev.codememory.jobs.invocation.Invocation;
import dev.codememory.jobs.mcp.MemoryTools.Answer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code mem-save} in this process, on a real home: the save is a session of its own in
 * the spool, and the answer says when it becomes searchable.
 */
class SaveToolTests {

    @TempDir
    Path tmp;

    private CodeMemoryHome home;

    private Path project;

    @BeforeEach
    void home() throws Exception {
        home = new CodeMemoryHome(tmp.resolve("home")).ensureCreated();
        project = Files.createDirectories(tmp.resolve("project"));
    }

    @Test
    void aSaveIsAPromptAndItsEndInTheSpool() throws Exception {
        Answer answer = tool(false, () -> null).save(args("Deploys go through the staging cluster first"));

        assertThat(answer.error()).isFalse();
        assertThat(answer.text()).startsWith("saved for project ")
            .contains("it becomes searchable after the next graduation")
            .endsWith("Nothing else was changed.");
        List<String> lines = Files.readAllLines(Spool.forHome(home).currentFile());
        assertThat(lines).hasSize(2);
        assertThat(lines.get(0)).contains("UserPromptSubmit", "mem-save-", "Deploys go through the staging cluster");
        assertThat(lines.get(1)).contains("SessionEnd", "mem-save-");
    }

    @Test
    void insideServeTheAnswerSaysWhenServeGraduates() {
        assertThat(tool(true, () -> Duration.ofSeconds(90)).save(args("Use JDK 17")).text())
            .contains("serve graduates it in about 90 seconds");
        assertThat(tool(true, () -> Duration.ofMinutes(30)).save(args("Use JDK 17")).text())
            .contains("serve graduates it in about 30 minutes");
        assertThat(tool(true, () -> null).save(args("Use JDK 17")).text()).contains("at serve's next graduation");
    }

    @Test
    void anEmptyOrOverlongTextIsBadInputAndWritesNothing() throws Exception {
        assertThatThrownBy(() -> tool(false, () -> null).save(args(" "))).isInstanceOf(ToolArguments.BadInput.class)
            .hasMessageContaining("text is empty");
        assertThatThrownBy(() -> tool(false, () -> null).save(args("x".repeat(ToolCatalog.MAX_SAVE_CHARS + 1))))
            .isInstanceOf(ToolArguments.BadInput.class)
            .hasMessageContaining("longer than");
        Path spool = Spool.forHome(home).currentFile();
        assertThat(Files.exists(spool) ? Files.readAllLines(spool) : List.of()).isEmpty();
    }

    private SaveTool tool(boolean served, java.util.function.Supplier<Duration> graduateAfterSave) {
        return new SaveTool(Invocation.local(home), served, graduateAfterSave);
    }

    private ToolArguments args(String text) {
        return new ToolArguments(Map.of("text", text, "project", project.toString()));
    }

}
