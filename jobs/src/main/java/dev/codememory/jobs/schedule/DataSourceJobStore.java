package dev.codememory.jobs.schedule;

import java.sql.Connection;
import java.sql.SQLException;
import javax.sql.DataSource;
import org.quartz.SchedulerConfigException;
import org.quartz.impl.jdbcjobstore.JobStoreTX;
import org.quartz.spi.ClassLoadHelper;
import org.quartz.spi.SchedulerSignaler;
import org.quartz.utils.ConnectionProvider;
import org.quartz.utils.DBConnectionManager;
import org.springframework.scheduling.quartz.SchedulerFactoryBean;

/**
 * Quartz's {@link JobStoreTX} on the application's DataSource (the job repository's
 * pool): every operation of the store, the scheduler's own and a call such as
 * {@code scheduleJob} alike, runs in a transaction of its own under Quartz's row lock,
 * whether or not a Spring transaction is active. Spring's {@code LocalDataSourceJobStore}
 * (a {@code JobStoreCMT}) would run such calls on an auto-commit connection outside one.
 * Quartz creates this class by name ({@code org.quartz.jobStore.class}); the DataSource
 * is the one set on the {@link SchedulerFactoryBean} that creates the scheduler.
 */
public class DataSourceJobStore extends JobStoreTX {

    @Override
    public void initialize(ClassLoadHelper loadHelper, SchedulerSignaler signaler) throws SchedulerConfigException {
        DataSource dataSource = SchedulerFactoryBean.getConfigTimeDataSource();
        if (dataSource == null) {
            throw new SchedulerConfigException("no DataSource set on the SchedulerFactoryBean for the JDBC job store");
        }
        String name = "code-memory." + getInstanceName();
        setDataSource(name);
        DBConnectionManager.getInstance().addConnectionProvider(name, new ConnectionProvider() {

            @Override
            public Connection getConnection() throws SQLException {
                return dataSource.getConnection();
            }

            @Override
            public void shutdown() {
                // the pool belongs to the application context and closes with it
            }

            @Override
            public void initialize() {
                // opened by the application context
            }

        });
        super.initialize(loadHelper, signaler);
    }

}
