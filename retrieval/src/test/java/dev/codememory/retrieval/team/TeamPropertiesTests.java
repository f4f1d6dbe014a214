package dev.codememory.retrieval.team;

import dev.codememory.config.team.TeamProperties;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.codememory.config.home.CodeMemoryHome;
import dev.codememory.config.settings.HomeSettings;
import dev.codememory.retrieval.embed.MiniLmOnnxEmbedder;
import dev.codememory.retrieval.vector.milvus.MilvusSettings;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TeamPropertiesTests {

    @TempDir
    Path tmp;

    @Test
    void offByDefaultAndSharingTheSixKinds() {
        TeamProperties off = TeamProperties.off();

        assertThat(off.enabled()).isFalse();
        assertThat(off.projects()).isEmpty();
        assertThat(off.kinds()).containsExactly("decision", "fact", "insight", "preference", "topic", "work");
        assertThat(off.timeout()).isEqualTo(Duration.ofSeconds(1));
        assertThat(off.author()).isEqualTo(System.getProperty("user.name"));
        assertThat(off.postgres().schema()).isEqualTo("code_memory");
        assertThat(off.publishesOnSchedule()).isFalse();
    }

    @Test
    void badSettingsNameTheSettingAndNothingPrivateIsShareable() {
        assertThatThrownBy(() -> new TeamProperties(null, null, null, List.of("decision", "exchange"), null, null, null,
                null, null))
            .hasMessageContaining("code-memory.team.kinds: exchange is never shared");
        assertThatThrownBy(() -> new TeamProperties(true, null, null, null, null,
                new TeamProperties.Milvus("http://m:19530", null, null), null, null, null))
            .hasMessageContaining("code-memory.team.postgres.url");
        assertThatThrownBy(() -> new TeamProperties(true, null, null, null,
                new TeamProperties.Postgres("jdbc:postgresql://db/team", null, null, null), null, null, null, null))
            .hasMessageContaining("code-memory.team.milvus.uri");
    }

    @Test
    void theHomesSettingsFileIsReadWithoutSpringAndPasswordsNeverPrinted() throws Exception {
        Path home = tmp.resolve("home");
        Files.createDirectories(home);
        Files.writeString(home.resolve("application.yml"), """
                code-memory.team:
                  enabled: true
                  author: alice
                  projects: [/src/shop, /src/billing]
                  timeout: 1500ms
                  postgres:
                    url: jdbc:postgresql://db/team?user=alice&password=s3cret
                    schema: team_memory
                  milvus:
                    uri: http://milvus:19530
                    token: alice:s3cret
                """);

        TeamProperties team = HomeSettings.team(new CodeMemoryHome(home));

        assertThat(team.enabled()).isTrue();
        assertThat(team.author()).isEqualTo("alice");
        assertThat(team.projects()).containsExactly("/src/shop", "/src/billing");
        assertThat(team.timeout()).isEqualTo(Duration.ofMillis(1500));
        assertThat(team.postgres().schema()).isEqualTo("team_memory");
        assertThat(team.milvus().token()).isEqualTo("alice:s3cret");
        assertThat(team.toString()).doesNotContain("s3cret");
        // the token is what the team's Milvus client is given
        MilvusSettings milvus = new TeamStores(team, MiniLmOnnxEmbedder.VERSION).milvusSettings();
        assertThat(milvus.uri()).isEqualTo("http://milvus:19530");
        assertThat(milvus.token()).isEqualTo("alice:s3cret");
        assertThat(milvus.toString()).doesNotContain("s3cret");
        assertThat(team.publishEvery()).isEqualTo(Duration.ofMinutes(10));
        assertThat(team.publishesOnSchedule()).isTrue();
    }

}
