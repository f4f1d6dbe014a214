package dev.codememory.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import dev.codememory.config.json.Json;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code forget} of a memory, of a session and of a phrase on a graduated home (the
 * demo's sample), through the built jar: gone from query, from the vector store and, for
 * a session or phrase, from the events; a re-import of the same transcripts and another
 * graduation bring none of it back.
 */
class ForgetIntegrationTests {

    private static final String PROJECT = "/home/demo/shop-api";

    private static final String RATE_LIMIT_SESSION = "0d3c2a10-5e7b-4c1d-9f00-000000000002";

    private static final String REPORT_SESSION = "0d3c2a10-5e7b-4c1d-9f00-000000000003";

    @TempDir
    Path tmp;

    @Test
    void forgottenMemoriesSessionsAndPhrasesStayGone() throws Exception {
        Path home = tmp.resolve("home");
        assertThat(JobsJar.run(tmp.resolve("elsewhere"), new byte[0], "demo", "--home", home.toString()).exit())
            .isZero();
        String vectors = "vectors_all_minilm_l6_v2_q_384_mean_128";
        String decision = citationOf(home, "work", "bucket4j"); // the commit that added
                                                                // the rate limit
        String decisionId = memoryId(home, decision);
        assertThat(hits(home, "rate limit with bucket4j")).contains(decision);

        // a memory
        JobsJar.Result dryRun = JobsJar.run(home, new byte[0], "forget", decision, "--dry-run");
        assertThat(dryRun.stdout()).contains(
                "forget " + decision + " would remove: 0 events, 0 sessions, 1 memory " + "(1 verified), 1 candidate",
                "dry run: nothing was changed");
        assertThat(JobsJar.duckLong(home, "SELECT count(*) FROM forgotten")).isZero();
        JobsJar.Result memory = JobsJar.run(home, new byte[0], "forget", decision);
        assertThat(memory.exit()).as(memory.stderr()).isZero();
        assertThat(memory.stdout()).contains("forgot " + decision + ": 0 events, 0 sessions, 1 memory",
                "1 session summary to compose again without it", "vectors of 2 memories removed");
        assertThat(hits(home, "rate limit with bucket4j")).doesNotContain(decision);
        assertThat(JobsJar.run(home, new byte[0], "show", decision).exit()).isEqualTo(1);
        assertThat(
                JobsJar.duckLong(home, "SELECT count(*) FROM " + vectors + " WHERE memory_id = '" + decisionId + "'"))
            .isZero();

        // a session
        JobsJar.Result session = JobsJar.run(home, new byte[0], "forget", "--session", REPORT_SESSION);
        assertThat(session.exit()).as(session.stderr()).isZero();
        assertThat(JobsJar.duckLong(home, "SELECT count(*) FROM events WHERE session_id = '" + REPORT_SESSION + "'"))
            .isZero();
        assertThat(JobsJar.duckLong(home, "SELECT count(*) FROM entries WHERE session_id = '" + REPORT_SESSION + "'"))
            .isZero();
        assertThat(sourceSessions(home, "orders created_at index report")).isNotEmpty().doesNotContain(REPORT_SESSION);

        // a phrase, in any case
        JobsJar.Result phrase = JobsJar.run(home, new byte[0], "forget", "--match", "PostgreSQL");
        assertThat(phrase.exit()).as(phrase.stderr()).isZero();
        assertThat(JobsJar.duckLong(home,
                "SELECT count(*) FROM events WHERE contains(lower(payload::VARCHAR), " + "'postgresql')"))
            .isZero();
        assertThat(JobsJar.duckLong(home,
                "SELECT count(*) FROM entries WHERE contains(lower(title || body), " + "'postgresql')"))
            .isZero();
        assertThat(JobsJar.duckLong(home, "SELECT count(*) FROM " + vectors + " v WHERE NOT EXISTS "
                + "(SELECT 1 FROM entries e WHERE e.entry_id = v.memory_id)"))
            .isZero();
        assertThat(home.resolve("logs/forget.log")).content()
            .contains("forget match (10 characters)")
            .doesNotContain("PostgreSQL");

        // the same transcripts again, a new event in the session the decision came from,
        // and another graduation
        long events = JobsJar.duckLong(home, "SELECT count(*) FROM events");
        JobsJar.Result reimport = JobsJar.run(home, new byte[0], "import", "--transcripts",
                home.resolve("sample-transcripts").toString());
        assertThat(reimport.stdout()).contains("added no new events");
        String more = "{\"session_id\":\"" + RATE_LIMIT_SESSION + "\",\"cwd\":\"" + PROJECT + "\",\"hook_event_name\":"
                + "\"UserPromptSubmit\",\"prompt\":\"Anything left for the rate limit?\","
                + "\"timestamp\":\"2026-03-03T15:00:00Z\"}";
        assertThat(JobsJar.run(home, JobsJar.utf8(more), "hook").exit()).isZero();
        assertThat(JobsJar.run(home, new byte[0], "--job=graduate").exit()).isZero();

        assertThat(JobsJar.duckLong(home, "SELECT count(*) FROM events")).isEqualTo(events + 1);
        assertThat(JobsJar.duckLong(home, "SELECT count(*) FROM entries WHERE entry_id = '" + decisionId + "'"))
            .isZero();
        assertThat(JobsJar.duckLong(home, "SELECT count(*) FROM events WHERE session_id = '" + REPORT_SESSION + "'"
                + " OR contains(lower(payload::VARCHAR), 'postgresql')"))
            .isZero();
        assertThat(hits(home, "rate limit with bucket4j")).doesNotContain(decision);
        // the session's summary named the forgotten commit: it was composed again from
        // what remains
        assertThat(JobsJar.duckLong(home, "SELECT count(*) FROM entries WHERE entry_type = 'summary' AND status = "
                + "'active' AND session_id = '" + RATE_LIMIT_SESSION + "'"))
            .isEqualTo(1);
        assertThat(JobsJar.duckLong(home, "SELECT count(*) FROM entries WHERE entry_type = 'summary' AND session_id = '"
                + RATE_LIMIT_SESSION + "' AND contains(body, 'Rate-limit the public API')"))
            .isZero();
    }

    private static List<String> hits(Path home, String text) throws Exception {
        JobsJar.Result query = JobsJar.run(home, new byte[0], "search", "--project", PROJECT, "--json", text);
        assertThat(query.exit()).as(query.stderr()).isZero();
        Map<?, ?> doc = (Map<?, ?>) Json.parse(query.stdout().strip());
        return ((List<?>) doc.get("results")).stream()
            .filter(r -> Double.parseDouble(((Json.JsonNumber) ((Map<?, ?>) r).get("score")).literal()) >= 0.5)
            .map(r -> (String) ((Map<?, ?>) r).get("citation"))
            .toList();
    }

    private static List<String> sourceSessions(Path home, String text) throws Exception {
        JobsJar.Result query = JobsJar.run(home, new byte[0], "search", "--project", PROJECT, "--json", text);
        assertThat(query.exit()).as(query.stderr()).isZero();
        Map<?, ?> doc = (Map<?, ?>) Json.parse(query.stdout().strip());
        return ((List<?>) doc.get("results")).stream()
            .flatMap(r -> ((List<?>) ((Map<?, ?>) r).get("sources")).stream())
            .map(s -> (String) ((Map<?, ?>) s).get("session_id"))
            .distinct()
            .toList();
    }

    private static String citationOf(Path home, String kind, String word) throws Exception {
        return "mem:" + JobsJar
            .duckRows(home,
                    "SELECT c.citation FROM entries e JOIN citations c ON c.memory_id = "
                            + "e.entry_id WHERE e.entry_type = '" + kind + "' AND contains(e.body, '" + word + "')")
            .get(0)
            .get(0);
    }

    private static String memoryId(Path home, String citation) throws Exception {
        return (String) JobsJar
            .duckRows(home, "SELECT memory_id FROM citations WHERE citation = '" + citation.substring(4) + "'")
            .get(0)
            .get(0);
    }

}
