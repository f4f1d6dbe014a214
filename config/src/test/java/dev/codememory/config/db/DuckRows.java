package dev.codememory.config.db;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/**
 * Rows of a query for assertions: one string per row, the columns joined by a space (a
 * lone column as it is).
 */
public final class DuckRows {

    private DuckRows() {
    }

    public static List<String> rows(DuckDb.Session session, String sql) throws SQLException {
        List<String> rows = new ArrayList<>();
        try (Connection c = session.connection();
                Statement st = c.createStatement();
                ResultSet rs = st.executeQuery(sql)) {
            int n = rs.getMetaData().getColumnCount();
            while (rs.next()) {
                if (n == 1) {
                    rows.add(rs.getString(1));
                    continue;
                }
                StringBuilder sb = new StringBuilder();
                for (int i = 1; i <= n; i++) {
                    sb.append(i > 1 ? " " : "").append(rs.getString(i));
                }
                rows.add(sb.toString());
            }
        }
        return rows;
    }

}
