package dev.codememory.retrieval.team;

import dev.codememory.config.team.TeamProperties;
import dev.codememory.config.team.TeamStoreException;
import dev.codememory.config.vector.EmbeddingVersion;
import dev.codememory.retrieval.vector.milvus.MilvusSettings;
import dev.codememory.retrieval.vector.milvus.MilvusVectorStore;
import dev.codememory.writers.team.PostgresTeamStore;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Properties;

/**
 * Connections to the team store from the settings: PostgreSQL through its JDBC driver
 * (role and password from the URL or the settings), Milvus through its SDK (token).
 */
public final class TeamStores {

    /**
     * How long opening a PostgreSQL connection may take: a query gives the team store
     * {@code code-memory.team.timeout} anyway, a job fails its step after this.
     */
    static final int CONNECT_SECONDS = 5;

    private final TeamProperties team;

    private final EmbeddingVersion version;

    public TeamStores(TeamProperties team, EmbeddingVersion version) {
        this.team = team;
        this.version = version;
    }

    public TeamProperties settings() {
        return team;
    }

    /** Opens a connection to the team database. */
    public Connection connection() {
        Properties p = new Properties();
        if (team.postgres().user() != null) {
            p.setProperty("user", team.postgres().user());
        }
        if (team.postgres().password() != null) {
            p.setProperty("password", team.postgres().password());
        }
        p.setProperty("connectTimeout", String.valueOf(CONNECT_SECONDS));
        p.setProperty("loginTimeout", String.valueOf(CONNECT_SECONDS));
        p.setProperty("ApplicationName", "code-memory");
        try {
            return DriverManager.getConnection(team.postgres().url(), p);
        }
        catch (SQLException e) {
            throw new TeamStoreException("team store (PostgreSQL): cannot connect: " + e.getMessage(), e);
        }
    }

    public PostgresTeamStore postgres() {
        return new PostgresTeamStore(this::connection, team.postgres().schema());
    }

    /** The team's vector collection, connected now; the caller closes it. */
    public MilvusVectorStore vectors(Duration connectTimeout, Duration callTimeout) {
        return MilvusVectorStore.connectTeam(milvusSettings(), version, connectTimeout, callTimeout);
    }

    /**
     * Where the team's Milvus is, with the token the SDK sends on every call
     * ({@code code-memory.team.milvus.token}).
     */
    public MilvusSettings milvusSettings() {
        return new MilvusSettings(team.milvus().uri(), team.milvus().token(), team.milvus().database());
    }

}
