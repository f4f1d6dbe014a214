package dev.codememory.jobs.schedule;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.codememory.jobs.servers.TestServers;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.IntStream;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.jdbc.datasource.DriverManagerDataSource;

/**
 * Quartz's tables made on a real PostgreSQL: once when several serves start at once,
 * never again (what is in them stays), and refused on anything but PostgreSQL. Needs
 * {@value TestServers#POSTGRES_URL}; the test has a schema of its own.
 */
class QuartzTablesIntegrationTests {

    @TempDir
    Path tmp;

    private String schema;

    @BeforeEach
    void createSchema() throws SQLException {
        schema = "cm_it_" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);
        execute(new DriverManagerDataSource(TestServers.postgresUrl()), "CREATE SCHEMA " + schema);
    }

    @AfterEach
    void dropSchema() throws SQLException {
        execute(new DriverManagerDataSource(TestServers.postgresUrl()), "DROP SCHEMA " + schema + " CASCADE");
    }

    @Test
    void startsAtOnceCreateTheTablesOnceAndLaterStartsKeepWhatIsInThem() throws Exception {
        DataSource database = new DriverManagerDataSource(TestServers.postgresUrl()
                + (TestServers.postgresUrl().contains("?") ? "&" : "?") + "currentSchema=" + schema);
        ExecutorService pool = Executors.newFixedThreadPool(4);
        List<Boolean> created = new ArrayList<>();
        try {
            List<Callable<Boolean>> starts = IntStream.range(0, 4)
                .<Callable<Boolean>>mapToObj(i -> () -> QuartzTables.createIfMissing(database))
                .toList();
            for (Future<Boolean> start : pool.invokeAll(starts)) {
                created.add(start.get());
            }
        }
        finally {
            pool.shutdownNow();
        }

        assertThat(created).containsOnlyOnce(true).containsOnly(true, false);
        assertThat(strings(database, """
                SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema()
                ORDER BY table_name""")).containsExactly("qrtz_blob_triggers", "qrtz_calendars", "qrtz_cron_triggers",
                "qrtz_fired_triggers", "qrtz_job_details", "qrtz_locks", "qrtz_paused_trigger_grps",
                "qrtz_scheduler_state", "qrtz_simple_triggers", "qrtz_simprop_triggers", "qrtz_triggers");
        assertThat(strings(database, "SELECT count(*) FROM pg_indexes WHERE schemaname = current_schema()"
                + " AND indexname LIKE 'idx_qrtz_%'"))
            .containsExactly("20");

        execute(database, "INSERT INTO qrtz_locks VALUES ('code-memory-x', 'TRIGGER_ACCESS')");
        assertThat(QuartzTables.createIfMissing(database)).isFalse();
        assertThat(strings(database, "SELECT sched_name || '/' || lock_name FROM qrtz_locks"))
            .containsExactly("code-memory-x/TRIGGER_ACCESS");
    }

    @Test
    void onlyPostgresHoldsTheSchedule() {
        DataSource sqlite = new DriverManagerDataSource("jdbc:sqlite:" + tmp.resolve("batch-metadata.sqlite"));

        assertThatThrownBy(() -> QuartzTables.createIfMissing(sqlite))
            .hasMessage("code-memory.schedule.store=jdbc keeps the schedule in the job repository's database"
                    + " (spring.datasource.url), which must be PostgreSQL; it is SQLite");
    }

    private static List<String> strings(DataSource database, String sql) throws SQLException {
        try (Connection c = database.getConnection();
                Statement st = c.createStatement();
                ResultSet rs = st.executeQuery(sql)) {
            List<String> values = new ArrayList<>();
            while (rs.next()) {
                values.add(rs.getString(1));
            }
            return values;
        }
    }

    private static void execute(DataSource database, String sql) throws SQLException {
        try (Connection c = database.getConnection(); Statement st = c.createStatement()) {
            st.execute(sql);
        }
    }

}
