package dev.codememory.config.team;

import java.time.Duration;
import java.util.List;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Settings under {@code code-memory.team.*}: the team store (PostgreSQL for memories and
 * their evidence, Milvus for their vectors) that {@code --job=publish} writes and every
 * query reads beside the local store. Off by default.
 *
 * @param enabled true: queries read the team store and {@code --job=publish} may run
 * @param author the name the team sees on what this home publishes (default: the OS user
 * name)
 * @param projects the local projects (git top levels) whose memories this home publishes;
 * none by default: publishing is opted into per project
 * @param kinds the kinds published, a subset of decision, preference, fact, work,
 * insight, topic (the default: all six; a topic is published as its team copy, the lines
 * that rest on memories of the other kinds listed here)
 * @param timeout how long a query waits for the team store before answering from the
 * local store alone (default 1 s)
 * @param chunkSize memories per publish chunk (one PostgreSQL transaction, one Milvus
 * upsert)
 * @param publishEvery how often {@code serve} runs {@code --job=publish} when this home
 * publishes a project (default 10 minutes; zero: never, only when asked)
 */
@ConfigurationProperties("code-memory.team")
public record TeamProperties(Boolean enabled, String author, List<String> projects, List<String> kinds,
        Postgres postgres, Milvus milvus, Duration timeout, Integer chunkSize, Duration publishEvery) {

    /** Whether {@code serve} publishes on its own: on, with projects and an interval. */
    public boolean publishesOnSchedule() {
        return enabled && !projects.isEmpty() && !publishEvery.isZero();
    }

    public TeamProperties {
        enabled = enabled != null && enabled;
        author = author == null || author.isBlank() ? System.getProperty("user.name", "unknown") : author.strip();
        projects = projects == null ? List.of() : projects.stream().map(String::strip).toList();
        kinds = kinds == null || kinds.isEmpty() ? List.copyOf(new java.util.TreeSet<>(SharedMemory.SHAREABLE_KINDS))
                : kinds.stream().map(k -> k.strip().toLowerCase(java.util.Locale.ROOT)).toList();
        for (String kind : kinds) {
            if (!SharedMemory.SHAREABLE_KINDS.contains(kind)) {
                throw new IllegalArgumentException("code-memory.team.kinds: " + kind
                        + " is never shared; the kinds are " + new java.util.TreeSet<>(SharedMemory.SHAREABLE_KINDS));
            }
        }
        postgres = postgres == null ? new Postgres(null, null, null, null) : postgres;
        milvus = milvus == null ? new Milvus(null, null, null) : milvus;
        timeout = timeout == null ? Duration.ofSeconds(1) : timeout;
        chunkSize = chunkSize == null ? 500 : chunkSize;
        publishEvery = publishEvery == null ? Duration.ofMinutes(10) : publishEvery;
        if (publishEvery.isNegative()) {
            throw new IllegalArgumentException("code-memory.team.publish-every must not be negative");
        }
        if (timeout.isNegative() || chunkSize < 1) {
            throw new IllegalArgumentException("code-memory.team.timeout must not be negative and chunk-size positive");
        }
        if (enabled && (postgres.url() == null || postgres.url().isBlank())) {
            throw new IllegalArgumentException(
                    "code-memory.team.postgres.url must be set when code-memory.team.enabled=true");
        }
        if (enabled && (milvus.uri() == null || milvus.uri().isBlank())) {
            throw new IllegalArgumentException(
                    "code-memory.team.milvus.uri must be set when code-memory.team.enabled=true");
        }
    }

    public static TeamProperties off() {
        return new TeamProperties(false, null, null, null, null, null, null, null, null);
    }

    /**
     * @param url e.g. {@code jdbc:postgresql://db.internal:5432/team}; a role and
     * password may be given here as parameters or below
     * @param schema where the team tables live (default {@code code_memory})
     */
    public record Postgres(String url, String user, String password, String schema) {

        public Postgres {
            schema = schema == null || schema.isBlank() ? "code_memory" : schema.strip();
        }

        /** Never prints the password. */
        @Override
        public String toString() {
            return "Postgres[url=" + (url == null ? null : url.replaceAll("password=[^&]*", "password=***")) + ", user="
                    + user + ", password=" + (password == null ? "none" : "***") + ", schema=" + schema + "]";
        }
    }

    /**
     * @param uri e.g. http://milvus.internal:19530
     * @param token {@code user:password} or an API key
     * @param database the Milvus database (default: the server's default)
     */
    public record Milvus(String uri, String token, String database) {

        @Override
        public String toString() {
            return "Milvus[uri=" + uri + ", token=" + (token == null ? "none" : "***") + ", database=" + database + "]";
        }
    }

}
