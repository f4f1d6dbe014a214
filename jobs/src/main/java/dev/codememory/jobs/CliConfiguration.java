package dev.codememory.jobs;

import dev.codememory.jobs.invocation.CommandTree;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The command line of {@code jobs.jar} for {@code serve}, which runs it for its callers.
 */
@Configuration(proxyBeanMethods = false)
public class CliConfiguration {

    @Bean
    CommandTree commandTree() {
        return Cli::commandLine;
    }

}
