package dev.codememory.writers.graduation;

import dev.codememory.config.db.Sql;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.HexFormat;

/** Insert-if-absent of an edge whose id derives from (src, rel, dst). */
public final class Edges {

    private Edges() {
    }

    public static String edgeId(String srcId, String rel, String dstId) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256")
                .digest((srcId + '|' + rel + '|' + dstId).getBytes(StandardCharsets.UTF_8));
            return "edge_" + HexFormat.of().formatHex(digest).substring(0, 32);
        }
        catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    public static void insert(Connection c, String srcType, String srcId, String rel, String dstType, String dstId,
            String metaJson) throws SQLException {
        Sql.update(c, """
                INSERT INTO edges (edge_id, src_type, src_id, rel_type, dst_type, dst_id, meta_json, created_at)
                VALUES (?, ?, ?, ?, ?, ?, ?::JSON, now() AT TIME ZONE 'UTC') ON CONFLICT (edge_id) DO NOTHING""",
                edgeId(srcId, rel, dstId), srcType, srcId, rel, dstType, dstId, metaJson);
    }

}
