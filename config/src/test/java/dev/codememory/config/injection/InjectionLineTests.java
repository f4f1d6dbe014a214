package dev.codememory.config.injection;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class InjectionLineTests {

    private static final Instant AT = Instant.parse("2025-06-01T10:15:30.123456Z");

    private static final Injection INJECTION = new Injection("s-1", "ev_0123456789abcdef0123456789abcdef",
            "UserPromptSubmit", AT, "high", 812, List.of(new Injection.Item("mem:a7Bc3x", "m-1", 1, 0.93),
                    new Injection.Item("mem:Zz9_-q", "m-2", 2, 1.0E-5)));

    @Test
    void writesOneLineWithTheInjectionMarkerInTheSpoolEnvelope() {
        assertThat(InjectionLine.write(INJECTION)).isEqualTo("{\"spool\":1,\"record\":\"injection\",\"injection\":{"
                + "\"session_id\":\"s-1\",\"prompt_event_id\":\"ev_0123456789abcdef0123456789abcdef\","
                + "\"hook_event_name\":\"UserPromptSubmit\",\"injected_at\":\"2025-06-01T10:15:30.123456Z\","
                + "\"band\":\"high\",\"chars\":812,\"items\":["
                + "{\"citation\":\"mem:a7Bc3x\",\"memory_id\":\"m-1\",\"rank\":1,\"score\":0.93},"
                + "{\"citation\":\"mem:Zz9_-q\",\"memory_id\":\"m-2\",\"rank\":2,\"score\":1.0E-5}]}}");
    }

    @Test
    void readsBackWhatItWrote() {
        Injection sessionStart = new Injection(null, null, "SessionStart", AT, "session_start", 0, List.of());

        assertThat(InjectionLine.read(InjectionLine.write(INJECTION))).isEqualTo(INJECTION);
        assertThat(InjectionLine.read(InjectionLine.write(sessionStart))).isEqualTo(sessionStart);
        assertThat(InjectionLine.write(sessionStart)).contains("\"session_id\":null,\"prompt_event_id\":null");
    }

    @Test
    void readsATimeWithAnOffsetAndIgnoresUnknownFields() {
        Injection read = InjectionLine.read("{\"spool\":1,\"record\":\"injection\",\"x\":1,\"injection\":{"
                + "\"hook_event_name\":\"SessionStart\",\"injected_at\":\"2025-06-01T12:15:30+02:00\","
                + "\"band\":\"none\",\"chars\":3,\"items\":[],\"later\":true}}");

        assertThat(read).isEqualTo(
                new Injection(null, null, "SessionStart", Instant.parse("2025-06-01T10:15:30Z"), "none", 3, List.of()));
    }

    @Test
    void rejectsMalformedLinesNamingWhatIsWrong() {
        assertInvalid("{not json", "not valid JSON: expected a string key at character 1");
        assertInvalid("[1]", "not an injection record");
        assertInvalid("{\"spool\":1,\"record\":\"other\"}", "not an injection record");
        assertInvalid("{\"spool\":1,\"record\":\"injection\",\"injection\":[]}", "no \"injection\" object");
        assertInvalid(line("\"items\":{}"), "items is missing or not an array");
        assertInvalid(line("\"items\":[1]"), "an item is not an object");
        assertInvalid(line("\"items\":[" + item("\"rank\":1.5") + "]"), "item rank is missing or not an integer");
        assertInvalid(line("\"items\":[" + item("\"rank\":\"1\"") + "]"), "item rank is missing or not an integer");
        assertInvalid(line("\"items\":[" + item("\"rank\":0") + "]"), "item rank must be at least 1, was 0");
        assertInvalid(line("\"items\":[" + item("\"rank\":2") + "," + item("\"rank\":2") + "]"),
                "rank 2 appears twice");
        assertInvalid(line("\"items\":[" + item("\"score\":1e400") + "]"),
                "item score must be a finite number, was Infinity");
        assertInvalid(line("\"items\":[" + item("\"score\":null") + "]"), "item score is missing or not a number");
        assertInvalid(line("\"items\":[" + item("\"citation\":\" \"") + "]"), "item citation is missing");
        assertInvalid(line("\"items\":[" + item("\"memory_id\":null") + "]"), "item memory_id is missing");
        assertInvalid(line("\"band\":\"great\""),
                "band must be one of [continuity, high, none, session_start, suggested], was 'great'");
        assertInvalid(line("\"hook_event_name\":\"Stop\""),
                "hook_event_name must be one of [SessionStart, UserPromptSubmit], was 'Stop'");
        assertInvalid(line("\"hook_event_name\":null"),
                "hook_event_name must be one of [SessionStart, UserPromptSubmit], was null");
        assertInvalid(line("\"injected_at\":\"2025-06-01T10:15:30\""),
                "injected_at is missing or not an ISO-8601 time with offset");
        assertInvalid(line("\"chars\":-1"), "chars must not be negative, was -1");
        assertInvalid(line("\"chars\":1e3"), "chars is missing or not an integer");
        assertInvalid(line("\"session_id\":5"), "session_id is not a string");
    }

    @Test
    void injectionIdIsDerivedFromSessionEventHookAndTime() {
        String id = INJECTION.injectionId();

        assertThat(id).matches("in_[0-9a-f]{32}");
        assertThat(new Injection("s-1", INJECTION.promptEventId(), "UserPromptSubmit", AT, "none", 0, List.of())
            .injectionId()).as("band, size and items are not part of the identity").isEqualTo(id);
        assertThat(
                List.of(new Injection("s-2", INJECTION.promptEventId(), "UserPromptSubmit", AT, "high", 812, List.of()),
                        new Injection("s-1", "ev_other", "UserPromptSubmit", AT, "high", 812, List.of()),
                        new Injection("s-1", INJECTION.promptEventId(), "SessionStart", AT, "high", 812, List.of()),
                        new Injection("s-1", INJECTION.promptEventId(), "UserPromptSubmit", AT.plusNanos(1_000), "high",
                                812, List.of())))
            .extracting(Injection::injectionId)
            .doesNotContain(id)
            .doesNotHaveDuplicates();
    }

    @Test
    void timeIsKeptToTheMicrosecond() {
        Injection nanos = new Injection("s", null, "SessionStart", AT.plusNanos(999), "session_start", 0, List.of());

        assertThat(nanos.injectedAt()).isEqualTo(AT);
        assertThat(nanos.injectionId())
            .isEqualTo(new Injection("s", null, "SessionStart", AT, "session_start", 0, List.of()).injectionId());
    }

    private static void assertInvalid(String line, String reason) {
        assertThatThrownBy(() -> InjectionLine.read(line)).as(line)
            .isInstanceOf(IllegalArgumentException.class)
            .hasMessage(reason);
    }

    /** A valid line with one field of the injection object replaced. */
    private static String line(String replacement) {
        String key = replacement.substring(0, replacement.indexOf(':') + 1);
        String valid = InjectionLine.write(INJECTION);
        int start = valid.indexOf(key);
        int end = key.equals("\"items\":") ? valid.length() - 2 : valid.indexOf(',', start);
        return valid.substring(0, start) + replacement + valid.substring(end);
    }

    private static String item(String replacement) {
        String valid = "{\"citation\":\"mem:a7Bc3x\",\"memory_id\":\"m-1\",\"rank\":1,\"score\":0.5}";
        String key = replacement.substring(0, replacement.indexOf(':') + 1);
        int start = valid.indexOf(key);
        int end = valid.indexOf(',', start);
        end = end < 0 ? valid.length() - 1 : end;
        return valid.substring(0, start) + replacement + valid.substring(end);
    }

}
