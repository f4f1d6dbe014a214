package dev.codememory.jobs.cli;

import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Random;

/**
 * Writes deterministic, Claude-Code-shaped hook events for benchmarks: sessions of 50 events — a start, prompts
 * and replies (some stating decisions, preferences, tasks, blockers and insights), tool calls (a few failing),
 * and an end — each line with a fixed {@code timestamp}.
 */
public final class GeneratedSessions {

    private static final String[] MODULES = {"billing", "checkout", "search", "auth", "reports", "inventory"};
    private static final String[] REPLIES = {
        "I updated %s and ran the tests; everything passes now.",
        "We decided to use a token bucket instead of a fixed window for the %s rate limiter.",
        "The root cause was a missing index on the %s table, so the query scanned every row.",
        "TODO: migrate the %s service to the new client - blocked on PROJ-%d until the API is released.",
        "The %s job is done and deployed to staging.",
        "Turns out the %s cache was never invalidated after writes.",
    };
    private static final String[] PROMPTS = {
        "Why is the %s page so slow when the cart has many items?",
        "I prefer small commits with descriptive messages for the %s work.",
        "Please add retries with backoff to the %s client and keep the public API stable.",
        "Never log request bodies in the %s service.",
        "Can you review the %s module for thread-safety problems?",
    };

    private GeneratedSessions() {
    }

    /** Writes about {@code events} events (whole sessions) and returns how many. */
    public static int write(Path file, int events) throws IOException {
        Random random = new Random(42);
        Instant t = Instant.parse("2026-01-05T09:00:00Z");
        int written = 0;
        int session = 0;
        try (BufferedWriter out = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
            while (written < events) {
                String sid = "bench-session-" + session;
                String project = "/work/bench/project-" + (session % 5);
                String common = "\"session_id\":\"" + sid + "\",\"transcript_path\":\"/tmp/" + sid
                        + ".jsonl\",\"cwd\":\"" + project + "\",\"permission_mode\":\"default\"";
                written += line(out, common, "SessionStart", t, "\"source\":\"startup\"");
                for (int turn = 0; turn < 8; turn++) {
                    String module = MODULES[random.nextInt(MODULES.length)];
                    t = t.plusSeconds(60);
                    written += line(out, common, "UserPromptSubmit", t, "\"prompt\":\""
                            + PROMPTS[random.nextInt(PROMPTS.length)].formatted(module) + " (turn " + turn + ")\"");
                    for (int tool = 0; tool < 4; tool++) {
                        t = t.plusSeconds(5);
                        boolean fail = random.nextInt(10) == 0;
                        written += line(out, common, "PostToolUse", t, "\"tool_name\":\"Bash\",\"tool_input\":"
                                + "{\"command\":\"./mvnw -q test -Dtest=" + module + "Tests#case" + random.nextInt(500)
                                + "\"},\"tool_response\":{\"stdout\":\"Tests run: " + (10 + tool) + "\","
                                + "\"stderr\":\"" + (fail ? "expected 3 but was 4" : "") + "\",\"exit_code\":"
                                + (fail ? 1 : 0) + "},\"tool_use_id\":\"toolu_" + written + "\",\"duration_ms\":"
                                + random.nextInt(5000));
                    }
                    t = t.plusSeconds(20);
                    String reply = REPLIES[random.nextInt(REPLIES.length)].formatted(module, random.nextInt(90) + 10);
                    written += line(out, common, "Stop", t, "\"stop_hook_active\":false,"
                            + "\"last_assistant_message\":\"" + reply + " Session " + session + ", turn " + turn + ".\"");
                }
                t = t.plusSeconds(30);
                written += line(out, common, "SessionEnd", t, "\"reason\":\"other\"");
                session++;
                t = t.plusSeconds(3600);
            }
        }
        return written;
    }

    private static int line(BufferedWriter out, String common, String event, Instant t, String body)
            throws IOException {
        out.write("{" + common + ",\"hook_event_name\":\"" + event + "\"," + body + ",\"timestamp\":\"" + t
                + "\"}\n");
        return 1;
    }
}
