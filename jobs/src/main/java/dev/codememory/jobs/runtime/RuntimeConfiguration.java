package dev.codememory.jobs.runtime;

import dev.codememory.config.db.DuckDb;
import dev.codememory.config.home.CodeMemoryHome;
import dev.codememory.config.project.ProjectResolver;
import dev.codememory.config.settings.CodeMemoryProperties;
import java.nio.file.Path;
import java.util.Map;
import javax.sql.DataSource;
import org.springframework.batch.core.job.Job;
import org.springframework.batch.core.launch.JobOperator;
import org.springframework.batch.core.repository.JobRepository;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** The home, DuckDB, and the runner that every command and schedule goes through. */
@Configuration(proxyBeanMethods = false)
public class RuntimeConfiguration {

    /** Command-line job names → job bean names. */
    static final Map<String, String> JOB_NAMES = Map.of("ingest", "ingestJob", "graduate", "graduationJob", "reindex",
            "reindexJob", "publish", "publishJob");

    @Bean
    CodeMemoryHome codeMemoryHome(CodeMemoryProperties properties) {
        return new CodeMemoryHome(Path.of(properties.home())).ensureCreated();
    }

    @Bean
    JobDatabase jobDatabase(CodeMemoryHome home, CodeMemoryProperties properties) {
        return new JobDatabase(new DuckDb(home.database(), properties.duckdbMemoryLimit(), properties.duckdbThreads()));
    }

    @Bean
    ConsoleProgress consoleProgress() {
        return new ConsoleProgress();
    }

    @Bean
    JobRunListener jobRunListener(JobDatabase database, ConsoleProgress consoleProgress) {
        return new JobRunListener(database, consoleProgress);
    }

    @Bean
    ProjectResolver projectResolver() {
        return new ProjectResolver();
    }

    @Bean
    JobRunner jobRunner(Map<String, Job> jobs, JobOperator jobOperator, JobRepository jobRepository,
            CodeMemoryHome home, JobDatabase database, DataSource repository, JobRunListener runs) {
        Map<String, Job> byCommand = new java.util.HashMap<>();
        JOB_NAMES.forEach((command, bean) -> {
            Job job = jobs.get(bean);
            if (job != null) {
                byCommand.put(command, job);
            }
        });
        return new JobRunner(byCommand, jobOperator, jobRepository, home, database, new RepositoryJobLock(repository),
                runs);
    }

}
