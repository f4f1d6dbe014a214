package dev.codememory.jobs.e2e;

import dev.codememory.jobs.e2e.MessagesStandIn.Conversation;
import dev.codememory.jobs.e2e.MessagesStandIn.Turn;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The model's side of a short working session in a git repository, as the stand-in plays
 * it: a to-do list of two tasks, a file written and edited, a test run that fails (exit
 * 3) and then passes, a real {@code git commit}, the first task completed, a subagent's
 * review, and a closing reply that leaves the second task open. Claude Code runs every
 * tool for real.
 */
public final class WorkSession {

    /** What the user asks. */
    public static final String PROMPT = "The uploader gives up on the first network error; make it retry";

    public static final String DONE_TASK = "Add retry backoff to the uploader";

    public static final String OPEN_TASK = "Document the retry settings in the README";

    public static final String COMMIT_SUBJECT = "Retry failed uploads with exponential backoff";

    /** What the main conversation asks its subagent. */
    public static final String SUBAGENT_PROMPT = "Review uploader.py for retry bugs and report in one sentence";

    public static final String SUBAGENT_ANSWER = "The retry loop in uploader.py looks right.";

    public static final String LAST_REPLY = "The uploader now retries with exponential backoff; documenting "
            + "the retry settings is still open.";

    /** A prompt about the session's subject, for the next session. */
    public static final String TOPICAL_PROMPT = "What retry backoff did we add to the uploader?";

    private WorkSession() {
    }

    /** The main conversation and the subagent's, for a session in {@code project}. */
    public static List<Conversation> conversations(Path project) {
        String uploader = project.resolve("uploader.py").toString();
        Conversation main = Conversation.of(PROMPT,
                Turn.tool("ToolSearch", Map.of("query", "select:TaskCreate,TaskUpdate")),
                Turn.tool("TaskCreate",
                        Map.of("subject", DONE_TASK, "description", "Retry a failed upload up to five times")),
                Turn.tool("TaskCreate", Map.of("subject", OPEN_TASK, "description", "Explain max_attempts")),
                Turn.tool("Write", Map.of("file_path", uploader, "content", "def upload(f):\n    send(f)\n")),
                Turn.tool("Edit",
                        Map.of("file_path", uploader, "old_string", "    send(f)\n", "new_string",
                                "    for attempt in range(5):\n        if send(f):\n            return\n"
                                        + "        sleep(2 ** attempt)\n")),
                Turn.tool("Bash",
                        Map.of("command", "echo 'FAILED test_upload_retries' >&2; exit 3", "description",
                                "Run the tests")),
                Turn.tool("Bash", Map.of("command", "echo '2 passed'", "description", "Run the tests")),
                Turn.tool("Bash",
                        Map.of("command", "git add -A && git commit -m '" + COMMIT_SUBJECT + "'", "description",
                                "Commit the retry")),
                Turn.tool("TaskUpdate", Map.of("taskId", "1", "status", "completed")),
                Turn.tool("Agent", Map.of("description", "Review the uploader", "prompt", SUBAGENT_PROMPT,
                        "subagent_type", "general-purpose", "run_in_background", false)),
                Turn.text(LAST_REPLY));
        return List.of(main, Conversation.of(SUBAGENT_PROMPT, Turn.text(SUBAGENT_ANSWER)));
    }

    /** A new git repository to work in (what the session commits to). */
    public static Path gitRepository(Path folder) throws IOException, InterruptedException {
        Files.createDirectories(folder);
        git(folder, "init", "-q", "-b", "main");
        return folder;
    }

    /** Runs git in {@code repository} and returns what it printed. */
    public static String git(Path repository, String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of("git", "-C", repository.toString()));
        command.addAll(List.of(args));
        Process git = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(git.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!git.waitFor(1, TimeUnit.MINUTES) || git.exitValue() != 0) {
            throw new IllegalStateException(command + " failed: " + out);
        }
        return out;
    }

}
