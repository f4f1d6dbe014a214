package dev.codememory.jobs.schedule;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class IdleGraduationCheckTests {

    private static final Instant T = Instant.parse("2026-11-26T10:00:00Z");

    private static final Duration MINUTE = Duration.ofMinutes(1);

    @Test
    void aSessionEndAfterTheLastGraduationIsDueOnceTheDelayHasPassed() {
        Instant lastGraduation = T.minusSeconds(600);
        assertThat(IdleGraduationCheck.endedSince(T, lastGraduation, MINUTE, T.plusSeconds(30))).isFalse();
        assertThat(IdleGraduationCheck.endedSince(T, lastGraduation, MINUTE, T.plusSeconds(60))).isTrue();
        assertThat(IdleGraduationCheck.endedSince(T, null, MINUTE, T.plusSeconds(90))).isTrue();
    }

    @Test
    void aSessionEndBeforeTheLastGraduationOrNoneIsNotDue() {
        assertThat(IdleGraduationCheck.endedSince(T, T.plusSeconds(5), MINUTE, T.plusSeconds(600))).isFalse();
        assertThat(IdleGraduationCheck.endedSince(null, null, MINUTE, T)).isFalse();
    }

}
