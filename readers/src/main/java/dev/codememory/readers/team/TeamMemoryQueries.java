package dev.codememory.readers.team;

import dev.codememory.config.team.TeamMemory;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads of the team store's PostgreSQL tables (created by the publish job's writer): the
 * live memories of a project, tombstones left out.
 */
public final class TeamMemoryQueries {

    private TeamMemoryQueries() {
    }

    /** The project's published, not withdrawn memories, oldest first. */
    public static List<TeamMemory> memories(Connection c, String schema, String teamProject) throws SQLException {
        List<TeamMemory> out = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement(
                "SELECT memory_id, team_project, kind, title, body, citation," + " author, created_ts FROM " + schema
                        + ".team_memories WHERE team_project = ? AND withdrawn_at IS NULL"
                        + " ORDER BY created_ts, memory_id")) {
            ps.setString(1, teamProject);
            ps.setFetchSize(5_000);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(new TeamMemory(rs.getString(1), rs.getString(2), rs.getString(3), rs.getString(4),
                            rs.getString(5), rs.getString(6), rs.getString(7), rs.getObject(8, LocalDateTime.class)));
                }
            }
        }
        return out;
    }

}
