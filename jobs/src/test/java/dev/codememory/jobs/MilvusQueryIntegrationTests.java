package dev.codememory.jobs;

import static dev.codememory.jobs.JobsJar.utf8;
import static org.assertj.core.api.Assertions.assertThat;

import dev.codememory.jobs.servers.MilvusDatabase;
import dev.codememory.jobs.servers.TestServers;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * With {@code code-memory.vector-store: milvus} the vectors go to Milvus only, and
 * {@code query} and the hook find memories by meaning through it: the DuckDB vector table
 * stays empty, so a hit on the semantic signal can only have come from Milvus. Needs
 * {@code MILVUS_URI} (see {@link TestServers}).
 */
class MilvusQueryIntegrationTests {

    private static final String FIXTURE_DIR = "/tmp/code-memory-fixture";

    @TempDir
    Path tmp;

    @Test
    void queriesAndHooksSearchMilvus() throws Exception {
        try (MilvusDatabase milvus = new MilvusDatabase(TestServers.milvusUri())) {
            queriesAndHooksSearch(milvus);
        }
    }

    private void queriesAndHooksSearch(MilvusDatabase milvus) throws Exception {
        Files.createDirectories(tmp.resolve("shop-api/.git"));
        Path home = Files.createDirectories(tmp.resolve("home"));
        Files.writeString(home.resolve("application.yml"), milvus.settings());
        Files.writeString(tmp.resolve("hooks.jsonl"),
                new String(getClass().getResourceAsStream("/fixtures/claude-code-session.jsonl").readAllBytes(),
                        StandardCharsets.UTF_8)
                    .replace(FIXTURE_DIR, tmp.toString()));
        assertThat(JobsJar.run(home, new byte[0], "import", "--hooks", tmp.resolve("hooks.jsonl").toString()).exit())
            .isZero();
        assertThat(JobsJar.run(home, new byte[0], "--job=graduate").exit()).isZero();
        List<List<Object>> tables = JobsJar.duckRows(home,
                "SELECT table_name FROM information_schema.tables" + " WHERE table_name LIKE 'vectors_%'");
        for (List<Object> table : tables) {
            assertThat(JobsJar.duckLong(home, "SELECT count(*) FROM " + table.get(0))).isZero();
        }

        JobsJar.Result query = JobsJar.run(home, new byte[0], "query", "--json", "--project",
                tmp.resolve("shop-api").toString(), "which embedded analytics store for order history");
        assertThat(query.exit()).isZero();
        assertThat(query.stdout()).contains("DuckDB instead of SQLite");

        String prompt = "{\"session_id\":\"milvus-it\",\"cwd\":\"" + tmp.resolve("shop-api")
                + "\",\"hook_event_name\":\"UserPromptSubmit\",\"prompt\":\"which database for the order events?\"}";
        JobsJar.Result hook = JobsJar.run(home, java.util.Map.of("CODE_MEMORY_CONTEXT_BUDGET_MS", "20000"),
                utf8(prompt), "hook");
        assertThat(hook.exit()).isZero();
        List<String> log = Files.readAllLines(home.resolve("logs/hook.log"));
        assertThat(log.get(log.size() - 1)).contains("source=cold vectors=true");
    }

}
