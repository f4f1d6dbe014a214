package dev.codememory.jobs.viewer;

import static org.assertj.core.api.Assertions.assertThat;

import dev.codememory.config.home.CodeMemoryHome;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ViewerAuthTests {

    @TempDir
    Path tmp;

    private final MovingClock clock = new MovingClock(Instant.parse("2026-11-29T08:00:00Z"));

    @Test
    void aRestartedViewerKnowsNoCookieOfTheLastOne() throws Exception {
        CodeMemoryHome home = new CodeMemoryHome(tmp);
        ViewerAuth first = ViewerAuth.forHome(home);
        String cookie = first.exchange(first.newToken()).orElseThrow();

        ViewerAuth restarted = ViewerAuth.forHome(home);

        assertThat(first.valid(cookie)).isTrue();
        assertThat(restarted.cookieName()).isEqualTo(first.cookieName());
        assertThat(restarted.valid(cookie)).isFalse();
        assertThat(restarted.csrfMatches(cookie, first.csrf(cookie))).isFalse();
    }

    @Test
    void aSessionUnusedForAnHourEnds() {
        ViewerAuth auth = ViewerAuth.forHome(new CodeMemoryHome(tmp), clock);
        String cookie = auth.exchange(auth.newToken()).orElseThrow();
        String csrf = auth.csrf(cookie);

        clock.advance(Duration.ofMinutes(59));
        assertThat(auth.csrfMatches(cookie, csrf)).isTrue();
        clock.advance(Duration.ofMinutes(2));

        assertThat(auth.csrfMatches(cookie, csrf)).isFalse();
        assertThat(auth.valid(cookie)).isFalse();
        clock.advance(Duration.ofMinutes(-30));
        assertThat(auth.valid(cookie)).as("an ended session is dropped, not only refused").isFalse();
    }

    @Test
    void useKeepsASessionButNeverPastTwelveHours() {
        ViewerAuth auth = ViewerAuth.forHome(new CodeMemoryHome(tmp), clock);
        String cookie = auth.exchange(auth.newToken()).orElseThrow();

        for (int i = 0; i < 23; i++) {
            clock.advance(Duration.ofMinutes(30));
            assertThat(auth.valid(cookie)).as("used after %d half hours", i + 1).isTrue();
        }
        clock.advance(Duration.ofMinutes(30));

        assertThat(auth.valid(cookie)).isFalse();
        assertThat(auth.cookieAttributes()).contains("HttpOnly", "SameSite=Strict", "Max-Age=43200");
    }

    @Test
    void aTokenSignsInOnceWithinFiveMinutesAndEachSessionHasItsOwnCsrfToken() {
        ViewerAuth auth = ViewerAuth.forHome(new CodeMemoryHome(tmp), clock);
        String token = auth.newToken();
        String late = auth.newToken();
        String cookie = auth.exchange(token).orElseThrow();
        String other = auth.exchange(auth.newToken()).orElseThrow();

        assertThat(auth.exchange(token)).as("a used token").isEmpty();
        clock.advance(Duration.ofMinutes(6));
        assertThat(auth.exchange(late)).as("an expired token").isEmpty();
        assertThat(auth.exchange(null)).isEmpty();
        assertThat(cookie).isNotEqualTo(other).hasSizeGreaterThanOrEqualTo(40);
        assertThat(auth.csrfMatches(cookie, auth.csrf(other))).isFalse();
        assertThat(auth.csrfMatches(cookie, null)).isFalse();
        assertThat(auth.valid(null)).isFalse();
        assertThat(auth.valid("forged")).isFalse();
    }

    @Test
    void keepsAtMostSixtyFourSessionsEndingTheOneUsedLongestAgo() {
        ViewerAuth auth = ViewerAuth.forHome(new CodeMemoryHome(tmp), clock);
        String oldest = auth.exchange(auth.newToken()).orElseThrow();
        clock.advance(Duration.ofSeconds(1));
        String kept = auth.exchange(auth.newToken()).orElseThrow();
        for (int i = 0; i < ViewerAuth.MAX_SESSIONS - 1; i++) {
            clock.advance(Duration.ofSeconds(1));
            auth.exchange(auth.newToken()).orElseThrow();
        }

        assertThat(auth.valid(oldest)).isFalse();
        assertThat(auth.valid(kept)).isTrue();
    }

    /** A clock the test moves. */
    static final class MovingClock extends Clock {

        private Instant now;

        MovingClock(Instant now) {
            this.now = now;
        }

        void advance(Duration by) {
            now = now.plus(by);
        }

        @Override
        public Instant instant() {
            return now;
        }

        @Override
        public ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(ZoneId zone) {
            return this;
        }

    }

}
