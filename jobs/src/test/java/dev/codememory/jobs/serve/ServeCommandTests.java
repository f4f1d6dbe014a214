package dev.codememory.jobs.serve;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import org.junit.jupiter.api.Test;

class ServeCommandTests {

    private static Instant local(String dateTime) {
        return LocalDateTime.parse(dateTime).atZone(ZoneId.systemDefault()).toInstant();
    }

    @Test
    void previousNightlyFireIsTodaysWhenPastThreeInTheMorning() {
        assertThat(ServeCommand.previousFire("0 0 3 * * ?", local("2026-11-21T10:15:00")))
            .isEqualTo(local("2026-11-21T03:00:00"));
    }

    @Test
    void previousNightlyFireIsYesterdaysBeforeThreeInTheMorning() {
        assertThat(ServeCommand.previousFire("0 0 3 * * ?", local("2026-11-21T02:59:59")))
            .isEqualTo(local("2026-11-20T03:00:00"));
    }

    @Test
    void exactFireTimeCountsAsPassed() {
        assertThat(ServeCommand.previousFire("0 0 3 * * ?", local("2026-11-21T03:00:00")))
            .isEqualTo(local("2026-11-21T03:00:00"));
    }

    @Test
    void badCronNamesTheSetting() {
        assertThatThrownBy(() -> ServeCommand.previousFire("every night", Instant.now()))
            .isInstanceOf(IllegalArgumentException.class)
            .hasMessageContaining("code-memory.schedule.nightly-cron");
    }

}
