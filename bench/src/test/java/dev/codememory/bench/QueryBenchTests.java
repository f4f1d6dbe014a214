package dev.codememory.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class QueryBenchTests {

    @Test
    void parsesTheSizesList() {
        assertThat(QueryBench.sizes("10000,100000")).containsExactly(10_000, 100_000);
        assertThat(QueryBench.sizes(" 1_000 , 50 ")).containsExactly(1_000, 50);
        assertThatThrownBy(() -> QueryBench.sizes("10000,0")).isInstanceOf(IllegalArgumentException.class)
            .hasMessageContaining("--memories");
        assertThatThrownBy(() -> QueryBench.sizes(",")).isInstanceOf(IllegalArgumentException.class);
    }

}
