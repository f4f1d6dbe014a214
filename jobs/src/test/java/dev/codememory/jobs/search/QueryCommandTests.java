package dev.codememory.jobs.search;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.codememory.config.json.Json;
import dev.codememory.config.project.ProjectResolver;
import dev.codememory.retrieval.query.QueryAnswer;
import dev.codememory.retrieval.query.QueryException;
import dev.codememory.retrieval.query.QueryRequest;
import dev.codememory.retrieval.query.QueryResult;
import dev.codememory.retrieval.query.RankedSource;
import dev.codememory.retrieval.ranking.MatchBand;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class QueryCommandTests {

    @TempDir
    Path tmp;

    /**
     * Band none and no memory holds a word of the query: nothing matches; the near misses
     * only with --near-misses. A question whose words memories hold is answered whatever
     * its band.
     */
    @Test
    void printsNothingMatchesAndTheNearMissesOnlyWhenAsked() {
        List<QueryResult> weak = List.of(
                new QueryResult("e1", "mem:aaaaaa", 0.195, "preference", "Never use wildcard imports", List.of(), null,
                        "s1"),
                new QueryResult("e2", "mem:bbbbbb", 0.19, "fact", "Orders go to DuckDB", List.of(), null, "s1"));
        QueryAnswer none = QueryAnswer.of(weak, false);
        assertThat(none.band()).isEqualTo(MatchBand.NONE);
        assertThat(none.matches()).isEmpty();
        assertThat(none.nearMisses()).isEqualTo(weak);

        assertThat(printed("kubernetes", none, false, false))
            .isEqualTo("nothing matches \"kubernetes\" (2 near misses: --near-misses lists them)\n");
        assertThat(printed("kubernetes", none, true, false)).isEqualTo("""
                nothing matches "kubernetes"; near misses:
                 1. [mem:aaaaaa] 0.195 preference  Never use wildcard imports
                 2. [mem:bbbbbb] 0.190 fact        Orders go to DuckDB
                """);
        assertThat(printed("kubernetes", none, false, true)).startsWith("{\"band\":\"none\",\"results\":[{");

        QueryAnswer suggested = QueryAnswer.of(List.of(new QueryResult("e3", "mem:cccccc", 0.836, "exchange",
                "The checkout tests fail on CI", List.of(), null, "s1")), true);
        assertThat(suggested.matches()).hasSize(1);
        assertThat(suggested.nearMisses()).isEmpty();
        assertThat(printed("checkout tests", suggested, false, false)).isEqualTo("""
                match: suggested
                 1. [mem:cccccc] 0.836 exchange    The checkout tests fail on CI
                """);
        assertThat(printed("x", QueryAnswer.NOTHING, false, false)).isEqualTo("no memories found\n");

        QueryAnswer worded = QueryAnswer.of(weak, true);
        assertThat(worded.nothingMatches()).isFalse();
        assertThat(printed("which imports do we avoid?", worded, false, false)).isEqualTo("""
                match: none
                 1. [mem:aaaaaa] 0.195 preference  Never use wildcard imports
                 2. [mem:bbbbbb] 0.190 fact        Orders go to DuckDB
                """);
    }

    private static String printed(String text, QueryAnswer answer, boolean nearMisses, boolean json) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        QueryCommand.print(text, answer, nearMisses, json, new PrintStream(bytes, true, StandardCharsets.UTF_8));
        return bytes.toString(StandardCharsets.UTF_8);
    }

    @Test
    void batchLineHasTheDocumentedShape() {
        QueryResult r = new QueryResult("ent_1", "mem:abcdef", 0.87654321, "decision", "Use PostgreSQL",
                List.of(new RankedSource("ev_2", "s1", LocalDateTime.of(2024, 5, 1, 10, 0), 1.0765),
                        new RankedSource("ev_3", "s1", LocalDateTime.of(2024, 5, 1, 10, 1, 30), 0.87654321)),
                LocalDateTime.of(2024, 5, 1, 10, 0), "s1");

        Object parsed = Json.parse(QueryCommand.resultLine("q1", List.of(r)));

        assertThat(Json.write(parsed)).isEqualTo("{\"qid\":\"q1\",\"results\":[{\"memory_id\":\"ent_1\","
                + "\"citation\":\"mem:abcdef\",\"score\":0.8765,\"kind\":\"decision\",\"summary\":\"Use PostgreSQL\","
                + "\"sources\":[{\"event_id\":\"ev_2\",\"session_id\":\"s1\",\"ts\":\"2024-05-01T10:00:00Z\","
                + "\"score\":1.0765},{\"event_id\":\"ev_3\",\"session_id\":\"s1\",\"ts\":\"2024-05-01T10:01:30Z\","
                + "\"score\":0.8765}]}]}");
        assertThat(QueryCommand.resultLine("q2", List.of())).isEqualTo("{\"qid\":\"q2\",\"results\":[]}");
    }

    @Test
    void readsBatchInputWithProjectAndTime() throws Exception {
        Path input = tmp.resolve("in.jsonl");
        Files.writeString(input, """
                {"qid":"a","text":"which database","project":"/nowhere/p1","at":"2024-05-01T12:00:00+02:00"}

                {"qid":7,"text":"port"}
                """);

        List<QueryRequest> requests = QueryCommand.readRequests(input, new ProjectResolver(), "/default", false);

        assertThat(requests).hasSize(2);
        assertThat(requests.get(0))
            .isEqualTo(new QueryRequest("a", "which database", "/nowhere/p1", LocalDateTime.of(2024, 5, 1, 10, 0)));
        assertThat(requests.get(1).qid()).isEqualTo("7");
        assertThat(requests.get(1).project()).isEqualTo("/default");
        assertThat(QueryCommand.readRequests(input, new ProjectResolver(), "/default", true))
            .extracting(QueryRequest::project)
            .containsOnlyNulls();
    }

    @Test
    void rejectsALineWithoutText() throws Exception {
        Path input = tmp.resolve("bad.jsonl");
        Files.writeString(input, "{\"qid\":\"a\"}\n");

        assertThatThrownBy(() -> QueryCommand.readRequests(input, new ProjectResolver(), null, false))
            .isInstanceOf(QueryException.class)
            .hasMessageContaining("line 1");
    }

    @Test
    void badArgumentsAreAUsageError() {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        PrintStream errStream = new PrintStream(err, true, StandardCharsets.UTF_8);

        assertThat(QueryCommand.run(new String[] { "query" }, System.out, errStream)).isEqualTo(2);
        assertThat(QueryCommand.run(new String[] { "query", "--input", "x" }, System.out, errStream)).isEqualTo(2);
        assertThat(QueryCommand.run(new String[] { "query", "--top-k", "0", "x" }, System.out, errStream)).isEqualTo(2);
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("query needs TEXT")
            .contains("--input and --output go together")
            .contains("--top-k needs a positive number");
    }

}
