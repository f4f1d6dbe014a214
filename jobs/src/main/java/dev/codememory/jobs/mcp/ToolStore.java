package dev.codememory.jobs.mcp;

import dev.codememory.config.db.DatabaseException;
import dev.codememory.config.project.ProjectResolver;
import dev.codememory.jobs.invocation.Invocation;
import dev.codememory.retrieval.citation.ToolQueries;
import dev.codememory.retrieval.components.VectorComponents;
import dev.codememory.retrieval.context.PromptContextService.QueryLease;
import dev.codememory.retrieval.context.SessionLease;
import dev.codememory.retrieval.query.QueryService;
import dev.codememory.retrieval.ranking.RankingSettings;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Optional;
import java.util.Set;

/**
 * The memory store as the MCP tools reach it through an {@link Invocation}: whether there
 * is one yet, which project a call is about, and a query service to search it.
 */
final class ToolStore {

    private final Invocation invocation;

    ToolStore(Invocation invocation) {
        this.invocation = invocation;
    }

    /** The project a call is about, or null for every project, and how to say so. */
    record Scope(String project, String label) {
    }

    /**
     * The project asked for (it must be one the store knows), else the working
     * directory's when the store knows it, else every project.
     */
    Scope scope(ToolArguments args) {
        String requested = args.text("project");
        if (args.flag("all_projects")) {
            if (requested != null) {
                throw new ToolArguments.BadInput("give project or all_projects, not both");
            }
            return new Scope(null, "all projects");
        }
        Set<String> known;
        try (SessionLease lease = invocation.read(); Connection c = lease.session().connection()) {
            known = ToolQueries.projects(c);
        }
        catch (SQLException e) {
            throw new DatabaseException("cannot read the projects: " + e.getMessage(), e);
        }
        ProjectResolver resolver = new ProjectResolver();
        if (requested != null) {
            if (!java.nio.file.Path.of(requested).isAbsolute()) {
                throw new ToolArguments.BadInput("project must be an absolute path, was " + requested);
            }
            String normal = java.nio.file.Path.of(requested).normalize().toString();
            String project = known.contains(normal) ? normal : resolver.projectOf(normal);
            if (!known.contains(project)) {
                throw new ToolArguments.BadInput("no memories for project " + normal + "; known projects: "
                        + (known.isEmpty() ? "none yet" : String.join(", ", known)));
            }
            return new Scope(project, "project " + project);
        }
        String own = resolver.projectOf(invocation.cwd().toString());
        return known.contains(own) ? new Scope(own, "project " + own)
                : new Scope(null, "all projects (the working directory " + own + " has no memories)");
    }

    /** What to answer when there is no store yet; empty when there is one. */
    Optional<String> missing() {
        if (!invocation.home().database().toFile().exists()) {
            return Optional.of("no memory yet in " + invocation.home().root()
                    + ": nothing has been graduated (run `java -jar jobs.jar --job=graduate`)");
        }
        return Optional.empty();
    }

    /**
     * serve's warm query services, else a query service on a read-only session for this
     * call.
     */
    QueryLease queries() {
        if (invocation.residentQueries() != null) {
            return invocation.residentQueries().apply(RankingSettings.defaults());
        }
        VectorComponents components = VectorComponents.forHome(invocation.home());
        SessionLease lease = invocation.read();
        return new QueryLease(lease,
                new QueryService(lease.session(), components.embedder(),
                        () -> components.vectorStore(lease.session()::connection), RankingSettings.defaults())
                    .withTeam(components.teamSource()));
    }

}
