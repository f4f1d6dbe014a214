package dev.codememory.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import dev.codememory.config.home.CodeMemoryHome;
import dev.codememory.jobs.runtime.JobDatabase;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import org.springframework.batch.core.BatchStatus;
import org.springframework.batch.core.job.JobExecution;
import org.springframework.batch.core.step.Step;
import org.springframework.batch.core.step.StepExecution;
import org.springframework.batch.test.JobOperatorTestUtils;
import org.springframework.context.ApplicationContext;

/**
 * The home of an in-process step test: created and named in the system property before
 * the application context starts (so in a static field of the test), removed after the
 * class.
 */
public final class StepTestHome {

    private StepTestHome() {
    }

    /**
     * A new home in a temporary folder named after {@code prefix}, made the current one.
     */
    public static Path create(String prefix) {
        try {
            Path home = Files.createTempDirectory(prefix);
            new CodeMemoryHome(home).ensureCreated();
            System.setProperty(CodeMemoryHome.PROPERTY, home.toString());
            return home;
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * The rows {@code sql} returns on {@code c}, whole numbers as longs (DuckDB gives
     * counts and sequence numbers in several widths).
     */
    public static List<List<Object>> rows(Connection c, String sql) throws SQLException {
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery(sql)) {
            List<List<Object>> rows = new ArrayList<>();
            for (List<Object> row : JobsJar.rows(rs)) {
                rows.add(row.stream()
                    .map(v -> v instanceof Number n && !(v instanceof Double) ? (Object) n.longValue() : v)
                    .toList());
            }
            return rows;
        }
    }

    /**
     * Runs the application's step bean of this name as a job of its own and returns its
     * read and write counts, once it completed. The stage steps sit in flows of the
     * graduation job, where the job cannot look them up by name.
     */
    public static List<Long> run(JobOperatorTestUtils steps, ApplicationContext context, String step) {
        JobExecution execution = steps.startStep(context.getBean(step, Step.class));
        assertThat(execution.getStatus()).as(step).isEqualTo(BatchStatus.COMPLETED);
        StepExecution one = execution.getStepExecutions().iterator().next();
        return List.of(one.getReadCount(), one.getWriteCount());
    }

    /** {@link #rows(Connection, String)} on a connection of the jobs' database. */
    public static List<List<Object>> rows(JobDatabase database, String sql) throws SQLException {
        try (Connection c = database.connection()) {
            return rows(c, sql);
        }
    }

    /** Forgets the home as the current one and deletes it. */
    public static void remove(Path home) throws IOException {
        System.clearProperty(CodeMemoryHome.PROPERTY);
        try (Stream<Path> files = Files.walk(home)) {
            for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }

}
