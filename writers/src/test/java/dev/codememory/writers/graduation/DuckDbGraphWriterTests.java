package dev.codememory.writers.graduation;

import static org.assertj.core.api.Assertions.assertThat;

import dev.codememory.config.db.DuckDb;
import dev.codememory.config.db.DuckRows;
import dev.codememory.config.graduate.GraphUpdate.EdgeRow;
import dev.codememory.config.graduate.GraphUpdate.EntityRow;
import dev.codememory.config.graduate.GraphUpdate.ReplacedEdgeSet;
import dev.codememory.config.graduate.GraphUpdate.Supersession;
import dev.codememory.config.graduate.GraphUpdate.TaskEventRow;
import dev.codememory.config.graduate.GraphUpdate;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.batch.infrastructure.item.Chunk;

class DuckDbGraphWriterTests {

    private static final LocalDateTime T = LocalDateTime.parse("2026-03-02T09:00:00");

    /** The tables the writer touches, clock columns left out. */
    private static final List<String> TABLES = List.of(
            "SELECT dedupe_key, seq, event_type, entity_id, payload, ts, source_entry FROM task_events ORDER BY seq",
            "SELECT entity_id, entity_type, canonical_key, project, title, status, current_json FROM entities"
                    + " ORDER BY entity_id",
            "SELECT entity_type, canonical_key, entity_id, is_primary FROM entity_aliases ORDER BY ALL",
            "SELECT edge_id, src_type, src_id, rel_type, dst_type, dst_id, meta_json FROM edges ORDER BY edge_id",
            "SELECT entry_id, status, superseded_by FROM entries ORDER BY entry_id",
            "SELECT subject_id, stage FROM stage_marks ORDER BY ALL");

    @TempDir
    Path tmp;

    @Test
    void aChunkLeavesTheRowsItsUpdatesLeaveWrittenOneByOne() throws Exception {
        try (DuckDb.Session oneByOne = seeded("one-by-one"); DuckDb.Session together = seeded("together")) {
            DuckDbGraphWriter single = new DuckDbGraphWriter(oneByOne::connection);
            for (GraphUpdate u : updates()) {
                single.write(new Chunk<>(List.of(u)));
            }
            new DuckDbGraphWriter(together::connection).write(new Chunk<>(updates()));

            for (String table : TABLES) {
                assertThat(DuckRows.rows(together, table)).as(table).isEqualTo(DuckRows.rows(oneByOne, table));
            }
        }
    }

    @Test
    void updatesApplyInOrder() throws Exception {
        try (DuckDb.Session session = seeded("db")) {
            new DuckDbGraphWriter(session::connection).write(new Chunk<>(updates()));

            assertThat(DuckRows.rows(session, "SELECT dedupe_key, seq, payload FROM task_events ORDER BY seq"))
                .containsExactly("stored 1 {}", "created-2 2 {\"n\":1}", "status-2 3 {}");
            assertThat(DuckRows.rows(session,
                    "SELECT entity_id, canonical_key, project, title, status FROM entities ORDER BY entity_id"))
                .containsExactly("task_1 k p Renamed twice done", "task_2 k2 p Second title open");
            assertThat(DuckRows.rows(session, "SELECT canonical_key, entity_id FROM entity_aliases ORDER BY ALL"))
                .containsExactly("k task_1", "k-other task_1", "k2 task_2", "k2-other task_2");
            assertThat(DuckRows.rows(session, "SELECT src_id, rel_type, dst_id, meta_json FROM edges ORDER BY ALL"))
                .containsExactly("e2 supersedes e1 {\"similarity\":0.9}", "e3 supersedes e1 {\"similarity\":0.8}",
                        "e3 supersedes e4 {\"similarity\":0.85}", "task_1 blocked_by cond_b null",
                        "task_2 evidence_of e2 {\"first\":true}");
            assertThat(DuckRows.rows(session, "SELECT entry_id, status, superseded_by FROM entries ORDER BY entry_id"))
                .containsExactly("e1 superseded e2", "e2 active null", "e3 active null", "e4 superseded e3");
            assertThat(DuckRows.rows(session, "SELECT subject_id, stage FROM stage_marks ORDER BY ALL"))
                .containsExactly("e2 tasks", "e3 tasks", "e4 tasks");
        }
    }

    @Test
    void writingAChunkAgainChangesNothing() throws Exception {
        try (DuckDb.Session session = seeded("db")) {
            DuckDbGraphWriter writer = new DuckDbGraphWriter(session::connection);
            writer.write(new Chunk<>(updates()));
            List<List<String>> first = new ArrayList<>();
            for (String table : TABLES) {
                first.add(DuckRows.rows(session, table));
            }

            writer.write(new Chunk<>(updates()));

            for (int i = 0; i < TABLES.size(); i++) {
                assertThat(DuckRows.rows(session, TABLES.get(i))).as(TABLES.get(i)).isEqualTo(first.get(i));
            }
        }
    }

    /**
     * Updates whose order matters: a stored task renamed twice (its stored key kept), a
     * new task whose key comes from its first row and title from its last, a task event
     * written twice, a blocker set replaced twice (the stored edge and the first
     * replacement gone), an edge added and then cleared, an entry superseded by two
     * updates (the first wins, both edges stay), a mark written twice.
     */
    private static List<GraphUpdate> updates() {
        return List.of(new GraphUpdate("e2", "tasks",
                List.of(new TaskEventRow("created-2", "task_created", "task_2", "{\"n\":1}", T, "e2")),
                List.of(entity("task_1", "k-other", "Renamed once", "open"),
                        entity("task_2", "k2", "First title", "open")),
                List.of(new ReplacedEdgeSet("task_1", "blocked_by")),
                List.of(edge("task_1", "blocked_by", "cond_a", null), edge("task_2", "blocked_by", "cond_c", null),
                        edge("task_2", "evidence_of", "e2", "{\"first\":true}")),
                List.of(new Supersession("e1", "e2", 0.9))),
                new GraphUpdate("e3", "tasks",
                        List.of(new TaskEventRow("created-2", "task_created", "task_2", "{\"n\":2}", T, "e3"),
                                new TaskEventRow("status-2", "task_status_changed", "task_2", "{}", T, "e3")),
                        List.of(entity("task_1", "k", "Renamed twice", "done"),
                                entity("task_2", "k2-other", "Second title", "open")),
                        List.of(new ReplacedEdgeSet("task_1", "blocked_by"),
                                new ReplacedEdgeSet("task_2", "blocked_by")),
                        List.of(edge("task_1", "blocked_by", "cond_b", null),
                                edge("task_2", "evidence_of", "e2", "{\"first\":false}")),
                        List.of(new Supersession("e1", "e3", 0.8), new Supersession("e4", "e3", 0.85))),
                GraphUpdate.markOnly("e4", "tasks"), GraphUpdate.markOnly("e3", "tasks"));
    }

    private static EntityRow entity(String id, String key, String title, String status) {
        return new EntityRow(id, "task", key, "p", title, status, "{\"title\":\"" + title + "\"}");
    }

    private static EdgeRow edge(String src, String rel, String dst, String meta) {
        return new EdgeRow("entity", src, rel, "entity", dst, meta);
    }

    /**
     * A database with four active entries, a stored task with its alias, a stored blocker
     * edge and one task event.
     */
    private DuckDb.Session seeded(String name) throws Exception {
        DuckDb.Session session = new DuckDb(tmp.resolve(name + ".duckdb"), "1GB", 1).open();
        try (Connection c = session.connection(); Statement st = c.createStatement()) {
            for (String id : List.of("e1", "e2", "e3", "e4")) {
                st.execute("INSERT INTO entries VALUES ('" + id + "', 'c" + id + "', 'task', 'p', 's', now(), 't', 'b',"
                        + " NULL, '[]', 'k" + id + "', 'verified', 'active', NULL, now())");
            }
            st.execute("INSERT INTO entities VALUES ('task_1', 'task', 'k', 'p', 'Stored', 'open', '{}', now())");
            st.execute("INSERT INTO entity_aliases VALUES ('task', 'k', 'task_1', TRUE)");
            st.execute("INSERT INTO edges VALUES ('" + Edges.edgeId("task_1", "blocked_by", "cond_old")
                    + "', 'entity', 'task_1', 'blocked_by', 'entity', 'cond_old', NULL, now())");
            st.execute(
                    "INSERT INTO task_events VALUES ('stored', 1, 'task_created', 'task_1', '{}', TIMESTAMP '2026-03-01 08:00:00', 'e0')");
        }
        return session;
    }

}
