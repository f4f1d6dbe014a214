package dev.codememory.retrieval.context;

import static org.assertj.core.api.Assertions.assertThat;

import dev.codememory.config.team.TeamMemory;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class SessionStartTeamLinesTests {

    private static final LocalDateTime T0 = LocalDateTime.parse("2026-11-20T09:00:00");

    private static TeamMemory published(String id, String kind, String title, int hours) {
        return new TeamMemory(id, "github.com/acme/shop", kind, title, "", "Ab" + id, "alice", T0.plusHours(hours));
    }

    @Test
    void aNewSessionSeesTheTeamsNewestDecisionsPreferencesAndFactsCitedAsTheirPublisherCitesThem() {
        List<TeamMemory> team = new ArrayList<>();
        team.add(published("01", "decision", "Use Flyway for every migration", 1));
        team.add(published("02", "work", "Add the orders table", 9));
        team.add(published("03", "insight", "Fixed the checksum mismatch", 8));
        team.add(published("04", "preference", "Small pull requests", 3));
        team.add(published("05", "fact", "Build with ./mvnw verify", 2));
        team.add(published("06", "decision", "", 7));
        team.add(published("07", "topic", "Topic: orders (2 sessions)", 10));

        List<TeamLine> lines = SessionStartContextService.teamLines(team);

        assertThat(lines).extracting(TeamLine::text)
            .containsExactly("Small pull requests", "Build with ./mvnw verify", "Use Flyway for every migration");
        assertThat(lines).extracting(TeamLine::citation).containsExactly("mem:Ab04", "mem:Ab05", "mem:Ab01");
        assertThat(lines).extracting(TeamLine::author).containsOnly("alice");
    }

    @Test
    void atMostFiveNewestFirst() {
        List<TeamMemory> team = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            team.add(published("1" + i, "decision", "Decision " + i, i));
        }

        assertThat(SessionStartContextService.teamLines(team)).extracting(TeamLine::text)
            .containsExactly("Decision 7", "Decision 6", "Decision 5", "Decision 4", "Decision 3");
    }

}
