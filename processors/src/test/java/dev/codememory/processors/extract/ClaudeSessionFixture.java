package dev.codememory.processors.extract;

import dev.codememory.config.graduate.Observation;
import dev.codememory.config.graduate.SourceText;
import dev.codememory.config.graduate.Turn;
import java.time.LocalDateTime;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A realistic Claude Code session: a failing test run, a fix, a decision, a preference,
 * tasks, an insight and a Korean turn. Texts are as the hooks deliver them; tool input
 * and output are compact JSON text.
 */
final class ClaudeSessionFixture {

    static final String SESSION = "9f1c2d7e-5b3a-4c8e-9d21-6a7f0e4b2c11";
    static final String PROJECT = "code-memory";

    static final String PROMPT_1 = "Run the tests and fix whatever is failing in the event store module.\n"
            + "I prefer tabs over spaces; never use wildcard imports.";
    static final String REPLY_1 = "The test DuckDbEventStoreTests failed because the schema was created twice. "
            + "Turns out the migration ran on every start. "
            + "I changed SchemaMigrator to record applied versions, and the tests pass now.";

    static final String MVNW_COMMAND = "./mvnw test -pl config";
    static final String MVNW_INPUT = "{\"command\":\"./mvnw test -pl config\",\"description\":\"Run the config module"
            + " tests\"}";
    static final String MVNW_ERROR = "[ERROR] Tests run: 12, Failures: 1, Errors: 0, Skipped: 0\n"
            + "[ERROR] DuckDbEventStoreTests.migratesOnce:41 expected: <1> but was: <2>";
    static final String MVNW_OUTPUT = "Error: Exit code 1\n[INFO] Scanning for projects...\n" + MVNW_ERROR
            + "\n[INFO] BUILD FAILURE";

    static final String MIGRATOR = "/work/repo/config/src/main/java/dev/codememory/config/db/SchemaMigrator.java";
    static final String EDIT_INPUT = "{\"file_path\":\"" + MIGRATOR + "\",\"old_string\":\"migrate(connection);\","
            + "\"new_string\":\"if (!applied(connection)) {\\n    migrate(connection);\\n}\",\"replace_all\":false}";
    static final String EDIT_OUTPUT = "{\"filePath\":\"" + MIGRATOR + "\",\"oldString\":\"migrate(connection);\","
            + "\"userModified\":false}";

    static final String COMMIT_COMMAND = "git commit -am \"Record applied migrations\"";
    static final String COMMIT_INPUT = "{\"command\":\"git commit -am \\\"Record applied migrations\\\"\","
            + "\"description\":\"Commit the fix\"}";
    static final String COMMIT_OUTPUT = "{\"stdout\":\"[main 3f2a9c1] Record applied migrations\\n 1 file changed\","
            + "\"stderr\":\"\",\"interrupted\":false,\"isImage\":false}";

    static final String PROMPT_2 = "We'll go with DuckDB instead of SQLite for the event store. "
            + "The deployment target is a single Linux VM.";
    static final String REPLY_2 = "Understood. I'll wire the DuckDB JDBC driver into the config module.\n"
            + "The API runs on port 8080 behind nginx. "
            + "DuckDB keeps the whole event store in one file, so backups are a copy of that file. "
            + "Reads during ingest are safe because the hook only appends to the spool, and the graduation job is "
            + "the single writer that opens the database.";

    static final String PROMPT_3 = "TODO: publish the release — blocked on PROJ-42. The changelog update is done.";
    static final String REPLY_3 = "Noted: the release waits for PROJ-42, and the changelog entry is in place.";

    static final String PROMPT_4 = "이벤트 저장소는 DuckDB로 결정했다. 모킹은 하지 마. 다음 주까지 릴리스 노트를 작성해야 한다.";
    static final String REPLY_4 = "알겠습니다. 릴리스 노트 초안 작성을 완료했습니다.";

    static final String PROMPT_5 = "Now bump the version to 0.2.0 and tag it. "
            + "We need to update the install guide asap.";

    private ClaudeSessionFixture() {
    }

    static LocalDateTime at(String time) {
        return LocalDateTime.parse("2025-06-01T" + time);
    }

    static List<Turn> turns() {
        return List.of(turn(1, PROMPT_1, REPLY_1, "10:00:00", "10:04:00"),
                turn(2, PROMPT_2, REPLY_2, "10:10:00", "10:10:40"), turn(3, PROMPT_3, REPLY_3, "10:20:00", "10:20:15"),
                turn(4, PROMPT_4, REPLY_4, "10:30:00", "10:31:00"),
                new Turn("turn-5", SESSION, PROJECT, "ev-p5", PROMPT_5, null, null, null, at("10:40:00"), null));
    }

    static List<Observation> observations() {
        return List.of(
                new Observation("ev-t1", SESSION, PROJECT, "Bash", List.of(), MVNW_COMMAND, true, MVNW_ERROR, 48_210L,
                        at("10:01:00"), MVNW_INPUT, MVNW_OUTPUT),
                new Observation("ev-t2", SESSION, PROJECT, "Edit", List.of(MIGRATOR), null, false, null, null,
                        at("10:02:30"), EDIT_INPUT, EDIT_OUTPUT),
                new Observation("ev-t3", SESSION, PROJECT, "Bash", List.of(), COMMIT_COMMAND, false, null, 310L,
                        at("10:03:10"), COMMIT_INPUT, COMMIT_OUTPUT));
    }

    static SessionSlice slice() {
        return new SessionSlice(SESSION, PROJECT, turns(), observations());
    }

    /** Source text by event id and field, as {@link SourceText} defines them. */
    static Map<String, String> sources() {
        Map<String, String> sources = new HashMap<>();
        for (Turn turn : turns()) {
            sources.put(turn.promptEventId() + "/" + SourceText.PROMPT, turn.promptText());
            if (turn.replyEventId() != null) {
                sources.put(turn.replyEventId() + "/" + SourceText.REPLY, turn.replyText());
            }
        }
        for (Observation observation : observations()) {
            sources.put(observation.observationId() + "/" + SourceText.TOOL_INPUT, observation.inputText());
            sources.put(observation.observationId() + "/" + SourceText.TOOL_RESPONSE, observation.outputText());
        }
        return sources;
    }

    private static Turn turn(int n, String prompt, String reply, String promptTime, String replyTime) {
        return new Turn("turn-" + n, SESSION, PROJECT, "ev-p" + n, prompt, "ev-s" + n, reply, "stop", at(promptTime),
                at(replyTime));
    }

}
