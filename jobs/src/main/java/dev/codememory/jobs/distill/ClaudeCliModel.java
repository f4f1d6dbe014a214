package dev.codememory.jobs.distill;

import dev.codememory.config.distill.DistillAnswer;
import dev.codememory.config.distill.DistillModel;
import dev.codememory.config.distill.DistillModelException.Reason;
import dev.codememory.config.distill.DistillModelException;
import dev.codememory.config.distill.DistillRequest;
import dev.codememory.config.json.Json;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The local Claude Code CLI in print mode, with the user's own login: {@code claude -p}
 * with the distiller's instructions as the whole system prompt, no tools, no MCP servers,
 * no session saved, and every hook off ({@code disableAllHooks}), so that neither
 * code-memory's hooks nor any other capture the call; the session goes in on stdin. Its
 * JSON result carries the answer and the usage. The environment also names the call
 * ({@value #MARKER}), for a hook that wants to know.
 */
final class ClaudeCliModel implements DistillModel {

    /** Set in the CLI's environment: this run is the distiller's. */
    static final String MARKER = "CODE_MEMORY_DISTILLER";

    static final String NO_HOOKS = "{\"disableAllHooks\":true}";

    private final String command;

    private final String model;

    private final Duration timeout;

    ClaudeCliModel(String command, String model, Duration timeout) {
        this.command = command;
        this.model = model;
        this.timeout = timeout;
    }

    /** The command line run for a request (the session itself goes on stdin). */
    List<String> commandLine(DistillRequest request) {
        return List.of(command, "-p", "--model", model, "--output-format", "json", "--system-prompt", request.system(),
                "--tools", "", "--strict-mcp-config", "--settings", NO_HOOKS, "--no-session-persistence");
    }

    @Override
    public DistillAnswer ask(DistillRequest request) {
        Path output = null;
        try {
            output = Files.createTempFile("code-memory-distill", ".json");
            ProcessBuilder builder = new ProcessBuilder(commandLine(request)).redirectOutput(output.toFile())
                .redirectError(ProcessBuilder.Redirect.DISCARD);
            builder.environment().put(MARKER, "1");
            Process process;
            try {
                process = builder.start();
            }
            catch (IOException e) {
                throw new DistillModelException(Reason.UNREACHABLE, "cannot run " + command + ": " + e.getMessage(),
                        null, e);
            }
            try (OutputStream in = process.getOutputStream()) {
                in.write(request.user().getBytes(StandardCharsets.UTF_8));
            }
            catch (IOException e) {
                // the CLI ended before reading: its exit status says why
            }
            if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                process.descendants().forEach(ProcessHandle::destroyForcibly);
                process.destroyForcibly();
                throw new DistillModelException(Reason.TIMEOUT, "no answer within " + timeout);
            }
            return result(Files.readString(output, StandardCharsets.UTF_8), process.exitValue());
        }
        catch (IOException e) {
            throw new DistillModelException(Reason.UNREACHABLE, "cannot run " + command + ": " + e.getMessage(), null,
                    e);
        }
        catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new DistillModelException(Reason.UNREACHABLE, "interrupted", null, e);
        }
        finally {
            if (output != null) {
                try {
                    Files.deleteIfExists(output);
                }
                catch (IOException e) {
                    // a temporary file left behind
                }
            }
        }
    }

    /** The answer in the CLI's JSON result, or why there is none. */
    static DistillAnswer result(String stdout, int exit) {
        Map<?, ?> result = null;
        try {
            if (Json.parse(stdout.strip()) instanceof Map<?, ?> map) {
                result = map;
            }
        }
        catch (RuntimeException e) {
            // not JSON: judged below
        }
        if (result == null) {
            throw new DistillModelException(exit == 0 ? Reason.MALFORMED : Reason.UNREACHABLE,
                    "the CLI exited " + exit + " without a JSON result");
        }
        Map<?, ?> usage = result.get("usage") instanceof Map<?, ?> u ? u : Map.of();
        DistillAnswer answer = new DistillAnswer(result.get("result") instanceof String s ? s : "",
                MessagesApiModel.tokens(usage, "input_tokens")
                        + MessagesApiModel.tokens(usage, "cache_creation_input_tokens")
                        + MessagesApiModel.tokens(usage, "cache_read_input_tokens"),
                MessagesApiModel.tokens(usage, "output_tokens"));
        if (Boolean.TRUE.equals(result.get("is_error")) || exit != 0) {
            String said = answer.text().toLowerCase(Locale.ROOT);
            Reason reason = said.contains("429") || said.contains("rate limit") || said.contains("overloaded")
                    ? Reason.RATE_LIMITED : Reason.UNREACHABLE;
            throw new DistillModelException(reason, "the CLI reported an error (exit " + exit + ")", answer, null);
        }
        return answer;
    }

}
