package dev.codememory.config.graduate;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class CitationTests {

    @Test
    void isTheBase64UrlPrefixOfTheIdsSha256() {
        // python3: base64.urlsafe_b64encode(hashlib.sha256(b"entry-1").digest())[:6]
        assertThat(Citation.of("entry-1")).isEqualTo("mem:Xi1dHl");
        assertThat(Citation.of("abc")).isEqualTo("mem:ungWv4");
    }

    @Test
    void roundNHashesTheIdWithTheRoundNumber() {
        // python3: base64.urlsafe_b64encode(hashlib.sha256(b"x#1").digest())[:6];
        // DuckDB's SQL gives the same
        assertThat(Citation.of("x", 1)).isEqualTo("mem:23-aKx");
        assertThat(Citation.of("entry-1", 0)).isEqualTo(Citation.of("entry-1"));
    }

    @Test
    void isStableAndUrlSafe() {
        for (int i = 0; i < 2_000; i++) {
            String id = "memory-" + i;
            assertThat(Citation.of(id)).isEqualTo(Citation.of(id)).matches("mem:[A-Za-z0-9_-]{6}");
        }
    }

    @Test
    void differsForDifferentIds() {
        assertThat(Citation.of("entry-1")).isNotEqualTo(Citation.of("entry-2"));
    }

}
