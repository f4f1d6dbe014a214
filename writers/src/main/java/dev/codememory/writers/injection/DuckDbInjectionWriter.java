package dev.codememory.writers.injection;

import dev.codememory.config.ingest.IngestRecord;
import dev.codememory.config.injection.Injection;
import dev.codememory.writers.staging.Staging;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.List;
import org.duckdb.DuckDBAppender;
import org.duckdb.DuckDBConnection;

/**
 * Writes the injection records of an ingest chunk into {@code injections} and
 * {@code injection_items}, inside the caller's transaction (the ingest writer's, so a
 * chunk's events, injections and rejects commit together). Rows go through the Appender
 * into staging tables, then into the real tables with an anti-join on the injection id:
 * the first line of an injection (in spool order) wins, with its items, and writing the
 * same lines again adds nothing.
 */
public final class DuckDbInjectionWriter {

    private static final String STAGE_INJECTIONS = "ingest_stage_injections";

    private static final String STAGE_ITEMS = "ingest_stage_injection_items";

    /** Stages and inserts; does not commit. */
    public void write(DuckDBConnection connection, List<IngestRecord.Injected> injections) throws SQLException {
        stage(connection, injections);
        try (Statement st = connection.createStatement()) {
            // the winning line of each injection not stored yet; items first, while "not
            // stored yet" still holds
            String winners = """
                    WITH winners AS (
                      SELECT * FROM temp.main.%s s
                      WHERE NOT EXISTS (SELECT 1 FROM injections i WHERE i.injection_id = s.injection_id)
                      QUALIFY row_number() OVER (PARTITION BY injection_id ORDER BY spool_file, spool_line) = 1)
                    """.formatted(STAGE_INJECTIONS);
            st.executeUpdate(
                    "INSERT INTO injection_items (injection_id, rank, citation, memory_id, score)\n" + winners + """
                            SELECT t.injection_id, t.rank, t.citation, t.memory_id, t.score
                            FROM temp.main.%s t
                            JOIN winners w ON w.injection_id = t.injection_id AND w.spool_file = t.spool_file
                                          AND w.spool_line = t.spool_line
                            QUALIFY row_number() OVER (PARTITION BY t.injection_id, t.rank) = 1
                            ORDER BY t.injection_id, t.rank
                            """.formatted(STAGE_ITEMS));
            st.executeUpdate("INSERT INTO injections (injection_id, session_id, prompt_event_id, hook_event_name,"
                    + " band, chars, injected_at, spool_file, spool_line)\n" + winners + """
                            SELECT injection_id, session_id, prompt_event_id, hook_event_name, band, chars, injected_at,
                                   spool_file, spool_line
                            FROM winners ORDER BY spool_file, spool_line
                            """);
        }
    }

    private static void stage(DuckDBConnection connection, List<IngestRecord.Injected> injections) throws SQLException {
        try (DuckDBAppender rows = Staging.table(connection, STAGE_INJECTIONS,
                "injection_id VARCHAR,"
                        + " session_id VARCHAR, prompt_event_id VARCHAR, hook_event_name VARCHAR, band VARCHAR,"
                        + " chars INTEGER, injected_at TIMESTAMP, spool_file VARCHAR, spool_line BIGINT");
                DuckDBAppender items = Staging.table(connection, STAGE_ITEMS, "injection_id VARCHAR,"
                        + " spool_file VARCHAR, spool_line BIGINT, rank INTEGER, citation VARCHAR, memory_id VARCHAR,"
                        + " score DOUBLE")) {
            for (IngestRecord.Injected row : injections) {
                Injection injection = row.injection();
                rows.beginRow()
                    .append(row.injectionId())
                    .append(injection.sessionId())
                    .append(injection.promptEventId())
                    .append(injection.hookEventName())
                    .append(injection.band())
                    .append(injection.chars())
                    .append(LocalDateTime.ofInstant(injection.injectedAt(), ZoneOffset.UTC))
                    .append(row.spoolFile())
                    .append(row.spoolLine())
                    .endRow();
                for (Injection.Item item : injection.items()) {
                    items.beginRow()
                        .append(row.injectionId())
                        .append(row.spoolFile())
                        .append(row.spoolLine())
                        .append(item.rank())
                        .append(item.citation())
                        .append(item.memoryId())
                        .append(item.score())
                        .endRow();
                }
            }
        }
    }

}
