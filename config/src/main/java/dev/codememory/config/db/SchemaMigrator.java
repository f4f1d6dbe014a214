package dev.codememory.config.db;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;

/**
 * Applies the versioned scripts under {@code db/migration/} in order, each in its own
 * transaction, and records them in {@code schema_migrations}. A new migration is a new
 * file plus one line in {@link #MIGRATIONS}.
 */
public final class SchemaMigrator {

    /** In order. Never edit a released script: add the next one. */
    static final List<String> MIGRATIONS = List.of("V001__foundation.sql", "V002__graduation.sql", "V003__vectors.sql",
            "V004__citations.sql", "V005__injections.sql", "V006__derivations.sql", "V007__forget.sql",
            "V008__evidence_by_entry.sql", "V009__events_keyed_once.sql", "V010__team.sql", "V011__continuity.sql",
            "V012__team_marks.sql", "V013__turn_lookups.sql", "V014__distill.sql");

    public static int latestVersion() {
        return MIGRATIONS.size();
    }

    public void migrate(Connection connection) {
        migrate(connection, MIGRATIONS.size());
    }

    /**
     * Applies the scripts up to {@code version}: what a database of an older release has.
     */
    void migrate(Connection connection, int version) {
        try {
            try (Statement st = connection.createStatement()) {
                st.execute("CREATE TABLE IF NOT EXISTS schema_migrations ("
                        + "version INTEGER PRIMARY KEY, script VARCHAR NOT NULL, applied_at TIMESTAMP NOT NULL)");
            }
            int current = currentVersion(connection);
            for (int v = current + 1; v <= version; v++) {
                apply(connection, v, MIGRATIONS.get(v - 1));
            }
        }
        catch (SQLException e) {
            throw new DatabaseException("schema migration failed: " + e.getMessage(), e);
        }
    }

    public static int currentVersion(Connection connection) throws SQLException {
        try (Statement st = connection.createStatement();
                ResultSet rs = st.executeQuery("SELECT coalesce(max(version), 0) FROM schema_migrations")) {
            rs.next();
            return rs.getInt(1);
        }
    }

    private void apply(Connection connection, int version, String script) throws SQLException {
        String sql = read("db/migration/" + script);
        boolean autoCommit = connection.getAutoCommit();
        connection.setAutoCommit(false);
        try {
            try (Statement st = connection.createStatement()) {
                for (String statement : statements(sql)) {
                    st.execute(statement);
                }
            }
            Sql.update(connection, "INSERT INTO schema_migrations VALUES (?, ?, now() AT TIME ZONE 'UTC')", version,
                    script);
            connection.commit();
        }
        catch (SQLException e) {
            Transactions.rollback(connection, e);
            throw new SQLException("in " + script + ": " + e.getMessage(), e);
        }
        finally {
            connection.setAutoCommit(autoCommit);
        }
    }

    /**
     * Splits a script on ';' at line ends, dropping '--' comment lines. Scripts keep to
     * that shape.
     */
    static List<String> statements(String sql) {
        StringBuilder cleaned = new StringBuilder();
        for (String line : sql.split("\n")) {
            int comment = line.indexOf("--");
            cleaned.append(comment >= 0 ? line.substring(0, comment) : line).append('\n');
        }
        return java.util.Arrays.stream(cleaned.toString().split(";\\s*\n"))
            .map(String::strip)
            .filter(s -> !s.isEmpty())
            .toList();
    }

    private static String read(String resource) {
        try (InputStream in = SchemaMigrator.class.getClassLoader().getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("missing migration resource " + resource);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        catch (IOException e) {
            throw new IllegalStateException("cannot read " + resource, e);
        }
    }

}
