package dev.codememory.config.time;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.LocalDateTime;
import org.junit.jupiter.api.Test;

class UtcMicrosTests {

    @Test
    void keepsATimeToTheMicrosecondEitherSideOfTheEpoch() {
        LocalDateTime later = LocalDateTime.of(2026, 11, 24, 12, 30, 5, 123_456_000);
        LocalDateTime earlier = LocalDateTime.of(1969, 12, 31, 23, 59, 59, 999_999_000);

        assertThat(UtcMicros.toDateTime(UtcMicros.of(later))).isEqualTo(later);
        assertThat(UtcMicros.of(earlier)).isEqualTo(-1);
        assertThat(UtcMicros.toDateTime(-1)).isEqualTo(earlier);
        assertThat(UtcMicros.of(LocalDateTime.of(1970, 1, 1, 0, 0, 1, 2_999))).isEqualTo(1_000_002);
    }

}
