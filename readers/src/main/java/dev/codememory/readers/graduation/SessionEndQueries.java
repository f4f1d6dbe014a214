package dev.codememory.readers.graduation;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;

/** When the last Claude Code session ended, as far as ingest has seen. */
public final class SessionEndQueries {

    private SessionEndQueries() {
    }

    /**
     * The capture time of the newest SessionEnd event in the store, or null when none has
     * been ingested.
     */
    public static Instant lastSessionEnd(Connection c) throws SQLException {
        try (Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SELECT max(received_at) FROM events WHERE event_type = 'SessionEnd'")) {
            rs.next();
            LocalDateTime at = rs.getObject(1, LocalDateTime.class);
            return at == null ? null : at.toInstant(ZoneOffset.UTC);
        }
    }

}
