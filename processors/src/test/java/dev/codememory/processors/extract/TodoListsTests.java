package dev.codememory.processors.extract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import dev.codememory.config.graduate.Candidate;
import dev.codememory.config.graduate.CandidateKind;
import dev.codememory.config.graduate.Observation;
import dev.codememory.config.graduate.Quote;
import dev.codememory.config.graduate.SourceText;
import dev.codememory.config.graduate.TaskFields;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class TodoListsTests {

    private static final LocalDateTime T0 = LocalDateTime.of(2026, 1, 5, 9, 0);

    private static final String FIX = todo("1", "Fix the  login\tredirect", "in_progress", "high");

    private static final String DOCS = todo("2", "Document the redirect", "pending", "medium");

    private final List<Observation> observations = new ArrayList<>();

    @Test
    void anItemIsATaskWhenItFirstAppearsAndAgainEachTimeItsStatusChanges() {
        String first = tool("TodoWrite", list(FIX, DOCS), null);
        tool("TodoWrite", list(FIX, DOCS), null);
        String fixDone = todo("1", "Fix the  login\tredirect", "completed", "high");
        String third = tool("TodoWrite", list(fixDone, DOCS), null);

        List<Candidate> candidates = extract();

        assertThat(candidates).extracting(Candidate::title, c -> c.task().status(), c -> c.quotes().get(0).eventId())
            .as("the second list repeats the first: nothing new")
            .containsExactly(tuple("Fix the login redirect", "in_progress", first),
                    tuple("Document the redirect", "pending", first), tuple("Fix the login redirect", "done", third));
        Candidate done = candidates.get(2);
        assertThat(done.kind()).isEqualTo(CandidateKind.TASK);
        assertThat(done.sessionId()).isEqualTo("s1");
        assertThat(done.project()).isEqualTo("/p");
        assertThat(done.ts()).isEqualTo(T0.plusMinutes(2));
        assertThat(done.body()).isEqualTo("Fix the login redirect\nstatus: done (Claude's to-do list)");
        assertThat(done.task()).isEqualTo(new TaskFields("done", "high", List.of(), TaskFields.TODO_LIST));
        assertThat(done.quotes()).containsExactly(new Quote(third, SourceText.TOOL_INPUT, fixDone));
        assertThat(candidates.get(0).body())
            .isEqualTo("Fix the login redirect\nstatus: in progress (Claude's to-do list)");
        assertThat(candidates.get(1).task()).isEqualTo(new TaskFields("pending", "medium", List.of(), "todo_list"));
    }

    @Test
    void anOpenItemLeftOutOfTheNextListIsCancelledAndComesBackWhenListedAgain() {
        String first = tool("TodoWrite", list(FIX, DOCS), null);
        String second = tool("TodoWrite", list(FIX), null);
        String third = tool("TodoWrite", list(FIX, DOCS), null);

        List<Candidate> candidates = extract();

        assertThat(candidates).extracting(Candidate::title, c -> c.task().status())
            .containsExactly(tuple("Fix the login redirect", "in_progress"), tuple("Document the redirect", "pending"),
                    tuple("Document the redirect", "cancelled"), tuple("Document the redirect", "pending"));
        assertThat(candidates.get(2).quotes()).as("the item in the last list that held it, the list that left it out")
            .containsExactly(new Quote(first, SourceText.TOOL_INPUT, DOCS),
                    new Quote(second, SourceText.TOOL_INPUT, FIX));
        assertThat(candidates.get(2).task().priority()).isEqualTo("medium");
        assertThat(candidates.get(3).quotes()).containsExactly(new Quote(third, SourceText.TOOL_INPUT, DOCS));
    }

    @Test
    void anEmptyListCancelsWhatIsOpenButNotWhatIsDone() {
        String done = todo("2", "Document the redirect", "completed", "medium");
        tool("TodoWrite", list(FIX, done), null);
        String empty = tool("TodoWrite", "{\"todos\":[]}", null);

        List<Candidate> candidates = extract();

        assertThat(candidates).extracting(Candidate::title, c -> c.task().status())
            .containsExactly(tuple("Fix the login redirect", "in_progress"), tuple("Document the redirect", "done"),
                    tuple("Fix the login redirect", "cancelled"));
        assertThat(candidates.get(2).quotes().get(1))
            .isEqualTo(new Quote(empty, SourceText.TOOL_INPUT, "\"todos\":[]"));
    }

    @Test
    void itemsWithoutTextOrAKnownStatusAndRepeatsInOneListAreSkipped() {
        tool("TodoWrite", list(todo("1", "  ", "pending", "high"), todo("2", "Ship it", "someday", "high"), FIX,
                todo("3", "fix the LOGIN redirect", "pending", "low")), null);

        assertThat(extract()).extracting(Candidate::title, c -> c.task().status())
            .containsExactly(tuple("Fix the login redirect", "in_progress"));
    }

    @Test
    void taskToolsCreateAPendingTaskThatUpdatesOfItsIdMove() {
        String create = tool("TaskCreate", "{\"subject\":\"Write the migration\",\"description\":\"V010\"}",
                "{\"task\":{\"id\":\"7\",\"subject\":\"Write the migration\"}}");
        tool("TaskUpdate", "{\"taskId\":\"8\",\"status\":\"completed\"}", null);
        String progress = tool("TaskUpdate", "{\"taskId\":\"7\",\"status\":\"in_progress\"}", null);
        tool("TaskUpdate", "{\"taskId\":\"7\",\"status\":\"in_progress\"}", null);
        String delete = tool("TaskUpdate", "{\"taskId\":\"7\",\"status\":\"deleted\"}", null);

        List<Candidate> candidates = extract();

        Quote subject = new Quote(create, SourceText.TOOL_INPUT, "Write the migration");
        assertThat(candidates).extracting(Candidate::title, c -> c.task().status(), Candidate::quotes)
            .as("an unknown id and a status it already has change nothing")
            .containsExactly(tuple("Write the migration", "pending", List.of(subject)),
                    tuple("Write the migration", "in_progress",
                            List.of(new Quote(progress, SourceText.TOOL_INPUT,
                                    "{\"taskId\":\"7\",\"status\":\"in_progress\"}"), subject)),
                    tuple("Write the migration", "cancelled", List.of(
                            new Quote(delete, SourceText.TOOL_INPUT, "{\"taskId\":\"7\",\"status\":\"deleted\"}"),
                            subject)));
        assertThat(candidates).allSatisfy(c -> assertThat(c.task().fromTodoList()).isTrue());
    }

    @Test
    void taskHookEventsArePendingAndDoneTasksQuotedByTheirSubject() {
        String created = tool("TaskCreated", "{\"task_subject\":\"Rotate the signing keys\",\"task_id\":\"3\"}", null);
        String completed = tool("TaskCompleted", "{\"task_subject\":\"Rotate the signing keys\"}", null);

        assertThat(extract()).extracting(c -> c.task().status(), Candidate::quotes)
            .containsExactly(
                    tuple("pending", List.of(new Quote(created, SourceText.TOOL_INPUT, "Rotate the signing keys"))),
                    tuple("done", List.of(new Quote(completed, SourceText.TOOL_INPUT, "Rotate the signing keys"))));
    }

    @Test
    void failedCallsOtherToolsAndInputThatIsNotAJsonObjectGiveNothing() {
        observations.add(observation("o1", "TodoWrite", true, list(FIX), null));
        observations.add(observation("o2", "Bash", false, list(FIX), null));
        observations.add(observation("o3", "TodoWrite", false, "[" + FIX + "]", null));
        observations.add(observation("o4", "TodoWrite", false, "not json", null));
        observations.add(observation("o5", "TodoWrite", false, null, null));

        assertThat(extract()).isEmpty();
    }

    @ParameterizedTest
    @CsvSource({ "pending, pending", "open, pending", "TODO, pending", "in_progress, in_progress",
            "in-progress, in_progress", "active, in_progress", "completed, done", "Complete, done", "done, done",
            "resolved, done", "cancelled, cancelled", "canceled, cancelled", "deleted, cancelled" })
    void statusesTheToolsWriteMapToTaskStatuses(String raw, String status) {
        assertThat(TodoLists.status(raw)).isEqualTo(status);
    }

    @ParameterizedTest
    @CsvSource({ "blocked", "someday", "''" })
    void otherStatusesAreNone(String raw) {
        assertThat(TodoLists.status(raw)).isNull();
    }

    private List<Candidate> extract() {
        CandidateSink sink = new CandidateSink("s1", "/p", "test");
        TodoLists.extract(observations, sink);
        return sink.candidates();
    }

    /** A successful call of the tool, a minute after the one before; returns its id. */
    private String tool(String name, String input, String output) {
        String id = "o" + (observations.size() + 1);
        observations.add(observation(id, name, false, input, output));
        return id;
    }

    private Observation observation(String id, String tool, boolean failed, String input, String output) {
        return new Observation(id, "s1", "/p", tool, List.of(), null, failed, null, null,
                T0.plusMinutes(observations.size()), input, output);
    }

    private static String list(String... todos) {
        return "{\"todos\":[" + String.join(",", todos) + "]}";
    }

    /** One item as Claude Code writes it, in the compact form the quote must match. */
    private static String todo(String id, String content, String status, String priority) {
        return "{\"content\":\"" + content.replace("\t", "\\t") + "\",\"status\":\"" + status + "\",\"priority\":\""
                + priority + "\",\"id\":\"" + id + "\"}";
    }

}
