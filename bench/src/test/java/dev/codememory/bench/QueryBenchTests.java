package dev.codememory.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.LocalDateTime;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

class QueryBenchTests {

    @Test
    void targetsTakeOneDistinctMemoryFromEachSlice() {
        int[] targets = QueryBench.targets(10_000, 200);

        assertThat(targets).hasSize(200);
        assertThat(Arrays.stream(targets).distinct().count()).isEqualTo(200);
        for (int q = 0; q < targets.length; q++) {
            assertThat(targets[q] / 50).as("query %d", q).isEqualTo(q);
        }
        assertThat(QueryBench.targets(5, 5)).containsExactly(0, 1, 2, 3, 4);
    }

    @Test
    void memoriesSpreadOverTheLastYearNewestNow() {
        LocalDateTime now = LocalDateTime.of(2026, 11, 21, 12, 0);

        assertThat(QueryBench.createdAt(9_999, 10_000, now)).isEqualTo(now);
        assertThat(QueryBench.createdAt(0, 10_000, now)).isEqualTo(now.minusSeconds(31_532_846));
        assertThat(QueryBench.createdAt(4_999, 10_000, now)).isBefore(QueryBench.createdAt(5_000, 10_000, now));
    }

    @Test
    void memoryIdsSortInIndexOrder() {
        assertThat(QueryBench.memoryId(7)).isEqualTo("ent_bench_0000007");
        assertThat(QueryBench.memoryId(99_999)).isGreaterThan(QueryBench.memoryId(10_000));
    }

    @Test
    void parsesTheSizesList() {
        assertThat(QueryBench.sizes("10000,100000")).containsExactly(10_000, 100_000);
        assertThat(QueryBench.sizes(" 1_000 , 50 ")).containsExactly(1_000, 50);
        assertThatThrownBy(() -> QueryBench.sizes("10000,0")).isInstanceOf(IllegalArgumentException.class)
            .hasMessageContaining("--memories");
        assertThatThrownBy(() -> QueryBench.sizes(",")).isInstanceOf(IllegalArgumentException.class);
    }

}
