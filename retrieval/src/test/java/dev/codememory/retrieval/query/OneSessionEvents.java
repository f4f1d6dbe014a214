package dev.codememory.retrieval.query;

import java.sql.SQLException;
import java.sql.Statement;

/**
 * The four events of session {@code s-1} in project {@code /p} the query tests build
 * their turns on: a prompt and its stop, twice, a minute apart from 2024-03-01 09:01.
 */
final class OneSessionEvents {

    private OneSessionEvents() {
    }

    static void insert(Statement st) throws SQLException {
        st.execute(event("ev1", 1, "2024-03-01 09:01:00", "UserPromptSubmit"));
        st.execute(event("ev2", 2, "2024-03-01 09:02:00", "Stop"));
        st.execute(event("ev3", 3, "2024-03-01 09:03:00", "UserPromptSubmit"));
        st.execute(event("ev4", 4, "2024-03-01 09:04:00", "Stop"));
    }

    private static String event(String id, int seq, String ts, String type) {
        return "INSERT INTO events (event_id, dedupe_key, seq, ts, received_at, event_type, session_id, project,"
                + " source, payload, checksum, spool_file, spool_line) VALUES ('" + id + "', 'k" + id + "', " + seq
                + ", '" + ts + "', '" + ts + "', '" + type + "', 's-1', '/p', 'import', '{}', 'c', 'f', " + seq + ")";
    }

}
