package dev.codememory.jobs.schedule;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.codememory.config.home.CodeMemoryHome;
import dev.codememory.config.settings.CodeMemoryProperties;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;

class ScheduleStoreConfigurationTests {

    @TempDir
    Path tmp;

    @Test
    void theScheduleIsInMemoryUnlessSetOtherwise() {
        CodeMemoryProperties.Schedule schedule = bind(Map.of()).schedule();

        assertThat(schedule.store()).isEqualTo("memory");
        assertThat(schedule.clusterCheckinInterval()).isEqualTo(Duration.ofSeconds(5));
    }

    @Test
    void storeAndCheckinIntervalAreReadFromTheSettings() {
        CodeMemoryProperties.Schedule schedule = bind(
                Map.of("code-memory.schedule.store", "JDBC", "code-memory.schedule.cluster-checkin-interval", "3s"))
            .schedule();

        assertThat(schedule.store()).isEqualTo("jdbc");
        assertThat(schedule.clusterCheckinInterval()).isEqualTo(Duration.ofSeconds(3));
    }

    @Test
    void badStoreSettingsNameTheSetting() {
        assertThatThrownBy(() -> bind(Map.of("code-memory.schedule.store", "postgres"))).rootCause()
            .hasMessage("code-memory.schedule.store must be memory or jdbc, was postgres");
        assertThatThrownBy(() -> bind(Map.of("code-memory.schedule.cluster-checkin-interval", "500ms"))).rootCause()
            .hasMessageContaining("code-memory.schedule.cluster-checkin-interval must be at least 1s");
    }

    @Test
    void theJdbcStoreIsQuartzsClusteredJobStoreOnPostgres() {
        CodeMemoryProperties.Schedule schedule = bind(
                Map.of("code-memory.schedule.store", "jdbc", "code-memory.schedule.cluster-checkin-interval", "2500ms"))
            .schedule();

        Properties quartz = ScheduleStoreConfiguration.clusteredStore(schedule);

        String instanceId = quartz.getProperty("org.quartz.scheduler.instanceId");
        quartz.remove("org.quartz.scheduler.instanceId");
        assertThat(quartz).containsExactlyInAnyOrderEntriesOf(Map.of("org.quartz.jobStore.class",
                "dev.codememory.jobs.schedule.DataSourceJobStore", "org.quartz.jobStore.driverDelegateClass",
                "org.quartz.impl.jdbcjobstore.PostgreSQLDelegate", "org.quartz.jobStore.isClustered", "true",
                "org.quartz.jobStore.clusterCheckinInterval", "2500", "org.quartz.jobStore.useProperties", "true"));
        assertThat(instanceId).matches("\\S+-" + ProcessHandle.current().pid() + "-[0-9a-f]{8}");
    }

    @Test
    void twoServesStartedInOneMillisecondOnOneHostHaveTwoInstanceIds() {
        // Quartz's AUTO (host and start time) gave both the same id
        assertThat(java.util.stream.IntStream.range(0, 100).mapToObj(i -> ScheduleStoreConfiguration.instanceId()))
            .doesNotHaveDuplicates();
    }

    @Test
    void schedulerNameIsTheHomesIdWrittenOnceAndKept() throws Exception {
        CodeMemoryHome home = new CodeMemoryHome(tmp.resolve("home")).ensureCreated();

        String name = ScheduleStoreConfiguration.schedulerName(home);

        String id = Files.readString(home.root().resolve("home-id")).strip();
        assertThat(id).matches("[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[0-9a-f]{4}-[0-9a-f]{12}");
        assertThat(name).isEqualTo("code-memory-" + id);
        assertThat(ScheduleStoreConfiguration.schedulerName(home)).isEqualTo(name);
        // the same home mounted elsewhere is the same home
        Path elsewhere = tmp.resolve("mounted-elsewhere");
        Files.createSymbolicLink(elsewhere, home.root());
        assertThat(ScheduleStoreConfiguration.schedulerName(new CodeMemoryHome(elsewhere))).isEqualTo(name);
        // no temporary file is left behind
        try (var files = Files.list(home.root())) {
            assertThat(files.map(p -> p.getFileName().toString()).filter(f -> f.startsWith("home-id")))
                .containsExactly("home-id");
        }
    }

    @Test
    void anotherHomeHasAnotherName() {
        CodeMemoryHome alice = new CodeMemoryHome(tmp.resolve("alice")).ensureCreated();
        CodeMemoryHome bob = new CodeMemoryHome(tmp.resolve("bob")).ensureCreated();

        assertThat(ScheduleStoreConfiguration.schedulerName(alice))
            .isNotEqualTo(ScheduleStoreConfiguration.schedulerName(bob));
    }

    @Test
    void processesStartingAtOnceAgreeOnTheHomesId() throws Exception {
        CodeMemoryHome home = new CodeMemoryHome(tmp.resolve("home")).ensureCreated();
        ExecutorService pool = Executors.newFixedThreadPool(8);
        try {
            List<Callable<String>> starts = IntStream.range(0, 8)
                .<Callable<String>>mapToObj(i -> () -> ScheduleStoreConfiguration.schedulerName(home))
                .toList();
            Set<String> names = new java.util.HashSet<>();
            for (Future<String> name : pool.invokeAll(starts)) {
                names.add(name.get());
            }

            assertThat(names).hasSize(1);
        }
        finally {
            pool.shutdownNow();
        }
    }

    @Test
    void aFileThatHoldsNoIdIsReportedNotUsed() throws Exception {
        CodeMemoryHome home = new CodeMemoryHome(tmp.resolve("home")).ensureCreated();
        Files.writeString(home.root().resolve("home-id"), "bob's laptop\n");

        assertThatThrownBy(() -> ScheduleStoreConfiguration.schedulerName(home))
            .hasMessageContaining("does not hold a home id");
    }

    @Test
    void theTablesComeFromQuartzsScriptWithoutItsDrops() {
        List<String> statements = QuartzTables.createStatements();

        assertThat(statements).hasSize(31);
        assertThat(statements.stream().filter(s -> s.startsWith("CREATE TABLE IF NOT EXISTS QRTZ_"))).hasSize(11);
        assertThat(statements.stream().filter(s -> s.startsWith("CREATE INDEX IF NOT EXISTS IDX_QRTZ_"))).hasSize(20);
        assertThat(statements).noneMatch(s -> s.toUpperCase().contains("DROP"));
        // in the script's order: a table before the tables that reference it
        assertThat(statements.get(0)).startsWith("CREATE TABLE IF NOT EXISTS QRTZ_JOB_DETAILS");
    }

    private static CodeMemoryProperties bind(Map<String, String> settings) {
        Map<String, String> all = new HashMap<>(settings);
        all.put("code-memory.home", "/h");
        return new Binder(new MapConfigurationPropertySource(all)).bindOrCreate("code-memory",
                CodeMemoryProperties.class);
    }

}
