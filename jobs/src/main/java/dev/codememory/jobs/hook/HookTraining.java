package dev.codememory.jobs.hook;

/**
 * The sample of a real tool call that {@link HookCommand#train()} feeds the hook when the
 * build records its class-data archive: the archive holds the classes a hook call loads,
 * and redacting a large command output loads the most (the redactor's hand-written
 * matchers and its regexes). Kept in the product because the build runs it from
 * {@code jobs.jar}; the hook bench sends the same event, at 100 KB, to time the hook on
 * it.
 */
public final class HookTraining {

    private HookTraining() {
    }

    /**
     * A PostToolUse event of a Bash command whose stdout is about {@code bytes} of what a
     * developer's tool prints: code, build output, config lines that name secrets without
     * holding one, and a few that hold one.
     */
    public static String toolOutputEvent(int bytes) {
        String[] lines = {
                "    public Optional<Order> findById(String id) { return repository.findById(id).map(this::toOrder); }",
                "[INFO] Tests run: 42, Failures: 0, Errors: 0, Skipped: 1, Time elapsed: 3.21 s - in shop.OrderTests",
                "2026-11-02T09:00:02Z WARN auth: token refresh failed, retrying in 2s (attempt 1/5) request_id=5f0c2a10",
                "      \"integrity\": \"sha512-z4PhNX7vuL3xVChQ1m2AB9Yg5AULVxXcg/SpIdNs6c5H0NE8XYXysP+DGNKHfuwvY7kxvUR9n==\",",
                "    password: ${DB_PASSWORD}",
                "def verify(self, secret: str) -> bool:  # compares the HMAC of the payload",
                "commit 4f2a9c1e7b3d5a6f8e9c0b1a2d3e4f5a6b7c8d9e Merge pull request #412 from acme/fix-token-refresh",
                "\tat shop.checkout.CheckoutService.apply(CheckoutService.java:88) ~[classes/:na]",
                "const apiKey = process.env.OPENAI_API_KEY; // read at start-up, never logged",
                "DB_PASSWORD=zebra-fence-5521 OPENAI_API_KEY=sk-proj-AbC_dEf-1234567890abcdefXYZ ./gradlew test",
                "    url: postgres://app:Sup3rS3cret@db.internal:5432/shop",
                "id 3fa85f64-5717-4562-b3fc-2c963f66afa6 created by alice at 2026-11-02 09:00:01", };
        StringBuilder out = new StringBuilder(bytes + 200);
        for (int i = 0; out.length() < bytes; i++) {
            out.append(lines[i % lines.length]).append('\n');
        }
        return "{\"session_id\":\"bench\",\"transcript_path\":\"/tmp/t.jsonl\",\"cwd\":\"/tmp\","
                + "\"permission_mode\":\"default\",\"hook_event_name\":\"PostToolUse\",\"tool_name\":\"Bash\","
                + "\"tool_input\":{\"command\":\"./gradlew test --info\"},\"tool_response\":{\"stdout\":\""
                + out.toString().replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n").replace("\t", "\\t")
                + "\",\"stderr\":\"\",\"interrupted\":false},\"tool_use_id\":\"toolu_bench_large\",\"duration_ms\":5310}";
    }

}
