package dev.codememory.writers.team;

import dev.codememory.config.db.Sql;
import dev.codememory.config.team.SharedMemory.SharedQuote;
import dev.codememory.config.team.SharedMemory;
import dev.codememory.config.team.TeamStoreException;
import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.util.Collection;
import java.util.List;
import java.util.function.Supplier;
import java.util.regex.Pattern;

/**
 * The team store's PostgreSQL side: one row per published memory (its words, citation,
 * author and team project) and its evidence quotes, in a schema of the team's choosing.
 * Who may write and read is PostgreSQL's business: the role and password of the JDBC URL
 * or the settings, and the grants on the schema.
 *
 * <p>
 * Every write is keyed by memory id and repeatable: an upsert replaces a memory's row and
 * its quotes; a withdrawal leaves a tombstone (the row without its words, with
 * {@code withdrawn_at}), which a later upsert of the same id never brings back.
 */
public final class PostgresTeamStore {

    private static final Pattern IDENTIFIER = Pattern.compile("[a-z_][a-z0-9_]{0,62}");

    private final Supplier<Connection> connections;

    private final String schema;

    /**
     * @param connections opens a connection to the team database (the caller's settings:
     * URL, role, password, timeouts)
     * @param schema a plain lower-case identifier
     */
    public PostgresTeamStore(Supplier<Connection> connections, String schema) {
        if (schema == null || !IDENTIFIER.matcher(schema).matches()) {
            throw new IllegalArgumentException(
                    "code-memory.team.postgres.schema must be a lower-case SQL identifier, was " + schema);
        }
        this.connections = connections;
        this.schema = schema;
    }

    public String schema() {
        return schema;
    }

    /** Creates the schema's tables when missing. Idempotent. */
    public void ensureReady() {
        run("create the team tables", c -> {
            try (Statement st = c.createStatement()) {
                st.execute("CREATE SCHEMA IF NOT EXISTS " + schema);
                st.execute("CREATE TABLE IF NOT EXISTS " + schema + ".team_memories (memory_id TEXT PRIMARY KEY,"
                        + " team_project TEXT NOT NULL, kind TEXT NOT NULL, title TEXT NOT NULL, body TEXT NOT NULL,"
                        + " citation TEXT NOT NULL, author TEXT NOT NULL, created_ts TIMESTAMP NOT NULL,"
                        + " published_at TIMESTAMPTZ NOT NULL, withdrawn_at TIMESTAMPTZ)");
                st.execute("CREATE INDEX IF NOT EXISTS team_memories_live ON " + schema
                        + ".team_memories (team_project) WHERE withdrawn_at IS NULL");
                st.execute("CREATE TABLE IF NOT EXISTS " + schema + ".team_evidence (memory_id TEXT NOT NULL,"
                        + " quote_index INTEGER NOT NULL, field TEXT NOT NULL, tool TEXT, quote TEXT NOT NULL,"
                        + " PRIMARY KEY (memory_id, quote_index))");
            }
            return null;
        });
    }

    /** A memory on its way, with its project's team key. */
    public record Published(SharedMemory memory, String teamProject, String citation) {
    }

    /**
     * Upserts the memories and replaces their quotes in one transaction; tombstones stay
     * tombstones.
     */
    public void upsert(List<Published> memories, String author) {
        if (memories.isEmpty()) {
            return;
        }
        run("publish " + memories.size() + " memories", c -> {
            c.setAutoCommit(false);
            try (PreparedStatement upsert = c.prepareStatement("INSERT INTO " + schema + ".team_memories"
                    + " (memory_id, team_project, kind, title, body, citation, author, created_ts, published_at)"
                    + " VALUES (?, ?, ?, ?, ?, ?, ?, ?, now()) ON CONFLICT (memory_id) DO UPDATE SET"
                    + " team_project = EXCLUDED.team_project, kind = EXCLUDED.kind, title = EXCLUDED.title,"
                    + " body = EXCLUDED.body, citation = EXCLUDED.citation, author = EXCLUDED.author,"
                    + " created_ts = EXCLUDED.created_ts, published_at = EXCLUDED.published_at" + " WHERE " + schema
                    + ".team_memories.withdrawn_at IS NULL");
                    PreparedStatement clear = c
                        .prepareStatement("DELETE FROM " + schema + ".team_evidence WHERE memory_id = ANY (?)");
                    PreparedStatement quote = c.prepareStatement("INSERT INTO " + schema + ".team_evidence"
                            + " (memory_id, quote_index, field, tool, quote) SELECT ?, ?, ?, ?, ? WHERE EXISTS"
                            + " (SELECT 1 FROM " + schema
                            + ".team_memories WHERE memory_id = ? AND withdrawn_at IS NULL)")) {
                for (Published p : memories) {
                    SharedMemory m = p.memory();
                    upsert.setString(1, m.memoryId());
                    upsert.setString(2, p.teamProject());
                    upsert.setString(3, m.kind());
                    upsert.setString(4, m.title());
                    upsert.setString(5, m.body());
                    upsert.setString(6, p.citation());
                    upsert.setString(7, author);
                    upsert.setTimestamp(8, Timestamp.valueOf(m.createdTs()));
                    upsert.addBatch();
                }
                upsert.executeBatch();
                clear.setArray(1, ids(c, memories.stream().map(p -> p.memory().memoryId()).toList()));
                clear.executeUpdate();
                for (Published p : memories) {
                    for (SharedQuote q : p.memory().quotes()) {
                        quote.setString(1, p.memory().memoryId());
                        quote.setInt(2, q.index());
                        quote.setString(3, q.field());
                        quote.setString(4, q.tool());
                        quote.setString(5, q.text());
                        quote.setString(6, p.memory().memoryId());
                        quote.addBatch();
                    }
                }
                quote.executeBatch();
                c.commit();
            }
            catch (SQLException | RuntimeException e) {
                c.rollback();
                throw e;
            }
            return null;
        });
    }

    /**
     * Leaves a tombstone for each of these memories: its words and quotes are removed,
     * its id, project, author and time of withdrawal stay. Ids never published are
     * ignored.
     */
    public void withdraw(Collection<String> memoryIds) {
        if (memoryIds.isEmpty()) {
            return;
        }
        run("withdraw " + memoryIds.size() + " memories", c -> {
            c.setAutoCommit(false);
            try {
                Array ids = ids(c, List.copyOf(memoryIds));
                Sql.update(c, "UPDATE " + schema + ".team_memories SET title = '', body = '',"
                        + " withdrawn_at = coalesce(withdrawn_at, now()) WHERE memory_id = ANY (?)", ids);
                Sql.update(c, "DELETE FROM " + schema + ".team_evidence WHERE memory_id = ANY (?)", ids);
                c.commit();
            }
            catch (SQLException | RuntimeException e) {
                c.rollback();
                throw e;
            }
            return null;
        });
    }

    private static Array ids(Connection c, List<String> ids) throws SQLException {
        return c.createArrayOf("text", ids.toArray());
    }

    private interface Work<T> {

        T run(Connection c) throws SQLException;

    }

    private <T> T run(String what, Work<T> work) {
        try (Connection c = connections.get()) {
            return work.run(c);
        }
        catch (SQLException | RuntimeException e) {
            if (e instanceof TeamStoreException t) {
                throw t;
            }
            throw new TeamStoreException("team store (PostgreSQL): cannot " + what + ": " + e.getMessage(), e);
        }
    }

}
