package dev.codememory.jobs.schedule;

import dev.codememory.config.home.CodeMemoryHome;
import dev.codememory.config.settings.CodeMemoryProperties;
import java.util.List;
import java.util.Properties;
import javax.sql.DataSource;
import org.quartz.JobDetail;
import org.quartz.Scheduler;
import org.quartz.SchedulerException;
import org.quartz.Trigger;
import org.quartz.TriggerKey;
import org.quartz.impl.jdbcjobstore.PostgreSQLDelegate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.boot.quartz.autoconfigure.QuartzProperties;
import org.springframework.boot.quartz.autoconfigure.SchedulerFactoryBeanCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Where Quartz keeps {@code serve}'s schedule ({@code code-memory.schedule.store}). In
 * memory by default: the schedule lives and dies with the process. With {@code jdbc} it
 * is kept in the job repository's PostgreSQL database ({@code spring.datasource.*}, so
 * one setting names the team database for both), clustered: the serves of one home share
 * their triggers, a fire runs on one of them only, and the triggers of one that dies are
 * taken over by the others once it has missed its check-ins. Quartz clusters the
 * schedulers of one name, so the name is the home's: another home's serve on the same
 * database never holds this home's triggers.
 */
@Configuration(proxyBeanMethods = false)
public class ScheduleStoreConfiguration {

    private static final Logger log = LoggerFactory.getLogger(ScheduleStoreConfiguration.class);

    @Bean
    SchedulerFactoryBeanCustomizer scheduleStore(CodeMemoryProperties properties, CodeMemoryHome home,
            QuartzProperties quartz, ObjectProvider<DataSource> dataSource) {
        return factory -> {
            if (!properties.schedule().store().equals("jdbc")) {
                return;
            }
            DataSource database = dataSource.getObject();
            if (QuartzTables.createIfMissing(database)) {
                log.info("created Quartz's tables in the job repository's database");
            }
            factory.setDataSource(database);
            factory.setSchedulerName(ScheduleIdentity.schedulerName(home));
            // the triggers outlive the process: Spring is given none to register, and
            // keptScheduleFollowsTheSettings below adds the missing ones and reschedules
            // those whose interval or cron changed, leaving the others as they are
            // (another serve may be running their job)
            factory.setJobDetails();
            factory.setTriggers();
            Properties merged = new Properties();
            merged.putAll(quartz.getProperties());
            merged.putAll(clusteredStore(properties.schedule()));
            factory.setQuartzProperties(merged);
        };
    }

    /**
     * The kept schedule brought up to this start's settings ({@link KeptTriggers}):
     * settings changed since (an interval, the cron) apply from now on; the triggers that
     * match them keep their clock and their state.
     */
    @Bean
    SmartInitializingSingleton keptScheduleFollowsTheSettings(CodeMemoryProperties properties,
            ObjectProvider<Scheduler> scheduler, ObjectProvider<JobDetail> jobs, ObjectProvider<Trigger> triggers) {
        return () -> {
            if (!properties.schedule().store().equals("jdbc")) {
                return;
            }
            try {
                List<TriggerKey> changed = KeptTriggers.keep(scheduler.getObject(), jobs.orderedStream().toList(),
                        triggers.orderedStream().toList());
                if (!changed.isEmpty()) {
                    log.info("the settings changed the kept schedule of {}: rescheduled", changed);
                }
            }
            catch (SchedulerException e) {
                throw new IllegalStateException("cannot bring the kept schedule up to the settings: " + e.getMessage(),
                        e);
            }
        };
    }

    /**
     * Quartz's settings for the clustered JDBC job store on PostgreSQL. Job data is kept
     * as text properties, never as serialized Java objects read back from a database
     * others can write to.
     */
    static Properties clusteredStore(CodeMemoryProperties.Schedule schedule) {
        Properties p = new Properties();
        p.setProperty("org.quartz.jobStore.class", DataSourceJobStore.class.getName());
        p.setProperty("org.quartz.jobStore.driverDelegateClass", PostgreSQLDelegate.class.getName());
        p.setProperty("org.quartz.jobStore.isClustered", "true");
        p.setProperty("org.quartz.jobStore.clusterCheckinInterval",
                Long.toString(schedule.clusterCheckinInterval().toMillis()));
        p.setProperty("org.quartz.jobStore.useProperties", "true");
        p.setProperty("org.quartz.scheduler.instanceId", ScheduleIdentity.instanceId());
        return p;
    }

}
