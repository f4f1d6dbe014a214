package dev.codememory.jobs.search;

import static org.assertj.core.api.Assertions.assertThat;

import dev.codememory.config.graduate.Citation;
import dev.codememory.config.json.Json;
import dev.codememory.jobs.JobsJar.Result;
import dev.codememory.jobs.JobsJar;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * End to end through the built jar: hook events for two projects are imported, graduated
 * (with the real embedding model), then queried with the CLI in single and batch mode,
 * and a hit's citation shown.
 */
class QueryIntegrationTests {

    @TempDir
    static Path tmp;

    private static Path home;

    private static Path project;

    private static Path otherProject;

    @BeforeAll
    static void graduateFixture() throws Exception {
        home = tmp.resolve("home");
        project = Files.createDirectories(tmp.resolve("billing-service"));
        otherProject = Files.createDirectories(tmp.resolve("website"));
        List<String> lines = new ArrayList<>();
        session(lines, project, "s-1", "2024-03-01T09:00:00Z",
                "Which database should the billing service use for invoices?",
                "Use PostgreSQL for the invoices: we need transactions and row locks when a payment is retried.");
        session(lines, project, "s-2", "2024-03-02T09:00:00Z", "How do I start the frontend dev server?",
                "Run npm run dev in the web folder; Vite serves it on port 5173.");
        session(lines, project, "s-3", "2024-03-03T09:00:00Z", "What colour should the checkout button be?",
                "Use the brand teal #0f766e with white text for contrast.");
        session(lines, project, "s-5", "2024-03-05T09:00:00Z", "I prefer small commits with messages that say why.",
                "Noted: small commits, each message saying why.");
        session(lines, otherProject, "s-4", "2024-03-04T09:00:00Z",
                "Which database should the website use for invoices?", "The website keeps invoices in SQLite.");
        Path hooks = tmp.resolve("hooks.jsonl");
        Files.write(hooks, lines, StandardCharsets.UTF_8);

        assertThat(jar("import", "--hooks", hooks.toString()).exit()).isZero();
        Result graduate = jar("--job=graduate");
        assertThat(graduate.exit()).as(graduate.stderr()).isZero();
    }

    private static void session(List<String> lines, Path cwd, String session, String start, String prompt,
            String reply) {
        String t0 = start;
        String t1 = start.replace(":00:00Z", ":01:00Z");
        String t2 = start.replace(":00:00Z", ":02:00Z");
        String t3 = start.replace(":00:00Z", ":03:00Z");
        lines.add(hook(cwd, session, t0, "SessionStart", "source", "startup"));
        lines.add(hook(cwd, session, t1, "UserPromptSubmit", "prompt", prompt));
        lines.add(hook(cwd, session, t2, "Stop", "last_assistant_message", reply));
        lines.add(hook(cwd, session, t3, "SessionEnd", "reason", "other"));
    }

    private static String hook(Path cwd, String session, String ts, String event, String key, String value) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("hook_event_name", event);
        m.put("session_id", session);
        m.put("transcript_path", "/nowhere/" + session + ".jsonl");
        m.put("cwd", cwd.toString());
        m.put(key, value);
        if (event.equals("Stop")) {
            m.put("stop_hook_active", false);
        }
        m.put("timestamp", ts);
        return Json.write(m);
    }

    @Test
    void singleQueryFindsTheExchangeInItsProjectFirst() throws Exception {
        Result r = jar("query", "--project", project.toString(), "--json", "--top-k", "3",
                "what database do we use for invoices");

        assertThat(r.exit()).as(r.stderr()).isZero();
        Map<?, ?> doc = (Map<?, ?>) Json.parse(r.stdout().strip());
        List<?> results = (List<?>) doc.get("results");
        assertThat(results).isNotEmpty().hasSizeLessThanOrEqualTo(3);
        Map<?, ?> top = (Map<?, ?>) results.get(0);
        assertThat(top.get("kind")).isEqualTo("exchange");
        assertThat(top.get("summary")).isEqualTo("Which database should the billing service use for invoices?");
        assertThat((String) top.get("citation")).matches("mem:[A-Za-z0-9_-]{6}");
        // the prompt asks, so the reply that answers it is listed first; both are the
        // memory's own evidence
        assertThat(((List<?>) top.get("sources")).stream().map(s -> (Object) ((Map<?, ?>) s).get("ts")).toList())
            .containsExactly("2024-03-01T09:02:00Z", "2024-03-01T09:01:00Z");
        assertThat(((List<?>) top.get("sources")).stream()
            .map(s -> (Map<?, ?>) s)
            .filter(s -> s.containsKey("answers"))
            .toList()).isEmpty();
        assertThat(r.stdout()).doesNotContain("SQLite");
    }

    @Test
    void batchQueryWritesOneLinePerQueryOfTheDocumentedShape() throws Exception {
        Path input = tmp.resolve("queries.jsonl");
        Path output = tmp.resolve("answers.jsonl");
        Files.writeString(input,
                """
                        {"qid":"q-port","text":"which port does the dev server listen on","project":"%s","at":"2024-03-05T00:00:00Z"}
                        {"qid":"q-db","text":"database for invoices","project":"%s"}
                        """
                    .formatted(project, otherProject));

        Result r = jar("query", "--input", input.toString(), "--output", output.toString(), "--top-k", "2");

        assertThat(r.exit()).as(r.stderr()).isZero();
        List<String> lines = Files.readAllLines(output);
        assertThat(lines).hasSize(2);
        Map<?, ?> port = (Map<?, ?>) Json.parse(lines.get(0));
        assertThat(keys(port)).containsExactly("qid", "results");
        assertThat(port.get("qid")).isEqualTo("q-port");
        Map<?, ?> top = (Map<?, ?>) ((List<?>) port.get("results")).get(0);
        assertThat(keys(top)).containsExactly("memory_id", "citation", "score", "kind", "summary", "sources");
        assertThat(top.get("summary")).isEqualTo("How do I start the frontend dev server?");
        assertThat(((Json.JsonNumber) top.get("score")).literal()).matches("0\\.\\d+|1\\.0");
        Map<?, ?> source = (Map<?, ?>) ((List<?>) top.get("sources")).get(0);
        assertThat(keys(source)).containsExactly("event_id", "session_id", "ts", "score");
        assertThat(source.get("session_id")).isEqualTo("s-2");

        Map<?, ?> db = (Map<?, ?>) Json.parse(lines.get(1));
        Map<?, ?> dbTop = (Map<?, ?>) ((List<?>) db.get("results")).get(0);
        assertThat(dbTop.get("summary")).isEqualTo("Which database should the website use for invoices?");
        assertThat((List<?>) db.get("results")).allSatisfy(x -> assertThat(((List<?>) ((Map<?, ?>) x).get("sources")))
            .allSatisfy(s -> assertThat(((Map<?, ?>) s).get("session_id")).isEqualTo("s-4")));
    }

    @Test
    void graduationCitesEveryVerifiedMemoryOnceAndShowPrintsTheTopHitsSourceText() throws Exception {
        assertThat(duckRows("""
                SELECT count(*), count(c.citation), count(DISTINCT c.citation), count(DISTINCT c.memory_id)
                FROM entries e LEFT JOIN citations c ON c.memory_id = e.entry_id WHERE e.stage = 'verified'"""))
            .singleElement()
            .satisfies(row -> {
                assertThat((Long) row.get(0)).isGreaterThanOrEqualTo(4);
                assertThat(row.subList(1, 4)).containsOnly(row.get(0));
            });
        assertThat(duckRows("SELECT memory_id, citation FROM citations"))
            .allSatisfy(row -> assertThat("mem:" + row.get(1)).isEqualTo(Citation.of((String) row.get(0))));

        Result query = jar("query", "--project", project.toString(), "--json", "--top-k", "1",
                "what database do we use for invoices");
        assertThat(query.exit()).as(query.stderr()).isZero();
        Map<?, ?> top = (Map<?, ?>) ((List<?>) ((Map<?, ?>) Json.parse(query.stdout().strip())).get("results")).get(0);
        String citation = (String) top.get("citation");
        assertThat(duckRows("SELECT memory_id FROM citations WHERE 'mem:' || citation = '" + citation + "'"))
            .containsExactly(List.of(top.get("memory_id")));

        Result show = jar("show", citation);

        assertThat(show.exit()).as(show.stderr()).isZero();
        assertThat(show.stdout()).startsWith("[" + citation + "] exchange, active, verified\n")
            .contains("id:       " + top.get("memory_id") + "\n")
            .contains("session:  s-1\n")
            .contains("      Which database should the billing service use for invoices?\n")
            .contains("      Use PostgreSQL for the invoices: we need transactions and row locks when a payment"
                    + " is retried.\n")
            .contains("  > 2024-03-01T09:01:00Z  UserPromptSubmit Which database should the billing service use"
                    + " for invoices?\n")
            .contains("  > 2024-03-01T09:02:00Z  Stop             Use PostgreSQL for the invoices: we need"
                    + " transactions and row locks when a payment is retried.\n")
            .contains("    2024-03-01T09:00:00Z  SessionStart     startup\n")
            .contains("    2024-03-01T09:03:00Z  SessionEnd       other\n")
            .doesNotContain("SQLite");

        Result json = jar("show", "--json", "[" + citation + "]");
        assertThat(json.exit()).as(json.stderr()).isZero();
        Map<?, ?> doc = (Map<?, ?>) Json.parse(json.stdout().strip());
        assertThat(doc.get("memory_id")).isEqualTo(top.get("memory_id"));
        assertThat(((List<?>) doc.get("evidence")).stream().map(e -> (Object) ((Map<?, ?>) e).get("quote")).toList())
            .contains("Which database should the billing service use for invoices?",
                    "Use PostgreSQL for the invoices: we need transactions and row locks when a payment is"
                            + " retried.");
        assertThat(((List<?>) doc.get("events")).stream()
            .map(e -> (Object) (((Map<?, ?>) e).get("event_type") + " " + ((Map<?, ?>) e).get("source")))
            .toList()).containsExactly("SessionStart false", "UserPromptSubmit true", "Stop true", "SessionEnd false");

        Result unknown = jar("show", citation.equals("mem:zzzzzz") ? "mem:yyyyyy" : "mem:zzzzzz");
        assertThat(unknown.exit()).isEqualTo(1);
        assertThat(unknown.stderr()).contains("unknown citation");
    }

    @Test
    void userPromptSubmitHookPrintsCitedContextThatShowResolvesAndTheInjectionIsRecorded() throws Exception {
        String prompt = "which database do we use for invoices";

        Result hook = hook(Map.of("CODE_MEMORY_CONTEXT_BUDGET_MS", "60000"), Json.write(Map.of("hook_event_name",
                "UserPromptSubmit", "session_id", "s-live", "cwd", project.toString(), "prompt", prompt)));

        assertThat(hook.exit()).isZero();
        assertThat(hook.stderr()).isEmpty();
        Map<?, ?> out = (Map<?, ?>) Json.parse(hook.stdout());
        assertThat(keys(out)).containsExactly("hookSpecificOutput");
        Map<?, ?> specific = (Map<?, ?>) out.get("hookSpecificOutput");
        assertThat(keys(specific)).containsExactly("hookEventName", "additionalContext");
        assertThat(specific.get("hookEventName")).isEqualTo("UserPromptSubmit");
        String context = (String) specific.get("additionalContext");
        // a question about the work is answered by the line that answers it, cited
        assertThat(context).hasSizeLessThanOrEqualTo(1_200)
            .startsWith("From earlier sessions of this project")
            .contains("Use PostgreSQL for the invoices: we need transactions and row locks when a payment is"
                    + " retried.")
            .doesNotContain("SQLite")
            .doesNotContain("\"[mem:");
        Matcher first = Pattern.compile("\\[(mem:[A-Za-z0-9_-]{6})]").matcher(context);
        assertThat(first.find()).isTrue();
        String citation = first.group(1);
        Result show = jar("show", citation);
        assertThat(show.exit()).as(show.stderr()).isZero();
        assertThat(show.stdout()).contains("Use PostgreSQL for the invoices: we need transactions and row locks");
        assertThat(Files.readString(home.resolve("logs/hook.log"))).contains("UserPromptSubmit context: ")
            .contains("text and vectors")
            .doesNotContain(prompt);

        Result ingest = jar("--job=ingest");

        assertThat(ingest.exit()).as(ingest.stderr()).isZero();
        assertThat(duckRows("""
                SELECT i.hook_event_name, i.session_id, e.event_type, json_extract_string(e.payload, '$.prompt'),
                       t.rank, 'mem:' || c.citation = t.citation
                FROM injections i JOIN events e ON e.event_id = i.prompt_event_id
                JOIN injection_items t ON t.injection_id = i.injection_id
                JOIN citations c ON c.memory_id = t.memory_id
                WHERE t.citation = '%s'""".formatted(citation)))
            .containsExactly(List.of("UserPromptSubmit", "s-live", "UserPromptSubmit", prompt, 1, true));
    }

    @Test
    void aPromptNothingIsRelevantToInjectsNothing() throws Exception {
        Result hook = hook(Map.of("CODE_MEMORY_CONTEXT_BUDGET_MS", "60000"),
                Json.write(Map.of("hook_event_name", "UserPromptSubmit", "session_id", "s-live", "cwd",
                        project.toString(), "prompt", "how long should sourdough bread proof overnight")));

        assertThat(hook.exit()).isZero();
        assertThat(hook.stdout()).isEmpty();
        assertThat(Files.readString(home.resolve("logs/hook.log"))).contains("nothing injected");
    }

    @Test
    void pastItsTimeBudgetTheHookInjectsNothingAndSaysSo() throws Exception {
        Result hook = hook(Map.of("CODE_MEMORY_CONTEXT_BUDGET_MS", "1"),
                Json.write(Map.of("hook_event_name", "UserPromptSubmit", "session_id", "s-live", "cwd",
                        project.toString(), "prompt", "which database do we use for invoices")));

        assertThat(hook.exit()).isZero();
        assertThat(hook.stdout()).isEmpty();
        assertThat(Files.readString(home.resolve("logs/hook.log")))
            .contains("skipped: not ready within the budget of 1 ms");
    }

    @Test
    void sessionStartHookPrintsTheLastSessionAndStatedPreferences() throws Exception {
        Result hook = hook(Map.of("CODE_MEMORY_CONTEXT_BUDGET_MS", "60000"), Json.write(Map.of("hook_event_name",
                "SessionStart", "session_id", "s-next", "cwd", project.toString(), "source", "startup")));

        assertThat(hook.exit()).as(hook.stderr()).isZero();
        Map<?, ?> specific = (Map<?, ?>) ((Map<?, ?>) Json.parse(hook.stdout())).get("hookSpecificOutput");
        assertThat(specific.get("hookEventName")).isEqualTo("SessionStart");
        String context = (String) specific.get("additionalContext");
        assertThat(context).contains("Last session [mem:")
            .contains("Preferences:")
            .contains("I prefer small commits with messages that say why.")
            .doesNotContain("SQLite");
    }

    @Test
    void reindexCitesAHomeGraduatedBeforeCitationsExisted() throws Exception {
        List<List<Object>> before = duckRows("SELECT citation, memory_id FROM citations ORDER BY memory_id");
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:" + home.resolve("memory.duckdb"));
                Statement st = c.createStatement()) {
            st.execute("DELETE FROM citations");
        }

        Result reindex = jar("--job=reindex");

        assertThat(reindex.exit()).as(reindex.stderr()).isZero();
        assertThat(before).isNotEmpty();
        assertThat(duckRows("SELECT citation, memory_id FROM citations ORDER BY memory_id")).isEqualTo(before);
    }

    private static List<List<Object>> duckRows(String sql) throws SQLException {
        return JobsJar.duckRows(home, sql);
    }

    private static List<Object> keys(Map<?, ?> map) {
        return new ArrayList<>(map.keySet());
    }

    /** The hook as Claude Code runs it: the JSON on stdin, the environment given. */
    private static Result hook(Map<String, String> env, String stdin) throws IOException, InterruptedException {
        return JobsJar.run(home, env, JobsJar.utf8(stdin), "hook");
    }

    private static Result jar(String... args) throws IOException, InterruptedException {
        return JobsJar.run(home, new byte[0], args);
    }

}
