package dev.codememory.writers.citation;

import dev.codememory.config.db.DuckRows;
import java.sql.SQLException;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.codememory.config.db.DatabaseException;
import dev.codememory.config.db.DuckDb;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.sql.Connection;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.function.IntFunction;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DuckDbCitationWriterTests {

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

    @Test
    void citesEveryVerifiedMemoryWithTheCodeTheJavaCitationGives() throws Exception {
        entry("entry-1", "verified", "active");
        entry("m-2", "verified", "superseded");
        entry("m-3", "unverified", "active");
        entry("m-4", "candidate", "active");

        int assigned = new DuckDbCitationWriter(session::connection).assignMissing();

        assertThat(assigned).isEqualTo(2);
        // "Xi1dHl" is what Citation.of("entry-1") gives (pinned in CitationTests)
        assertThat(rows("SELECT citation, memory_id, created_at IS NOT NULL FROM citations ORDER BY memory_id"))
            .containsExactly("Xi1dHl entry-1 true", code("m-2", 0) + " m-2 true");
    }

    @Test
    void runningTwiceChangesNothing() throws Exception {
        entry("m-1", "verified", "active");
        entry("m-2", "verified", "active");
        DuckDbCitationWriter writer = new DuckDbCitationWriter(session::connection);
        writer.assignMissing();
        List<String> first = rows("SELECT citation, memory_id, created_at FROM citations ORDER BY memory_id");

        assertThat(writer.assignMissing()).isZero();

        assertThat(rows("SELECT citation, memory_id, created_at FROM citations ORDER BY memory_id")).hasSize(2)
            .isEqualTo(first);
    }

    @Test
    void citesMemoriesVerifiedSinceTheLastRunAndKeepsTheOldCitations() throws Exception {
        entry("m-1", "verified", "active");
        entry("m-2", "candidate", "active");
        DuckDbCitationWriter writer = new DuckDbCitationWriter(session::connection);
        writer.assignMissing();
        exec("UPDATE entries SET stage = 'verified' WHERE entry_id = 'm-2'");

        assertThat(writer.assignMissing()).isEqualTo(1);

        assertThat(rows("SELECT citation, memory_id FROM citations ORDER BY memory_id"))
            .containsExactly(code("m-1", 0) + " m-1", code("m-2", 0) + " m-2");
    }

    @Test
    void aMemoryWhoseCodeIsAlreadyStoredRetriesWithTheNextRound() throws Exception {
        entry("m-1", "verified", "active");
        entry("m-2", "verified", "active");
        exec("INSERT INTO citations VALUES ('" + code("m-2", 0)
                + "', 'older-memory', TIMESTAMP '2026-01-01 00:00:00')");

        assertThat(new DuckDbCitationWriter(session::connection).assignMissing()).isEqualTo(2);

        assertThat(code("m-2", 1)).isNotEqualTo(code("m-2", 0));
        assertThat(rows("SELECT citation, memory_id FROM citations ORDER BY memory_id"))
            .containsExactly(code("m-1", 0) + " m-1", code("m-2", 1) + " m-2", code("m-2", 0) + " older-memory");
    }

    @Test
    void twoMemoriesClaimingOneCodeInOneRoundTheSmallestIdWinsAndTheOthersRetry() throws Exception {
        entry("m-b", "verified", "active");
        entry("m-a", "verified", "active");
        entry("m-c", "verified", "active");
        IntFunction<String> sameCodeInRoundZero = round -> round == 0 ? "'AAAAAA'"
                : DuckDbCitationWriter.codeSql(round);

        int assigned = new DuckDbCitationWriter(session::connection, sameCodeInRoundZero).assignMissing();

        assertThat(assigned).isEqualTo(3);
        assertThat(rows("SELECT citation, memory_id FROM citations ORDER BY memory_id")).containsExactly("AAAAAA m-a",
                code("m-b", 1) + " m-b", code("m-c", 1) + " m-c");
    }

    @Test
    void aLoserRetriesRoundAfterRoundUntilACodeIsFree() throws Exception {
        entry("m-a", "verified", "active");
        entry("m-b", "verified", "active");
        IntFunction<String> sameCodeInRoundsZeroAndOne = round -> round <= 1 ? "'AAAAAA'"
                : DuckDbCitationWriter.codeSql(round);

        new DuckDbCitationWriter(session::connection, sameCodeInRoundsZeroAndOne).assignMissing();

        assertThat(rows("SELECT citation, memory_id FROM citations ORDER BY memory_id")).containsExactly("AAAAAA m-a",
                code("m-b", 2) + " m-b");
    }

    @Test
    void givesUpAfterTheLastRoundAndStoresNothing() throws Exception {
        entry("m-a", "verified", "active");
        entry("m-b", "verified", "active");
        DuckDbCitationWriter alwaysTheSameCode = new DuckDbCitationWriter(session::connection, round -> "'AAAAAA'");

        assertThatThrownBy(alwaysTheSameCode::assignMissing).isInstanceOf(DatabaseException.class)
            .hasMessage("citations: 1 memories still without a free code after 64 rounds");

        assertThat(rows("SELECT citation, memory_id FROM citations")).isEmpty();
    }

    @Test
    void codesAreSixUrlSafeCharactersAndDistinctOverManyMemories() throws Exception {
        exec("""
                INSERT INTO entries (entry_id, candidate_id, entry_type, project, session_id, created_ts, title, body,
                                     quotes_json, canonical_key, stage, created_at)
                SELECT 'bulk-' || i, 'c' || i, 'fact', '/p', 's', TIMESTAMP '2026-01-01 00:00:00', 't', 'b', '[]',
                       'k' || i, 'verified', TIMESTAMP '2026-01-01 00:00:00' FROM range(5000) r(i)""");

        assertThat(new DuckDbCitationWriter(session::connection).assignMissing()).isEqualTo(5000);

        assertThat(rows("SELECT count(*), count(DISTINCT citation), count(DISTINCT memory_id),"
                + " bool_and(regexp_full_match(citation, '[A-Za-z0-9_-]{6}')) FROM citations"))
            .containsExactly("5000 5000 5000 true");
        // no collision among these ids: each carries exactly its round-0 code, the one
        // Citation.of gives
        List<String> mismatches = new ArrayList<>();
        for (String row : rows("SELECT memory_id, citation FROM citations")) {
            String[] parts = row.split(" ");
            if (!parts[1].equals(code(parts[0], 0))) {
                mismatches.add(row);
            }
        }
        assertThat(mismatches).isEmpty();
    }

    /**
     * The JDK computation Citation.of does, for round n: base64url(sha256(id [+ "#" +
     * n])), first 6 chars.
     */
    private static String code(String memoryId, int round) throws Exception {
        String input = round == 0 ? memoryId : memoryId + "#" + round;
        byte[] digest = MessageDigest.getInstance("SHA-256").digest(input.getBytes(StandardCharsets.UTF_8));
        return Base64.getUrlEncoder().withoutPadding().encodeToString(digest).substring(0, 6);
    }

    private void entry(String id, String stage, String status) throws Exception {
        exec("INSERT INTO entries (entry_id, candidate_id, entry_type, project, session_id, created_ts, title, body,"
                + " quotes_json, canonical_key, stage, status, created_at) VALUES ('" + id + "', 'c" + id
                + "', 'fact', '/p', 's', TIMESTAMP '2026-01-01 10:00:00', 'title', 'body', '[]', 'k" + id + "', '"
                + stage + "', '" + status + "', TIMESTAMP '2026-01-01 10:00:00')");
    }

    private void exec(String sql) throws Exception {
        try (Connection c = session.connection(); Statement st = c.createStatement()) {
            st.execute(sql);
        }
    }

    private List<String> rows(String sql) throws SQLException {
        return DuckRows.rows(session, sql);
    }

}
