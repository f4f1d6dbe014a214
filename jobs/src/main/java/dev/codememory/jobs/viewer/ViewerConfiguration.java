package dev.codememory.jobs.viewer;

import dev.codememory.config.home.CodeMemoryHome;
import dev.codememory.jobs.serve.ResidentQueries;
import dev.codememory.jobs.serve.ServeRequests;
import org.springframework.batch.core.repository.JobRepository;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** The web viewer {@code serve} starts beside its socket. */
@Configuration(proxyBeanMethods = false)
public class ViewerConfiguration {

    @Bean
    Viewer viewer(CodeMemoryHome home, ResidentQueries resident, ServeRequests requests, JobRepository jobRepository,
            @Value("${code-memory.viewer.enabled:true}") boolean enabled,
            @Value("${code-memory.viewer.port:0}") int port) {
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException(
                    "code-memory.viewer.port must be 0 (any free port) to 65535, was " + port);
        }
        return new Viewer(home, resident, requests, jobRepository, enabled, port);
    }

}
