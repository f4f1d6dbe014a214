package dev.codememory.writers.events;

import dev.codememory.config.db.Transactions;
import dev.codememory.config.ingest.IngestRecord;
import dev.codememory.writers.injection.DuckDbInjectionWriter;
import dev.codememory.writers.staging.Staging;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.duckdb.DuckDBAppender;
import org.duckdb.DuckDBConnection;
import org.springframework.batch.infrastructure.item.Chunk;
import org.springframework.batch.infrastructure.item.ItemWriter;

/**
 * Writes a chunk of ingested lines: events into {@code events}, rejects into
 * {@code event_rejects}, injection records into {@code injections}
 * ({@link DuckDbInjectionWriter}, same transaction). Rows go through the Appender into
 * per-connection staging tables (bulk, ~400k rows/s) and then into the real tables with
 * an anti-join on their keys, in one transaction. {@code seq} continues from the largest
 * one in spool order (there is one writer at a time: the job lock). So the writer is
 * idempotent: a chunk written again after a crash (batch metadata and DuckDB commit
 * separately) adds nothing. This class only ever inserts.
 *
 * <p>
 * Two kinds of event are not inserted: what the user erased with {@code forget} (its
 * dedupe key or its session is in {@code forgotten}), and an event read from a transcript
 * ({@code source = 'transcript'}) for the part of a session the hooks captured themselves
 * (from that session's first hook event on, stored or in the same chunk), which would
 * otherwise be there twice.
 */
public class DuckDbIngestWriter implements ItemWriter<IngestRecord> {

    private static final String STAGE_EVENTS = "ingest_stage_events";

    private static final String STAGE_REJECTS = "ingest_stage_rejects";

    private final Supplier<DuckDBConnection> connections;

    private final DuckDbInjectionWriter injections = new DuckDbInjectionWriter();

    public DuckDbIngestWriter(Supplier<DuckDBConnection> connections) {
        this.connections = connections;
    }

    @Override
    public void write(Chunk<? extends IngestRecord> chunk) {
        Transactions.inTransaction(connections, () -> "write " + chunk.size() + " ingested lines", connection -> {
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
            return null;
        });
    }

    /**
     * The staged events that are new, numbered in spool order after the last {@code seq}.
     * The first hook event of a session is looked up only for the sessions the chunk's
     * transcript events name (usually none), not for every session in {@code events}, and
     * among the chunk's own hook events as well as the stored ones: {@code import
     * --transcripts} spools its events behind hook events that still wait in the spool,
     * and one ingest reads both. Only the new events' positions ({@code ord}, spool
     * order) are numbered, then joined back to their rows: numbering the rows themselves
     * sorted every payload of the chunk. An event's id is derived from its dedupe key, so
     * a stored id is a stored event.
     */
    private static final String INSERT_NEW_EVENTS = """
            INSERT INTO events (event_id, dedupe_key, seq, ts, received_at, event_type, session_id,
                                project, cwd, source, payload, checksum, spool_file, spool_line)
            WITH transcript_sessions AS (
                SELECT DISTINCT session_id FROM temp.main.%1$s WHERE source = 'transcript'
            ), first_hook AS (
                SELECT h.session_id, min(h.ts) AS ts FROM (
                    SELECT session_id, ts FROM events WHERE source = 'hook'
                    UNION ALL
                    SELECT session_id, ts FROM temp.main.%1$s WHERE source = 'hook'
                ) h
                WHERE h.session_id IN (SELECT session_id FROM transcript_sessions)
                GROUP BY h.session_id
            ), new_events AS (
                SELECT s.ord FROM temp.main.%1$s s
                LEFT JOIN first_hook ON first_hook.session_id = s.session_id
                WHERE %2$s
                  AND NOT EXISTS (SELECT 1 FROM forgotten f WHERE f.kind = 'event'
                                  AND f.key = s.dedupe_key)
                  AND NOT EXISTS (SELECT 1 FROM forgotten f WHERE f.kind = 'session'
                                  AND f.key = s.session_id)
                  AND NOT (s.source = 'transcript' AND s.ts >= coalesce(first_hook.ts, 'infinity'::TIMESTAMP))
            ), numbered AS (
                SELECT ord, (SELECT coalesce(max(seq), 0) FROM events) + row_number() OVER (ORDER BY ord) AS seq
                FROM new_events
            )
            SELECT s.event_id, s.dedupe_key, n.seq, s.ts, s.received_at, s.event_type,
                   s.session_id, s.project, s.cwd, s.source, s.payload::JSON, s.checksum,
                   s.spool_file, s.spool_line
            FROM temp.main.%1$s s JOIN numbered n ON n.ord = s.ord
            """.formatted(STAGE_EVENTS, Staging.notStored("s.event_id", "events", "event_id", "", STAGE_EVENTS));

    private static void stage(DuckDBConnection connection, Chunk<? extends IngestRecord> chunk) throws SQLException {
        try (DuckDBAppender events = Staging.table(connection, STAGE_EVENTS, "event_id VARCHAR, dedupe_key VARCHAR,"
                + " ts TIMESTAMP, received_at TIMESTAMP, event_type VARCHAR, session_id VARCHAR, project VARCHAR,"
                + " cwd VARCHAR, source VARCHAR, payload VARCHAR, checksum VARCHAR, spool_file VARCHAR,"
                + " spool_line BIGINT, ord INTEGER");
                DuckDBAppender rejects = Staging.table(connection, STAGE_REJECTS,
                        "reject_id VARCHAR,"
                                + " spool_file VARCHAR, spool_line BIGINT, reason VARCHAR, raw_text VARCHAR,"
                                + " received_at TIMESTAMP")) {
            int ord = 0;
            for (IngestRecord.Event e : firstOfEachEvent(chunk)) {
                events.beginRow()
                    .append(e.eventId())
                    .append(e.dedupeKey())
                    .append(e.ts())
                    .append(e.receivedAt())
                    .append(e.eventType())
                    .append(e.sessionId())
                    .append(e.project())
                    .append(e.cwd())
                    .append(e.source())
                    .append(e.payloadJson())
                    .append(e.checksum())
                    .append(e.spoolFile())
                    .append(e.spoolLine())
                    .append(ord++)
                    .endRow();
            }
            for (IngestRecord item : chunk) {
                if (item instanceof IngestRecord.Reject r) {
                    rejects.beginRow()
                        .append(r.rejectId())
                        .append(r.spoolFile())
                        .append(r.spoolLine())
                        .append(r.reason())
                        .append(r.rawText())
                        .append(r.receivedAt())
                        .endRow();
                }
            }
        }
    }

    /**
     * The chunk's events, one per dedupe key, in spool order (file, then line): the first
     * of each, as a later copy of the same event never counts. Done here rather than with
     * a window over the staged rows, which costs DuckDB a partitioned sort of the whole
     * chunk.
     */
    private static List<IngestRecord.Event> firstOfEachEvent(Chunk<? extends IngestRecord> chunk) {
        Map<String, IngestRecord.Event> first = new HashMap<>();
        for (IngestRecord item : chunk) {
            if (item instanceof IngestRecord.Event e) {
                first.merge(e.dedupeKey(), e, (kept, other) -> SPOOL_ORDER.compare(other, kept) < 0 ? other : kept);
            }
        }
        List<IngestRecord.Event> inSpoolOrder = new ArrayList<>(first.values());
        inSpoolOrder.sort(SPOOL_ORDER);
        return inSpoolOrder;
    }

    private static final Comparator<IngestRecord.Event> SPOOL_ORDER = Comparator
        .comparing(IngestRecord.Event::spoolFile)
        .thenComparingLong(IngestRecord.Event::spoolLine);

    private static List<IngestRecord.Injected> injected(Chunk<? extends IngestRecord> chunk) {
        List<IngestRecord.Injected> injected = new ArrayList<>();
        for (IngestRecord item : chunk) {
            if (item instanceof IngestRecord.Injected i) {
                injected.add(i);
            }
        }
        return injected;
    }

}
