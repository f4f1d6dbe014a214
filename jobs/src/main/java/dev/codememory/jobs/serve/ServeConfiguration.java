package dev.codememory.jobs.serve;

import dev.codememory.config.home.CodeMemoryHome;
import dev.codememory.config.settings.CodeMemoryProperties;
import dev.codememory.jobs.invocation.CommandTree;
import dev.codememory.jobs.runtime.JobCommandRunner;
import dev.codememory.jobs.runtime.JobDatabase;
import dev.codememory.jobs.runtime.JobRunner;
import dev.codememory.jobs.vector.EmbeddingService;
import dev.codememory.retrieval.components.VectorComponents;
import dev.codememory.retrieval.ranking.VectorIndex;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.context.ApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The resident side of {@code serve}: warm query state and what it answers on the socket.
 */
@Configuration(proxyBeanMethods = false)
public class ServeConfiguration {

    /**
     * @param exactLimit a project with more vectors than this is searched through a graph
     * ({@code code-memory.serve.exact-vector-limit})
     */
    @Bean
    ResidentQueries residentQueries(JobDatabase database, VectorComponents components, EmbeddingService embeddings,
            @Value("${code-memory.serve.exact-vector-limit:" + VectorIndex.DEFAULT_EXACT_LIMIT + "}") int exactLimit) {
        return new ResidentQueries(database, components, embeddings, exactLimit);
    }

    @Bean
    SaveGraduation saveGraduation(JobRunner jobRunner, CodeMemoryProperties properties) {
        return new SaveGraduation(jobRunner, properties.schedule().afterSave(), properties.schedule().enabled());
    }

    @Bean
    ServeRequests serveRequests(CodeMemoryHome home, ResidentQueries resident, JobCommandRunner jobs,
            JobRunner jobRunner, ApplicationContext context, SaveGraduation saveGraduation, CommandTree commands) {
        return new ServeRequests(home, resident, jobs, jobRunner, context, saveGraduation, commands);
    }

}
