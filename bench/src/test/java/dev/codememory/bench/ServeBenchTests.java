package dev.codememory.bench;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ServeBenchTests {

    @Test
    void readsTheMemoryIdsOfQueryJsonBestFirst() {
        String printed = """
                {"band":"strong","results":[{"memory_id":"ent_bench_0000007","citation":"mem:abcdef","score":0.9,\
                "sources":[]},{"memory_id":"ent_bench_0000002","citation":"mem:ghijkl","score":0.4,"sources":[]}]}
                """;

        assertThat(ServeBench.memoryIds(printed)).containsExactly("ent_bench_0000007", "ent_bench_0000002");
        assertThat(ServeBench.memoryIds("{\"band\":\"none\",\"results\":[]}")).isEmpty();
    }

}
