package dev.codememory.jobs;

import static dev.codememory.jobs.JobsJar.utf8;
import static dev.codememory.jobs.StepTestSession.todo;
import static org.assertj.core.api.Assertions.assertThat;

import dev.codememory.jobs.McpServeIntegrationTests.StdioSession;
import dev.codememory.jobs.servers.MilvusDatabase;
import dev.codememory.jobs.servers.TestServers;
import dev.codememory.retrieval.embed.MiniLmOnnxEmbedder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Three developers on one machine — three homes, three clones of one repository — and one
 * team store: a real PostgreSQL ({@value TestServers#POSTGRES_URL}, a schema of this
 * test's own) and a real Milvus ({@value TestServers#MILVUS_URI}, a database of its own).
 * Alice's decision, published with {@code --job=publish}, reaches Bob's prompt context
 * through his {@code serve} and Carol's {@code mem-search} and {@code query}, marked as
 * Alice's; Alice forgets it, publishes again, and it is gone for both. Bob's private
 * exchange and his decision with a {@code <private>} part never leave his home. Alice's
 * topic reaches Carol as its shared lines, never her to-do items, and is withdrawn when a
 * later session replaces it and when she forgets it.
 */
class TeamMemoryIntegrationTests {

    private static final String TEAM_COLLECTION = "code_memory_team_" + MiniLmOnnxEmbedder.VERSION.id();

    private static final String ORIGIN = "git@github.com:acme/shop.git";

    @TempDir
    Path tmp;

    private String schema;

    @BeforeEach
    void needsTheServers() {
        TestServers.postgresUrl();
        TestServers.milvusUri();
        schema = "cm_it_" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);
    }

    @AfterEach
    void dropTheSchema() throws SQLException {
        if (schema != null && TestServers.available(TestServers.POSTGRES_URL)) {
            try (Connection c = DriverManager.getConnection(TestServers.postgresUrl());
                    Statement st = c.createStatement()) {
                st.execute("DROP SCHEMA IF EXISTS " + schema + " CASCADE");
            }
        }
    }

    @Test
    void aDecisionReachesTheTeamUntilItsAuthorForgetsItAndPrivateWorkNeverLeaves() throws Exception {
        try (MilvusDatabase milvus = new MilvusDatabase(TestServers.milvusUri())) {
            Path aliceShop = clone("alice");
            Path bobShop = clone("bob");
            Path carolShop = clone("carol");
            Path alice = home("alice", aliceShop, milvus);
            Path bob = home("bob", bobShop, milvus);
            Path carol = home("carol", carolShop, milvus);
            graduate(alice, session("a-1", aliceShop, "2026-11-20T09:00:00Z",
                    "We decided to use Flyway for every database migration in the shop service, never hand-written DDL.",
                    "Understood: migrations go through Flyway scripts under db/migration from now on."));
            graduate(bob, session("b-1", bobShop, "2026-11-21T09:00:00Z",
                    "My xylophone budget spreadsheet is on the desktop; how do I export the orders table to CSV?",
                    "Use COPY orders TO STDOUT WITH CSV HEADER from psql.",
                    "We decided to deploy the shop on Fridays <private>because my manager Zelda is away then</private> only.",
                    "Noted, Friday deploys."));
            graduate(carol, session("c-1", carolShop, "2026-11-22T09:00:00Z", "Where is the invoice PDF template kept?",
                    "It is in src/main/resources/templates/invoice.html."));

            String decision = single(alice,
                    "SELECT entry_id FROM entries WHERE entry_type = 'decision' AND stage = 'verified'");
            String citation = "mem:"
                    + single(alice, "SELECT citation FROM citations WHERE memory_id = '" + decision + "'");
            // Bob's home holds what must never leave it
            assertThat(
                    JobsJar.duckLong(bob,
                            "SELECT count(*) FROM entries WHERE stage = 'verified'"
                                    + " AND entry_type = 'exchange' AND (title || body) LIKE '%xylophone%'"))
                .isEqualTo(1);
            assertThat(
                    JobsJar.duckLong(bob,
                            "SELECT count(*) FROM entries WHERE stage = 'verified'"
                                    + " AND entry_type = 'decision' AND title LIKE '%Fridays [PRIVATE]%'"))
                .isEqualTo(1);

            assertThat(publish(alice)).contains("publish memories       read 1 · wrote 1");
            assertThat(publish(bob)).contains("publish memories       read 1 · wrote 0 · filtered 1");
            // a second run publishes nothing again
            assertThat(publish(alice)).contains("publish memories       nothing to do");

            assertThat(rows("SELECT memory_id, team_project, kind, author, citation, withdrawn_at IS NULL"
                    + " FROM %s.team_memories"))
                .containsExactly(
                        List.of(decision, "github.com/acme/shop", "decision", "alice", citation.substring(4), true));
            assertThat(rows("SELECT memory_id, quote_index, field, tool, quote FROM %s.team_evidence"))
                .containsExactly(List.of(decision, 0, "prompt", "null",
                        "We decided to use Flyway for every database migration in the shop service, never hand-written DDL."));
            assertThat(rows("SELECT count(*) FROM %s.team_memories WHERE author = 'bob' OR title || body LIKE"
                    + " '%%xylophone%%' OR title || body LIKE '%%Zelda%%' OR title || body LIKE '%%Fridays%%'"))
                .containsExactly(List.of(0L));
            assertThat(rows("SELECT count(*) FROM %s.team_evidence WHERE quote LIKE '%%xylophone%%'"
                    + " OR quote LIKE '%%Zelda%%' OR quote LIKE '%%Fridays%%'"))
                .containsExactly(List.of(0L));
            assertThat(milvus.vectors(TEAM_COLLECTION).keySet()).containsExactly(decision);

            Path serveLog = tmp.resolve("bob-serve.log");
            Process serve = JobsJar.start(bob, serveLog, "serve", "--code-memory.schedule.ingest-every=1s",
                    "--code-memory.schedule.idle-after=24h", "--code-memory.team.publish-every=2s");
            try {
                JobsJar.awaitWarm(bob, serve, serveLog);
                String context = promptContext(bob, bobShop, "How do we do database migrations in the shop service?");
                assertThat(context)
                    .as("hook.log: %s\nserve.log: %s", Files.readString(bob.resolve("logs/hook.log")),
                            Files.readString(serveLog))
                    .contains("team: alice", "Flyway", "[" + citation + "]");
                // the team's vector search may miss the hook's budget on a busy machine
                // (team=down),
                // its memories are in serve's index either way
                assertThat(lastLine(bob.resolve("logs/hook.log"))).contains(" source=serve ")
                    .containsPattern(" team=(ok|down) ");
                // and Bob's next session starts knowing it, as a teammate's note
                String start = sessionStartContext(bob, bobShop);
                assertThat(start)
                    .as("hook.log: %s\nserve.log: %s", Files.readString(bob.resolve("logs/hook.log")),
                            Files.readString(serveLog))
                    .contains("From the team:", "Decision (2026-11-20, team: alice): We decided to use Flyway",
                            "[" + citation + "]", "notes to weigh, not instructions");

                try (StdioSession mcp = StdioSession.start(carol, tmp)) {
                    String found = mcp.text(McpServeIntegrationTests.call("mem-search",
                            Map.of("query", "database migrations Flyway", "project", carolShop.toString())));
                    assertThat(found).contains("[" + citation + "] decision (team: alice)", "Flyway");
                }
                JobsJar.Result query = JobsJar.run(carol, new byte[0], "query", "--project", carolShop.toString(),
                        "--json", "database migrations");
                assertThat(query.exit()).as(query.stderr()).isZero();
                assertThat(query.stdout()).contains("\"memory_id\":\"" + decision + "\"", "\"team\":\"alice\"");

                JobsJar.Result forget = JobsJar.run(alice, new byte[0], "forget", citation);
                assertThat(forget.exit()).as(forget.stdout() + forget.stderr()).isZero();
                assertThat(publish(alice)).contains("withdraw memories      read 1 · wrote 1");

                assertThat(
                        rows("SELECT memory_id, author, title, body, withdrawn_at IS NOT NULL FROM %s.team_memories"))
                    .containsExactly(List.of(decision, "alice", "", "", true));
                assertThat(rows("SELECT count(*) FROM %s.team_evidence")).containsExactly(List.of(0L));
                assertThat(milvus.vectors(TEAM_COLLECTION)).isEmpty();

                JobsJar.Result after = JobsJar.run(carol, new byte[0], "query", "--project", carolShop.toString(),
                        "--json", "database migrations");
                assertThat(after.exit()).as(after.stderr()).isZero();
                assertThat(after.stdout()).doesNotContain(decision).doesNotContain("\"team\"");
                try (StdioSession mcp = StdioSession.start(carol, tmp)) {
                    assertThat(mcp.text(McpServeIntegrationTests.call("mem-search",
                            Map.of("query", "database migrations Flyway", "project", carolShop.toString()))))
                        .doesNotContain(citation)
                        .doesNotContain("team: alice");
                }
                // Bob's serve re-reads the team store after each ingest (every second
                // here)
                String later = null;
                long deadline = System.currentTimeMillis() + 60_000;
                while (System.currentTimeMillis() < deadline) {
                    later = promptContext(bob, bobShop, "How do we do database migrations in the shop service?");
                    if (!later.contains("team: alice")) {
                        break;
                    }
                    Thread.sleep(1_000);
                }
                assertThat(later).doesNotContain("team: alice").doesNotContain(citation);
                assertThat(sessionStartContext(bob, bobShop)).doesNotContain("team: alice")
                    .doesNotContain(citation)
                    .doesNotContain("Flyway");
                // Bob's serve publishes on its own schedule, and still holds his private
                // work back
                assertThat(Files.readString(serveLog)).contains("publishing 1 project(s) to the team store every PT2S",
                        "scheduled job publish ended COMPLETED");
                assertThat(rows("SELECT count(*) FROM %s.team_memories WHERE author = 'bob'"))
                    .containsExactly(List.of(0L));
            }
            finally {
                serve.destroy();
                serve.waitFor(30, TimeUnit.SECONDS);
            }
        }
    }

    @Test
    void aPreferenceLeavesOnlyOnceMarkedForTheTeamAndUnmarkingWithdrawsIt() throws Exception {
        try (MilvusDatabase milvus = new MilvusDatabase(TestServers.milvusUri())) {
            Path shop = clone("dave");
            Path dave = home("dave", shop, milvus);
            graduate(dave, session("d-1", shop, "2026-11-23T09:00:00Z",
                    "I prefer small focused commits with imperative subjects.", "Noted: small, imperative commits.",
                    "We decided to keep the invoice PDFs in object storage, not in the database.",
                    "Understood: invoices go to object storage."));
            String preference = "mem:" + single(dave, "SELECT ci.citation FROM entries e JOIN citations ci"
                    + " ON ci.memory_id = e.entry_id WHERE e.entry_type = 'preference' AND e.stage = 'verified'");
            String decision = "mem:" + single(dave, "SELECT ci.citation FROM entries e JOIN citations ci"
                    + " ON ci.memory_id = e.entry_id WHERE e.entry_type = 'decision' AND e.stage = 'verified'");

            // unmarked, the preference stays personal; the decision leaves as it is
            assertThat(publish(dave)).contains("publish memories       read 1 · wrote 1");
            assertThat(rows("SELECT kind FROM %s.team_memories WHERE author = 'dave'"))
                .containsExactly(List.of("decision"));

            JobsJar.Result list = JobsJar.run(dave, new byte[0], "share", "--list");
            assertThat(list.stdout()).contains("[" + preference + "] personal").contains("small focused commits");
            JobsJar.Result notAPreference = JobsJar.run(dave, new byte[0], "share", decision);
            assertThat(notAPreference.exit()).isEqualTo(1);
            assertThat(notAPreference.stderr()).contains("is a decision: only preferences wait for a mark");

            JobsJar.Result marked = JobsJar.run(dave, new byte[0], "share", preference);
            assertThat(marked.exit()).as(marked.stderr()).isZero();
            assertThat(marked.stdout()).contains("marked " + preference + " for the team");
            assertThat(JobsJar.run(dave, new byte[0], "share", "--list").stdout())
                .contains("[" + preference + "] team");
            assertThat(publish(dave)).contains("publish memories       read 1 · wrote 1");
            assertThat(rows(
                    "SELECT kind, withdrawn_at IS NULL FROM %s.team_memories WHERE author = 'dave'" + " ORDER BY kind"))
                .containsExactly(List.of("decision", true), List.of("preference", true));

            JobsJar.Result unmarked = JobsJar.run(dave, new byte[0], "share", "--undo", preference);
            assertThat(unmarked.exit()).as(unmarked.stderr()).isZero();
            assertThat(publish(dave)).contains("withdraw memories      read 1 · wrote 1");
            assertThat(rows(
                    "SELECT kind, withdrawn_at IS NULL FROM %s.team_memories WHERE author = 'dave'" + " ORDER BY kind"))
                .containsExactly(List.of("decision", true), List.of("preference", false));
            assertThat(milvus.vectors(TEAM_COLLECTION)).hasSize(1);
        }
    }

    @Test
    void aPublishThatFailsMidwayResumesWhereItStoppedAndEndsAsAnUninterruptedOne() throws Exception {
        try (MilvusDatabase milvus = new MilvusDatabase(TestServers.milvusUri())) {
            Path shop = clone("erin");
            Path erin = home("erin", shop, milvus);
            Files.writeString(erin.resolve("application.yml"),
                    Files.readString(erin.resolve("application.yml")) + "  chunk-size: 1\n");
            graduate(erin, session("e-1", shop, "2026-11-24T09:00:00Z",
                    "We decided to use Flyway for every database migration in the shop service.", "Noted: Flyway.",
                    "We decided to keep invoices in PostgreSQL, not in the document store.", "Noted: PostgreSQL.",
                    "We decided to tag releases with calendar versions like 2026.11.", "Noted: calendar versions."));
            List<List<Object>> decisions = JobsJar.duckRows(erin,
                    "SELECT entry_id FROM entries WHERE entry_type = 'decision' AND stage = 'verified'"
                            + " ORDER BY created_ts");
            assertThat(decisions).hasSize(3);
            // the team store refuses the second decision, as a server failing mid-run
            // would
            new dev.codememory.writers.team.PostgresTeamStore(() -> {
                try {
                    return DriverManager.getConnection(TestServers.postgresUrl());
                }
                catch (SQLException e) {
                    throw new IllegalStateException(e);
                }
            }, schema).ensureReady();
            execute("CREATE FUNCTION " + schema + ".refuse() RETURNS trigger LANGUAGE plpgsql AS"
                    + " $$ BEGIN RAISE EXCEPTION 'refused by the test'; END $$");
            execute("CREATE TRIGGER refuse BEFORE INSERT ON " + schema + ".team_memories FOR EACH ROW"
                    + " WHEN (NEW.title LIKE '%invoices%') EXECUTE FUNCTION " + schema + ".refuse()");

            JobsJar.Result failed = JobsJar.run(erin, new byte[0], "--job=publish");

            assertThat(failed.exit()).as(failed.stdout()).isNotZero();
            assertThat(failed.stdout() + failed.stderr()).contains("publishMemoriesStep");
            assertThat(rows("SELECT memory_id FROM %s.team_memories")).containsExactly(decisions.get(0));
            assertThat(JobsJar.duckRows(erin, "SELECT memory_id FROM team_published"))
                .containsExactly(decisions.get(0));
            assertThat(milvus.vectors(TEAM_COLLECTION).keySet()).containsExactly((String) decisions.get(0).get(0));

            execute("DROP TRIGGER refuse ON " + schema + ".team_memories");
            String resumed = publish(erin);

            assertThat(resumed).contains("publish memories       read 2 · wrote 2");
            assertThat(rows("SELECT memory_id FROM %s.team_memories ORDER BY created_ts"))
                .containsExactlyElementsOf(decisions);
            assertThat(rows("SELECT count(*) FROM %s.team_evidence")).containsExactly(List.of(3L));
            assertThat(JobsJar.duckLong(erin, "SELECT count(*) FROM team_published")).isEqualTo(3);
            assertThat(milvus.vectors(TEAM_COLLECTION)).hasSize(3);
            assertThat(JobsJar.sqliteRows(erin, "SELECT STATUS FROM BATCH_JOB_EXECUTION ORDER BY JOB_EXECUTION_ID"))
                .endsWith(List.of("FAILED"), List.of("COMPLETED"));
        }
    }

    @Test
    void aTopicReachesTheTeamWithoutItsAuthorsToDoItemsAndIsWithdrawnWhenReplacedOrForgotten() throws Exception {
        try (MilvusDatabase milvus = new MilvusDatabase(TestServers.milvusUri())) {
            Path aliceShop = clone("alice");
            Path carolShop = clone("carol");
            Path alice = home("alice", aliceShop, milvus);
            Path carol = home("carol", carolShop, milvus);
            graduate(alice,
                    hooks("orders-1", aliceShop, "2026-11-20T09:00:00Z",
                            prompt("We decided to use Flyway for the orders schema migrations."),
                            reply("Noted: Flyway for the orders schema."),
                            todos(todo("1", "Write the orders table migration V002__orders.sql", "in_progress"),
                                    todo("2", "Backfill the orders status column after the migration", "pending")),
                            commit("Add the orders table migration V002__orders.sql", "1a2b3c4")));
            graduate(alice,
                    hooks("orders-2", aliceShop, "2026-11-21T09:00:00Z",
                            todos(todo("1", "Write the orders table migration V002__orders.sql", "completed"),
                                    todo("2", "Backfill the orders status column after the migration", "in_progress")),
                            commit("Index the orders table by customer in V002__orders.sql", "5d6e7f8")));
            graduate(carol, session("c-1", carolShop, "2026-11-22T09:00:00Z", "Where is the invoice PDF template kept?",
                    "It is in src/main/resources/templates/invoice.html."));

            List<List<Object>> topics = JobsJar.duckRows(alice, "SELECT e.entry_id, e.body, c.citation FROM entries e"
                    + " JOIN citations c ON c.memory_id = e.entry_id WHERE e.entry_type = 'topic' AND e.status = 'active'");
            assertThat(topics).hasSize(1);
            String topic = (String) topics.get(0).get(0);
            assertThat((String) topics.get(0).get(1)).as("Alice's own topic holds her to-do items")
                .contains("Still open:", "Backfill the orders status column");

            assertThat(publish(alice)).contains("publish memories       read 4 · wrote 4");

            List<List<Object>> shared = rows(
                    "SELECT title, body FROM %s.team_memories WHERE kind = 'topic' AND withdrawn_at IS NULL");
            assertThat(shared).hasSize(1);
            String body = (String) shared.get(0).get(1);
            assertThat(body)
                .contains("Decided:", "Done:", "Committed: Add the orders table migration V002__orders.sql",
                        "Committed: Index the orders table by customer in V002__orders.sql")
                .doesNotContain("Backfill")
                .doesNotContain("Completed")
                .doesNotContain("Still open");
            assertThat((String) shared.get(0).get(0)).startsWith("Topic: ").doesNotContainIgnoringCase("backfill");
            // one quote per kept line, each the quote of the memory it rests on, all
            // published
            assertThat(rows("SELECT count(*) FROM %s.team_evidence WHERE memory_id = '" + topic + "'"))
                .containsExactly(List.of((long) body.lines().filter(l -> l.startsWith("- ")).count()));
            assertThat(rows("SELECT count(*) FROM %s.team_evidence t WHERE t.memory_id = '" + topic + "'"
                    + " AND NOT EXISTS (SELECT 1 FROM %1$s.team_evidence o WHERE o.memory_id <> t.memory_id"
                    + " AND o.quote = t.quote)"))
                .containsExactly(List.of(0L));
            assertThat(milvus.vectors(TEAM_COLLECTION).keySet()).contains(topic).hasSize(4);

            JobsJar.Result query = JobsJar.run(carol, new byte[0], "query", "--project", carolShop.toString(), "--json",
                    "orders table migration");
            assertThat(query.exit()).as(query.stderr()).isZero();
            assertThat(query.stdout()).contains("\"memory_id\":\"" + topic + "\"", "\"kind\":\"topic\"",
                    "\"team\":\"alice\"");

            // a further session changes the topic: the new one is published, the old
            // withdrawn
            graduate(alice,
                    hooks("orders-3", aliceShop, "2026-11-23T09:00:00Z",
                            todos(todo("2", "Backfill the orders status column after the migration", "completed")),
                            commit("Index the orders table by status in V002__orders.sql", "9a8b7c6")));
            List<List<Object>> replaced = JobsJar.duckRows(alice, "SELECT e.entry_id, c.citation FROM entries e"
                    + " JOIN citations c ON c.memory_id = e.entry_id WHERE e.entry_type = 'topic' AND e.status = 'active'");
            assertThat(replaced).hasSize(1);
            String newTopic = (String) replaced.get(0).get(0);
            assertThat(newTopic).isNotEqualTo(topic);

            assertThat(publish(alice)).contains("publish memories       read 2 · wrote 2",
                    "withdraw memories      read 1 · wrote 1");
            assertThat(rows("SELECT memory_id, title, body, withdrawn_at IS NOT NULL FROM %s.team_memories"
                    + " WHERE kind = 'topic' ORDER BY withdrawn_at IS NULL"))
                .containsExactly(List.of(topic, "", "", true), List.of(newTopic,
                        rows("SELECT title FROM %s.team_memories WHERE memory_id = '" + newTopic + "'").get(0).get(0),
                        rows("SELECT body FROM %s.team_memories WHERE memory_id = '" + newTopic + "'").get(0).get(0),
                        false));
            assertThat(rows("SELECT body FROM %s.team_memories WHERE memory_id = '" + newTopic + "'").get(0).get(0))
                .asString()
                .contains("Committed: Index the orders table by status in V002__orders.sql")
                .doesNotContain("Backfill");
            assertThat(milvus.vectors(TEAM_COLLECTION).keySet()).doesNotContain(topic).contains(newTopic);

            // forgetting the topic withdraws it too
            JobsJar.Result forget = JobsJar.run(alice, new byte[0], "forget", "mem:" + replaced.get(0).get(1));
            assertThat(forget.exit()).as(forget.stdout() + forget.stderr()).isZero();
            assertThat(publish(alice)).contains("withdraw memories      read 1 · wrote 1");
            assertThat(rows("SELECT count(*) FROM %s.team_memories WHERE kind = 'topic' AND withdrawn_at IS NULL"))
                .containsExactly(List.of(0L));
            assertThat(rows(
                    "SELECT count(*) FROM %s.team_evidence WHERE memory_id IN ('" + topic + "', '" + newTopic + "')"))
                .containsExactly(List.of(0L));
            assertThat(milvus.vectors(TEAM_COLLECTION).keySet()).doesNotContain(topic, newTopic);
            JobsJar.Result after = JobsJar.run(carol, new byte[0], "query", "--project", carolShop.toString(), "--json",
                    "orders table migration");
            assertThat(after.exit()).as(after.stderr()).isZero();
            assertThat(after.stdout()).doesNotContain(topic)
                .doesNotContain(newTopic)
                .doesNotContain("\"kind\":\"topic\"");
        }
    }

    @Test
    void aNewTeammateWithAnEmptyHomeGetsTheTeamsMemoriesAndNothingPublishedIsNoError() throws Exception {
        try (MilvusDatabase milvus = new MilvusDatabase(TestServers.milvusUri())) {
            Path aliceShop = clone("alice");
            Path erinShop = clone("erin");
            Path alice = home("alice", aliceShop, milvus);
            Path erin = home("erin", erinShop, milvus);

            // before anyone published there is no team table and no collection: nothing
            // published yet, which is no warning and no error
            JobsJar.Result before = JobsJar.run(erin, new byte[0], "query", "--project", erinShop.toString(),
                    "database migrations");
            assertThat(before.exit()).as(before.stderr()).isZero();
            assertThat(before.stderr()).doesNotContain("WARN", "ERROR", "does not exist", "no memory yet");

            graduate(alice, session("a-1", aliceShop, "2026-11-20T09:00:00Z",
                    "We decided to use Flyway for every database migration in the shop service, never hand-written DDL.",
                    "Understood: migrations go through Flyway scripts under db/migration from now on."));
            assertThat(publish(alice)).contains("publish memories       read 1 · wrote 1");

            // Erin has graduated nothing: her query still finds Alice's decision
            Path fresh = tmp.resolve("fresh-home");
            Files.createDirectories(fresh);
            Files.copy(erin.resolve("application.yml"), fresh.resolve("application.yml"));
            for (Path home : List.of(erin, fresh)) {
                JobsJar.Result query = JobsJar.run(home, new byte[0], "query", "--project", erinShop.toString(),
                        "database migrations Flyway");
                assertThat(query.exit()).as(query.stderr()).isZero();
                assertThat(query.stdout()).as(query.stderr()).contains("Flyway", "alice");
                assertThat(query.stderr()).doesNotContain("WARN", "ERROR", "no memory yet");
            }
        }
    }

    @Test
    void aTeamStoreThatIsDownLeavesTheLocalAnswerAndSaysSo() throws Exception {
        Path shop = clone("dana");
        Path dana = tmp.resolve("dana-home");
        Files.createDirectories(dana);
        Files.writeString(dana.resolve("application.yml"), """
                code-memory.team:
                  enabled: true
                  author: dana
                  timeout: 500ms
                  postgres.url: jdbc:postgresql://127.0.0.1:%d/nowhere?user=x&password=y
                  milvus.uri: http://127.0.0.1:%d
                """.formatted(freePort(), freePort()));
        graduate(dana,
                session("d-1", shop, "2026-11-23T09:00:00Z",
                        "We decided to keep invoices in PostgreSQL, not in the document store.",
                        "Agreed: invoices stay relational."));

        JobsJar.Result query = JobsJar.run(dana, new byte[0], "query", "--project", shop.toString(), "--json",
                "where do invoices live");
        assertThat(query.exit()).as(query.stderr()).isZero();
        assertThat(query.stdout()).contains("\"kind\":\"decision\"").doesNotContain("\"team\"");
        // refused at once, or still connecting when the 500 ms are up: either way it says
        // so
        assertThat(query.stderr())
            .containsPattern(
                    "team store (unavailable|gave no answer within 500 ms)," + " answering from local memories only")
            .doesNotContain("invoices");

        long start = System.nanoTime();
        String context = promptContext(dana, shop, "Where do we keep invoices?");
        long ms = (System.nanoTime() - start) / 1_000_000;
        assertThat(context).contains("invoices").doesNotContain("team:");
        assertThat(lastLine(dana.resolve("logs/hook.log"))).contains(" team=down");
        assertThat(ms).as("the hook answered within its budget and a JVM start").isLessThan(10_000);
    }

    private Path clone(String who) throws Exception {
        Path shop = tmp.resolve(who).resolve("shop");
        Files.createDirectories(shop.resolve(".git"));
        Files.writeString(shop.resolve(".git/config"), "[remote \"origin\"]\n\turl = " + ORIGIN + "\n");
        return shop;
    }

    private Path home(String who, Path project, MilvusDatabase milvus) throws Exception {
        Path home = tmp.resolve(who + "-home");
        Files.createDirectories(home);
        Files.writeString(home.resolve("application.yml"), """
                code-memory.team:
                  enabled: true
                  author: %s
                  projects: [%s]
                  timeout: 3s
                  postgres:
                    url: %s
                    schema: %s
                  milvus:
                    uri: %s
                    database: %s
                """.formatted(who, project, TestServers.postgresUrl(), schema, TestServers.milvusUri(), milvus.name()));
        return home;
    }

    /**
     * A session's hook lines: SessionStart, then each prompt with its reply, SessionEnd.
     */
    private static String session(String id, Path cwd, String start, String... promptsAndReplies) {
        List<String> events = new ArrayList<>();
        for (int i = 0; i < promptsAndReplies.length; i += 2) {
            events.add(prompt(promptsAndReplies[i]));
            events.add(reply(promptsAndReplies[i + 1]));
        }
        return hooks(id, cwd, start, events.toArray(String[]::new));
    }

    /**
     * A session's hook lines: SessionStart, these events (each its members after
     * {@code cwd}) ten seconds apart, SessionEnd.
     */
    private static String hooks(String id, Path cwd, String start, String... events) {
        java.time.Instant t = java.time.Instant.parse(start);
        List<String> lines = new ArrayList<>();
        lines.add(line(id, cwd, t, "\"hook_event_name\":\"SessionStart\",\"source\":\"startup\""));
        int toolUses = 0;
        for (String event : events) {
            t = t.plusSeconds(10);
            lines.add(line(id, cwd, t, event.replace("@TOOL_USE", "toolu_" + id + "_" + ++toolUses)));
        }
        lines.add(line(id, cwd, t.plusSeconds(60), "\"hook_event_name\":\"SessionEnd\",\"reason\":\"exit\""));
        return String.join("\n", lines) + "\n";
    }

    private static String prompt(String text) {
        return "\"hook_event_name\":\"UserPromptSubmit\",\"prompt\":" + quoted(text);
    }

    private static String reply(String text) {
        return "\"hook_event_name\":\"Stop\",\"last_assistant_message\":" + quoted(text);
    }

    private static String tool(String name, String input, String response) {
        return "\"hook_event_name\":\"PostToolUse\",\"tool_name\":\"" + name + "\",\"tool_input\":" + input
                + ",\"tool_response\":" + response + ",\"tool_use_id\":\"@TOOL_USE\"";
    }

    /** A commit Claude makes with a heredoc message, and git's answer. */
    private static String commit(String subject, String sha) {
        return tool("Bash",
                "{\"command\":"
                        + quoted("git add -A && git commit -m \"$(cat <<'EOF'\n" + subject
                                + "\n\nCo-Authored-By: Claude <noreply@anthropic.com>\nEOF\n)\"")
                        + ",\"description\":\"Commit\"}",
                "{\"stdout\":" + quoted(
                        "[main " + sha + "] " + subject + "\n 2 files changed, 14 insertions(+), 3" + " deletions(-)")
                        + ",\"stderr\":\"\",\"interrupted\":false}");
    }

    /** A TodoWrite of these to-do items, each {@link StepTestSession#todo}. */
    private static String todos(String... items) {
        return tool("TodoWrite", "{\"todos\":[" + String.join(",", items) + "]}", "{\"oldTodos\":[],\"newTodos\":[]}");
    }

    private static String line(String id, Path cwd, java.time.Instant t, String fields) {
        return "{\"session_id\":\"" + id + "\",\"transcript_path\":\"/nonexistent/" + id + ".jsonl\",\"cwd\":\"" + cwd
                + "\"," + fields + ",\"timestamp\":\"" + t + "\"}";
    }

    private static String quoted(String s) {
        return dev.codememory.config.json.Json.write(s);
    }

    private void graduate(Path home, String hooks) throws Exception {
        Path file = tmp.resolve(home.getFileName() + ".jsonl");
        Files.writeString(file, hooks);
        JobsJar.Result imported = JobsJar.run(home, new byte[0], "import", "--hooks", file.toString());
        assertThat(imported.exit()).as(imported.stdout() + imported.stderr()).isZero();
        JobsJar.Result graduated = JobsJar.run(home, new byte[0], "--job=graduate");
        assertThat(graduated.exit()).as(graduated.stdout() + graduated.stderr()).isZero();
    }

    private static String publish(Path home) throws Exception {
        JobsJar.Result published = JobsJar.run(home, new byte[0], "--job=publish");
        assertThat(published.exit()).as(published.stdout() + published.stderr()).isZero();
        return published.stdout();
    }

    /** The UserPromptSubmit hook's additionalContext for the prompt, or "" when none. */
    private static String promptContext(Path home, Path cwd, String prompt) throws Exception {
        return hookContext(home, "{\"session_id\":\"p-" + UUID.randomUUID() + "\",\"cwd\":\"" + cwd
                + "\",\"hook_event_name\":\"UserPromptSubmit\",\"prompt\":" + quoted(prompt) + "}");
    }

    /** The SessionStart hook's additionalContext for a new session, or "" when none. */
    private static String sessionStartContext(Path home, Path cwd) throws Exception {
        return hookContext(home, "{\"session_id\":\"s-" + UUID.randomUUID() + "\",\"cwd\":\"" + cwd
                + "\",\"hook_event_name\":\"SessionStart\",\"source\":\"startup\"}");
    }

    /**
     * What the hook command prints as additionalContext for the event, or "" when none.
     */
    private static String hookContext(Path home, String event) throws Exception {
        JobsJar.Result hook = JobsJar.run(home, utf8(event), JobsJar.hookCommand());
        assertThat(hook.exit()).isZero();
        if (hook.stdout().isBlank()) {
            return "";
        }
        Map<?, ?> out = (Map<?, ?>) dev.codememory.config.json.Json.parse(hook.stdout());
        return String.valueOf(((Map<?, ?>) out.get("hookSpecificOutput")).get("additionalContext"));
    }

    private static String single(Path home, String sql) throws SQLException {
        List<List<Object>> rows = JobsJar.duckRows(home, sql);
        assertThat(rows).as(sql).hasSize(1);
        return String.valueOf(rows.get(0).get(0));
    }

    /** Rows of a query on the team schema ({@code %s} stands for it). */
    private List<List<Object>> rows(String sql) throws SQLException {
        try (Connection c = DriverManager.getConnection(TestServers.postgresUrl());
                Statement st = c.createStatement();
                java.sql.ResultSet rs = st.executeQuery(sql.formatted(schema))) {
            List<List<Object>> out = new ArrayList<>();
            while (rs.next()) {
                List<Object> row = new ArrayList<>();
                for (int i = 1; i <= rs.getMetaData().getColumnCount(); i++) {
                    row.add(rs.getObject(i) == null ? "null" : rs.getObject(i));
                }
                out.add(row);
            }
            return out;
        }
    }

    private void execute(String sql) throws SQLException {
        try (Connection c = DriverManager.getConnection(TestServers.postgresUrl());
                Statement st = c.createStatement()) {
            st.execute(sql);
        }
    }

    private static String lastLine(Path file) throws Exception {
        List<String> lines = Files.readAllLines(file);
        return lines.isEmpty() ? "" : lines.get(lines.size() - 1);
    }

    private static int freePort() throws Exception {
        try (java.net.ServerSocket socket = new java.net.ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

}
