package dev.codememory.writers.project;

import static org.assertj.core.api.Assertions.assertThat;

import dev.codememory.config.db.DuckDb;
import dev.codememory.config.project.ProjectResolver;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DuckDbWorktreeWriterTests {

    @TempDir
    Path tmp;

    private DuckDb.Session session;

    @BeforeEach
    void open() {
        session = new DuckDb(tmp.resolve("memory.duckdb"), "1GB", 1).open();
    }

    @AfterEach
    void close() {
        session.close();
    }

    /**
     * Only a linked worktree joins its repository: a repository that was nested in
     * another and is gone now resolves to the outer one, and stays a project of its own.
     */
    @Test
    void movesALinkedWorktreeAndNothingElse() throws Exception {
        Path main = Files.createDirectories(tmp.resolve("main"));
        Files.createDirectories(main.resolve(".git/worktrees/wt"));
        Path worktree = Files.createDirectories(tmp.resolve("wt"));
        Files.writeString(worktree.resolve(".git"), "gitdir: " + main.resolve(".git/worktrees/wt") + "\n");
        Path gone = main.resolve("scratch"); // a nested repository, deleted since
        insertEvent("ev1", worktree.toString());
        insertEvent("ev2", gone.toString());
        insertEvent("ev3", main.toString());

        Map<String, String> moves = new DuckDbWorktreeWriter(session::connection).joinWorktrees(new ProjectResolver());

        assertThat(moves).containsExactly(Map.entry(worktree.toString(), main.toString()));
        assertThat(projects()).containsExactly(main.toString(), gone.toString(), main.toString());
    }

    private void insertEvent(String id, String project) throws Exception {
        try (Connection c = session.connection(); Statement st = c.createStatement()) {
            st.execute("INSERT INTO events VALUES ('" + id + "', 'k" + id + "', 1, TIMESTAMP '2026-03-02 09:00:00', "
                    + "TIMESTAMP '2026-03-02 09:00:00', 'UserPromptSubmit', 's', '" + project + "', '" + project
                    + "', 'hook', '{}', 'c', 'f', 1, now())");
        }
    }

    private List<String> projects() throws Exception {
        List<String> out = new ArrayList<>();
        try (Connection c = session.connection();
                Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SELECT project FROM events ORDER BY event_id")) {
            while (rs.next()) {
                out.add(rs.getString(1));
            }
        }
        return out;
    }

}
