package dev.codememory.readers.vector;

import dev.codememory.config.db.Sql;
import dev.codememory.config.vector.MemoryTexts;
import dev.codememory.config.vector.VectorWork;
import dev.codememory.readers.pending.PendingItemReader;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.LocalDateTime;
import java.util.List;

/**
 * The read side of the vector stage ({@code embedMemoriesStep}): the pending outbox work
 * (its keys are {@code VectorOutbox.pendingSql} in the writers' {@code vector} package)
 * loaded with each memory's text and fields.
 */
public final class VectorWorkQueries {

    private VectorWorkQueries() {
    }

    /**
     * Pending vector work for the reader's key table: the outbox op joined with the
     * memory's fields and the text {@code texts} makes of it (for an exchange, with the
     * excerpt quoted from its reply: the first quote of field {@code reply}).
     */
    public static List<VectorWork> vectorWork(Connection c, String version, MemoryTexts texts) throws SQLException {
        return Sql.list(c, """
                SELECT o.memory_id, o.op, e.title, e.body, e.project, e.entry_type, e.status, e.created_ts,
                       CASE WHEN e.entry_type <> 'exchange' THEN NULL
                            WHEN json_extract_string(e.quotes_json, '$[0].field') = 'reply'
                              THEN json_extract_string(e.quotes_json, '$[0].text')
                            WHEN json_extract_string(e.quotes_json, '$[1].field') = 'reply'
                              THEN json_extract_string(e.quotes_json, '$[1].text') END
                FROM %s p JOIN vector_outbox o ON o.memory_id = p.key AND o.embedding_version = ?
                LEFT JOIN entries e ON e.entry_id = o.memory_id
                ORDER BY p.ord""".formatted(PendingItemReader.KEYS_TABLE), rs -> {
            if ("delete".equals(rs.getString(2)) || rs.getString(3) == null) {
                return new VectorWork(rs.getString(1), VectorWork.Op.DELETE, null, null, null, null, null);
            }
            return new VectorWork(rs.getString(1), VectorWork.Op.UPSERT,
                    texts.embeddingText(rs.getString(6), rs.getString(3), rs.getString(4), rs.getString(9)),
                    rs.getString(5), rs.getString(6), rs.getString(7), rs.getObject(8, LocalDateTime.class));
        }, version);
    }

}
