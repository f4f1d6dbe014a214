package dev.codememory.jobs.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.codememory.jobs.servers.TestServers;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The job lock of a job repository on a real PostgreSQL: two serves sharing the
 * repository (two connection pools, as two processes have) run one job at a time; a
 * holder whose connection dies frees it; another repository (schema) is not held back;
 * the lock takes no connection of the pool. Needs {@value TestServers#POSTGRES_URL}; each
 * test has schemas of its own.
 */
class RepositoryJobLockIntegrationTests {

    @TempDir
    Path tmp;

    private final List<String> schemas = new ArrayList<>();

    private final List<HikariDataSource> pools = new ArrayList<>();

    @AfterEach
    void dropSchemas() throws SQLException {
        HikariDataSource admin = pool(null);
        for (String schema : schemas) {
            execute(admin, "DROP SCHEMA " + schema + " CASCADE");
        }
        pools.forEach(HikariDataSource::close);
    }

    @Test
    void twoServesOfOneRepositoryRunOneJobAtATime() throws Exception {
        String schema = schema();
        RepositoryJobLock first = new RepositoryJobLock(pool(schema));
        RepositoryJobLock second = new RepositoryJobLock(pool(schema));

        RepositoryJobLock.Held held = first.hold();
        assertThatThrownBy(second::hold).isInstanceOf(ProcessLock.JobsBusyException.class)
            .hasMessageMatching("another code-memory job of this job repository is running \\(PostgreSQL session \\d+"
                    + " from [^)]+\\); it holds the repository's job lock in PostgreSQL\\. It runs at the next fire\\.");

        held.close();
        try (RepositoryJobLock.Held again = second.hold()) {
            assertThat(advisoryLocks(schema)).isEqualTo(1);
        }
        assertThat(advisoryLocks(schema)).isZero();
    }

    @Test
    void aHolderWhoseConnectionDiesFreesTheLock() throws Exception {
        String schema = schema();
        HikariDataSource firstPool = pool(schema);
        RepositoryJobLock.Held held = new RepositoryJobLock(firstPool).hold();
        RepositoryJobLock second = new RepositoryJobLock(pool(schema));
        assertThatThrownBy(second::hold).isInstanceOf(ProcessLock.JobsBusyException.class);

        // what kill -9 of the holder does to its session
        execute(pool(schema), """
                SELECT pg_terminate_backend(l.pid, 5000) FROM pg_locks l
                WHERE l.locktype = 'advisory' AND l.classid = %d AND l.objid = hashtext(current_schema())::oid"""
            .formatted(RepositoryJobLock.KEY));

        try (RepositoryJobLock.Held taken = second.hold()) {
            assertThat(advisoryLocks(schema)).isEqualTo(1);
        }
        held.close(); // the dead holder's release fails quietly and frees nothing else
        assertThat(advisoryLocks(schema)).isZero();
    }

    @Test
    void anotherRepositoryIsNotHeldBack() throws Exception {
        String aliceSchema = schema();
        String bobSchema = schema();
        RepositoryJobLock alice = new RepositoryJobLock(pool(aliceSchema));
        RepositoryJobLock bob = new RepositoryJobLock(pool(bobSchema));

        try (RepositoryJobLock.Held a = alice.hold(); RepositoryJobLock.Held b = bob.hold()) {
            assertThat(advisoryLocks(aliceSchema)).isEqualTo(1);
            assertThat(advisoryLocks(bobSchema)).isEqualTo(1);
        }
        assertThat(advisoryLocks(aliceSchema)).isZero();
        assertThat(advisoryLocks(bobSchema)).isZero();
    }

    @Test
    void theLockLivesOnASessionOfItsOwnOutsideThePool() throws Exception {
        String schema = schema();
        HikariDataSource onePool = pool(schema, 1);
        RepositoryJobLock lock = new RepositoryJobLock(onePool);

        try (RepositoryJobLock.Held held = lock.hold()) {
            // the pool's only connection is free for the job's own work meanwhile
            try (Connection c = onePool.getConnection();
                    Statement st = c.createStatement();
                    ResultSet rs = st.executeQuery("SELECT count(*) FROM pg_locks WHERE locktype = 'advisory'"
                            + " AND pid = pg_backend_pid()")) {
                rs.next();
                assertThat(rs.getInt(1)).isZero();
            }
            assertThat(onePool.getHikariPoolMXBean().getActiveConnections()).isZero();
            assertThat(advisoryLocks(schema)).isEqualTo(1);
        }
        assertThat(advisoryLocks(schema)).isZero();
    }

    @Test
    void aMissingSchemaIsSaidSo() {
        RepositoryJobLock lock = new RepositoryJobLock(
                pool("cm_it_missing_" + UUID.randomUUID().toString().replace("-", "").substring(0, 8)));

        assertThatThrownBy(lock::hold).isInstanceOf(ProcessLock.JobsBusyException.class)
            .hasMessage("cannot take the job repository's lock: the job repository's schema does not exist"
                    + " (currentSchema in spring.datasource.url)");
    }

    @Test
    void aRepositoryOnSqliteIsOneProcesssAndHoldsNothing() throws Exception {
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl("jdbc:sqlite:" + tmp.resolve("batch-metadata.sqlite"));
        HikariDataSource sqlite = new HikariDataSource(config);
        pools.add(sqlite);
        RepositoryJobLock lock = new RepositoryJobLock(sqlite);

        try (RepositoryJobLock.Held a = lock.hold(); RepositoryJobLock.Held b = lock.hold()) {
            assertThat(sqlite.getHikariPoolMXBean().getActiveConnections()).isZero();
        }
    }

    private String schema() throws SQLException {
        String schema = "cm_it_" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);
        execute(pool(null), "CREATE SCHEMA " + schema);
        schemas.add(schema);
        return schema;
    }

    private int advisoryLocks(String schema) throws SQLException {
        try (Connection c = pool(schema).getConnection();
                Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("""
                        SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND classid = %d
                        AND objid = hashtext(current_schema())::oid AND granted""".formatted(RepositoryJobLock.KEY))) {
            rs.next();
            return rs.getInt(1);
        }
    }

    private HikariDataSource pool(String schema) {
        return pool(schema, 2);
    }

    private HikariDataSource pool(String schema, int size) {
        String url = TestServers.postgresUrl();
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl(schema == null ? url : url + (url.contains("?") ? "&" : "?") + "currentSchema=" + schema);
        config.setMaximumPoolSize(size);
        config.setMinimumIdle(0);
        HikariDataSource pool = new HikariDataSource(config);
        pools.add(pool);
        return pool;
    }

    private static void execute(HikariDataSource pool, String sql) throws SQLException {
        try (Connection c = pool.getConnection(); Statement st = c.createStatement()) {
            st.execute(sql);
        }
    }

}
