package dev.codememory.jobs.schedule;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.codememory.config.settings.CodeMemoryProperties;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;

class ScheduleStoreConfigurationTests {

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
