package dev.codememory.writers.events;

import dev.codememory.config.db.DatabaseException;
import dev.codememory.config.ingest.IngestRecord;
import dev.codememory.writers.injection.DuckDbInjectionWriter;
import dev.codememory.writers.staging.Staging;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import org.duckdb.DuckDBAppender;
import org.duckdb.DuckDBConnection;
import org.springframework.batch.infrastructure.item.Chunk;
import org.springframework.batch.infrastructure.item.ItemWriter;

/**
 * Writes a chunk of ingested lines: events into {@code events}, rejects into {@code event_rejects}, injection
 * records into {@code injections} ({@link DuckDbInjectionWriter}, same transaction). Rows go
 * through the Appender into per-connection staging tables (bulk, ~400k rows/s) and then into the real tables
 * with an anti-join on their keys, in one transaction. A {@link IngestRecord.PlainEvent} is staged as its line: one
 * statement extracts every such line's payload ({@code json_extract}, which prints plain JSON byte for byte as
 * ingest's Jackson mapper does) and computes its SHA-256 dedupe key, event id and checksum, set-based and on all
 * cores. {@code seq} continues from the largest one in spool order
 * (there is one writer at a time: the job lock). So the writer is idempotent: a chunk written again after
 * a crash (batch metadata and DuckDB commit separately) adds nothing. This class only ever inserts.
 *
 * <p>Two kinds of event are not inserted: what the user erased with {@code forget} (its dedupe key or its session is
 * in {@code forgotten}), and an event read from a transcript ({@code source = 'transcript'}) for the part of a
 * session the hooks captured themselves (from that session's first hook event on), which would otherwise be
 * there twice.
 */
public class DuckDbIngestWriter implements ItemWriter<IngestRecord> {

    private static final String STAGE_EVENTS = "ingest_stage_events";
    private static final String STAGE_REJECTS = "ingest_stage_rejects";
    private static final String STAGE_PLAIN = "ingest_stage_plain";

    private final Supplier<DuckDBConnection> connections;
    private final DuckDbInjectionWriter injections = new DuckDbInjectionWriter();

    public DuckDbIngestWriter(Supplier<DuckDBConnection> connections) {
        this.connections = connections;
    }

    @Override
    public void write(Chunk<? extends IngestRecord> chunk) {
        try (DuckDBConnection connection = connections.get()) {
            connection.setAutoCommit(false);
            try {
                stage(connection, chunk);
                try (Statement st = connection.createStatement()) {
                    st.executeUpdate(INSERT_NEW_EVENTS);
                    st.executeUpdate("""
                            INSERT INTO event_rejects (reject_id, spool_file, spool_line, reason, raw_text, received_at)
                            SELECT s.reject_id, s.spool_file, s.spool_line, s.reason, s.raw_text, s.received_at
                            FROM (SELECT DISTINCT ON (reject_id) * FROM temp.main.%s) s
                            WHERE NOT EXISTS (SELECT 1 FROM event_rejects r WHERE r.reject_id = s.reject_id)
                            """.formatted(STAGE_REJECTS));
                }
                List<IngestRecord.Injected> injected = injected(chunk);
                if (!injected.isEmpty()) {
                    injections.write(connection, injected);
                }
                connection.commit();
            } catch (SQLException | RuntimeException e) {
                rollbackQuietly(connection);
                throw e;
            }
        } catch (SQLException e) {
            throw new DatabaseException("cannot write " + chunk.size() + " ingested lines: " + e.getMessage(), e);
        }
    }

    /**
     * The staged events that are new, numbered in spool order after the last {@code seq}. Plain lines become events
     * here: the payload is the line's {@code event} object as {@code json_extract} prints it, the dedupe key hashes
     * the key text followed by the payload, or the key text alone for an event keyed by its own identity (see
     * {@code EventIdentity}). A transcript event is only compared with the sessions it names, so the hook events'
     * first times are looked up for those sessions alone.
     */
    private static final String INSERT_NEW_EVENTS = """
            INSERT INTO events (event_id, dedupe_key, seq, ts, received_at, event_type, session_id,
                                project, cwd, source, payload, checksum, spool_file, spool_line)
            WITH plain AS (
                SELECT *, sha256(CASE WHEN key_hashes_payload THEN key_text || payload ELSE key_text END) AS dedupe_key
                FROM (SELECT *, json_extract(line_json, '$.event')::VARCHAR AS payload,
                             json_extract_string(line_json, ['$.event.hook_event_name', '$.event.session_id',
                                                             '$.event.cwd', '$.source']) AS f,
                             json_type(line_json, ['$.event.session_id', '$.event.cwd']) AS t
                      FROM temp.main.%2$s)
            ), staged AS (
                SELECT event_id, dedupe_key, ts, received_at, event_type, session_id, project, cwd, source,
                       payload, checksum, spool_file, spool_line
                FROM temp.main.%1$s
                UNION ALL
                SELECT 'ev_' || left(dedupe_key, 32), dedupe_key, ts, received_at, f[1],
                       CASE WHEN t[1] = 'VARCHAR' THEN f[2] END, project, CASE WHEN t[2] = 'VARCHAR' THEN f[3] END,
                       coalesce(f[4], 'hook'), payload, sha256(payload), spool_file, spool_line
                FROM plain
            ), first_hook AS (
                SELECT h.session_id, min(h.ts) AS ts FROM events h
                WHERE h.source = 'hook'
                  AND h.session_id IN (SELECT session_id FROM staged WHERE source = 'transcript')
                GROUP BY h.session_id
            )
            SELECT s.event_id, s.dedupe_key,
                   (SELECT coalesce(max(seq), 0) FROM events)
                       + row_number() OVER (ORDER BY s.spool_file, s.spool_line),
                   s.ts, s.received_at, s.event_type,
                   s.session_id, s.project, s.cwd, s.source, s.payload::JSON, s.checksum,
                   s.spool_file, s.spool_line
            FROM (SELECT * FROM staged
                  QUALIFY row_number() OVER (PARTITION BY dedupe_key ORDER BY spool_file, spool_line) = 1) s
            LEFT JOIN first_hook ON first_hook.session_id = s.session_id
            WHERE NOT EXISTS (SELECT 1 FROM events e WHERE e.dedupe_key = s.dedupe_key)
              AND NOT EXISTS (SELECT 1 FROM forgotten f WHERE f.kind = 'event'
                              AND f.key = s.dedupe_key)
              AND NOT EXISTS (SELECT 1 FROM forgotten f WHERE f.kind = 'session'
                              AND f.key = s.session_id)
              AND NOT (s.source = 'transcript' AND s.ts >= coalesce(first_hook.ts, 'infinity'::TIMESTAMP))
            ORDER BY s.spool_file, s.spool_line
            """.formatted(STAGE_EVENTS, STAGE_PLAIN);

    private static void stage(DuckDBConnection connection, Chunk<? extends IngestRecord> chunk) throws SQLException {
        try (DuckDBAppender events = Staging.table(connection, STAGE_EVENTS, "event_id VARCHAR, dedupe_key VARCHAR,"
                + " ts TIMESTAMP, received_at TIMESTAMP, event_type VARCHAR, session_id VARCHAR, project VARCHAR,"
                + " cwd VARCHAR, source VARCHAR, payload VARCHAR, checksum VARCHAR, spool_file VARCHAR,"
                + " spool_line BIGINT");
                DuckDBAppender rejects = Staging.table(connection, STAGE_REJECTS, "reject_id VARCHAR,"
                        + " spool_file VARCHAR, spool_line BIGINT, reason VARCHAR, raw_text VARCHAR,"
                        + " received_at TIMESTAMP");
                DuckDBAppender plainEvents = Staging.table(connection, STAGE_PLAIN, "spool_file VARCHAR,"
                        + " spool_line BIGINT, line_json VARCHAR, ts TIMESTAMP, received_at TIMESTAMP,"
                        + " project VARCHAR, key_text VARCHAR, key_hashes_payload BOOLEAN")) {
            for (IngestRecord item : chunk) {
                if (item instanceof IngestRecord.PlainEvent p) {
                    plainEvents.beginRow()
                            .append(p.spoolFile()).append(p.spoolLine()).append(p.lineJson()).append(p.ts())
                            .append(p.receivedAt()).append(p.project()).append(p.keyText())
                            .append(p.keyHashesPayload())
                            .endRow();
                } else if (item instanceof IngestRecord.Event e) {
                    events.beginRow()
                            .append(e.eventId()).append(e.dedupeKey()).append(e.ts()).append(e.receivedAt())
                            .append(e.eventType()).append(e.sessionId()).append(e.project()).append(e.cwd())
                            .append(e.source()).append(e.payloadJson()).append(e.checksum())
                            .append(e.spoolFile()).append(e.spoolLine())
                            .endRow();
                } else if (item instanceof IngestRecord.Reject r) {
                    rejects.beginRow()
                            .append(r.rejectId()).append(r.spoolFile()).append(r.spoolLine()).append(r.reason())
                            .append(r.rawText()).append(r.receivedAt())
                            .endRow();
                }
            }
        }
    }

    private static List<IngestRecord.Injected> injected(Chunk<? extends IngestRecord> chunk) {
        List<IngestRecord.Injected> injected = new ArrayList<>();
        for (IngestRecord item : chunk) {
            if (item instanceof IngestRecord.Injected i) {
                injected.add(i);
            }
        }
        return injected;
    }

    private static void rollbackQuietly(Connection connection) {
        try {
            connection.rollback();
        } catch (SQLException ignored) {
            // the original failure is what matters
        }
    }
}
