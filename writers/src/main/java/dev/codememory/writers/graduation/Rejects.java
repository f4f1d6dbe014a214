package dev.codememory.writers.graduation;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;

/** Insert-if-absent into {@code graduation_rejects}. */
final class Rejects {

    private Rejects() {
    }

    static void insert(Connection c, String subjectId, String stage, String reason, String detailJson)
            throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("""
                INSERT INTO graduation_rejects (subject_id, stage, reason, detail_json, rejected_at)
                VALUES (?, ?, ?, ?::JSON, now() AT TIME ZONE 'UTC') ON CONFLICT DO NOTHING""")) {
            ps.setString(1, subjectId);
            ps.setString(2, stage);
            ps.setString(3, reason);
            ps.setString(4, detailJson);
            ps.executeUpdate();
        }
    }
}
