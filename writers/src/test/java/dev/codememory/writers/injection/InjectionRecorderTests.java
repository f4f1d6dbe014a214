package dev.codememory.writers.injection;

import static org.assertj.core.api.Assertions.assertThat;

import dev.codememory.capture.spool.Spool;
import dev.codememory.config.home.CodeMemoryHome;
import dev.codememory.config.injection.Injection;
import dev.codememory.config.injection.InjectionLine;
import dev.codememory.config.json.Json;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class InjectionRecorderTests {

    private static final Instant AT = Instant.parse("2025-06-01T10:15:30.123456Z");

    @TempDir
    Path tmp;

    @Test
    void appendsOneInjectionLineToTheSpool() throws Exception {
        CodeMemoryHome home = new CodeMemoryHome(tmp.resolve("home"));
        Injection injection = new Injection("s-1", "ev_0123456789abcdef0123456789abcdef", "UserPromptSubmit", AT,
                "high", 812, List.of(new Injection.Item("mem:a7Bc3x", "m-1", 1, 0.93),
                        new Injection.Item("mem:Q2w_e4", "m-2", 2, 0.61)));

        InjectionRecorder.record(home, injection);

        List<String> lines = Files.readAllLines(home.spool().resolve("current.jsonl"));
        assertThat(lines).containsExactly("{\"spool\":1,\"record\":\"injection\",\"injection\":{"
                + "\"session_id\":\"s-1\",\"prompt_event_id\":\"ev_0123456789abcdef0123456789abcdef\","
                + "\"hook_event_name\":\"UserPromptSubmit\",\"injected_at\":\"2025-06-01T10:15:30.123456Z\","
                + "\"band\":\"high\",\"chars\":812,\"items\":["
                + "{\"citation\":\"mem:a7Bc3x\",\"memory_id\":\"m-1\",\"rank\":1,\"score\":0.93},"
                + "{\"citation\":\"mem:Q2w_e4\",\"memory_id\":\"m-2\",\"rank\":2,\"score\":0.61}]}}");
        assertThat(InjectionLine.read(lines.get(0))).isEqualTo(injection);
    }

    @Test
    void spoolFileAndFoldersAreOwnerOnly() throws Exception {
        CodeMemoryHome home = new CodeMemoryHome(tmp.resolve("home"));

        InjectionRecorder.record(home, new Injection("s", null, "SessionStart", AT, "session_start", 0, List.of()));

        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(home.spool().resolve("current.jsonl"))))
            .isEqualTo("rw-------");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(home.spool()))).isEqualTo("rwx------");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(home.sealedSpool())))
            .isEqualTo("rwx------");
    }

    @Test
    void recordsNoPromptOrInjectedTextOnlyItsSize() throws Exception {
        CodeMemoryHome home = new CodeMemoryHome(tmp.resolve("home"));
        String prompt = "how do I rotate the staging database password";
        String injected = "[mem:a7Bc3x] staging passwords rotate through vault, never by hand";

        InjectionRecorder.record(home, new Injection("s", "ev_x", "UserPromptSubmit", AT, "suggested",
                injected.length(), List.of(new Injection.Item("mem:a7Bc3x", "m-1", 1, 0.8))));

        String spooled = Files.readString(home.spool().resolve("current.jsonl"));
        assertThat(spooled).doesNotContain("rotate")
            .doesNotContain("staging")
            .doesNotContain("password")
            .doesNotContain(prompt)
            .doesNotContain(injected)
            .endsWith("\n");
        Map<String, Object> body = object(object(Json.parse(spooled.strip())).get("injection"));
        assertThat(body.keySet()).containsExactly("session_id", "prompt_event_id", "hook_event_name", "injected_at",
                "band", "chars", "items");
        assertThat(body.get("chars")).isEqualTo(new Json.JsonNumber(String.valueOf(injected.length())));
    }

    @Test
    void appendsAfterHookLinesInTheSameFile() throws Exception {
        CodeMemoryHome home = new CodeMemoryHome(tmp.resolve("home"));
        Spool.forHome(home).append("{\"spool\":1,\"event\":{}}");

        InjectionRecorder.record(home, new Injection("s", null, "SessionStart", AT, "session_start", 0, List.of()));
        InjectionRecorder.record(home,
                new Injection("s", null, "SessionStart", AT.plusSeconds(1), "session_start", 0, List.of()));

        List<String> lines = Files.readAllLines(home.spool().resolve("current.jsonl"));
        assertThat(lines).hasSize(3);
        assertThat(lines.get(0)).isEqualTo("{\"spool\":1,\"event\":{}}");
        assertThat(lines.subList(1, 3))
            .allSatisfy(line -> assertThat(line).startsWith("{\"spool\":1,\"record\":\"injection\","));
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> object(Object value) {
        assertThat(value).isInstanceOf(Map.class);
        return (Map<String, Object>) value;
    }

}
