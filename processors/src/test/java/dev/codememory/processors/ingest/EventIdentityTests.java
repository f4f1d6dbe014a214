package dev.codememory.processors.ingest;

import dev.codememory.capture.spool.EventIdentity;
import dev.codememory.capture.spool.SpoolLineBuilder;

import static org.assertj.core.api.Assertions.assertThat;

import dev.codememory.config.ingest.IngestRecord;
import dev.codememory.config.ingest.SpoolLine;
import dev.codememory.config.json.Json;
import dev.codememory.config.project.ProjectResolver;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDateTime;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The hook side's event id must be the one ingest assigns, whatever the hook JSON holds:
 * both read with the hook's parser and hash what {@link EventIdentity#payload} writes,
 * and the ids stored so far never change.
 */
class EventIdentityTests {

    private static final String FILE = "20250601T101530.000000Z-42-1.jsonl";

    private static final Instant RECEIVED = Instant.parse("2025-06-01T10:15:30.123456Z");

    private static final List<String> AGREEMENT_HOOKS = List.of(
            // control characters (short and \\u forms), DEL, line separators, quotes,
            // slashes, non-BMP
            "{\"session_id\":\"s\",\"hook_event_name\":\"UserPromptSubmit\",\"prompt\":\"a\\u0001\\u001f\\u007f"
                    + "\\u2028\\u2029\\b\\f\\n\\r\\t\\\"\\\\/é 😀 \\ud83d\\ude00 \\ud800 end\"}",
            // numbers Jackson rewrites: exponents, -0, trailing zeros, huge and tiny
            // values
            "{\"hook_event_name\":\"PostToolUse\",\"tool_response\":{\"n\":[1e5,1E5,1.0e-3,-0,-0.0,0.0,0,1E+400,"
                    + "1e-400,12345678901234567890123,-12345678901234567890123,1.50,2147483648,1e0,0e0,100e2,"
                    + "0.000001,1e-7,123456789012345678901234567890.5]}}",
            // nesting, empty containers, literals, empty and odd keys, duplicate keys
            "{\"hook_event_name\":\"Stop\",\"x\":{},\"y\":[],\"z\":null,\"t\":true,\"f\":false,\"\":\"\","
                    + "\"k\\u0000ey\":\"\\u0000\",\"d\":{\"a\":[[{\"b\":[]}]]},\"a\":1,\"a\":2}",
            // an event time, with an offset
            "{\"session_id\":\"s\",\"hook_event_name\":\"UserPromptSubmit\",\"prompt\":\"p\","
                    + "\"timestamp\":\"2025-06-01T12:00:00.5+02:00\"}",
            // no session, non-string session and timestamp
            "{\"hook_event_name\":\"Notification\",\"message\":\"m\"}",
            "{\"hook_event_name\":\"SessionStart\",\"session_id\":7,\"timestamp\":1700000000}",
            // secrets masked and private sections redacted before either side sees them
            "{\"hook_event_name\":\"PostToolUse\",\"tool_input\":{\"password\":\"p\",\"c\":\"<private>x</private>\"}}");

    private final SpoolLineBuilder builder = SpoolLineBuilder.defaults();

    private final HookEventProcessor processor = new HookEventProcessor(new ProjectResolver());

    @Test
    void promptLineIdIsTheIdIngestGivesIt() {
        SpoolLineBuilder.Line line = builder.build(utf8("{\"session_id\":\"s-1\",\"transcript_path\":\"/t/s-1.jsonl\","
                + "\"cwd\":\"/work/app\",\"hook_event_name\":\"UserPromptSubmit\",\"prompt\":\"fix the build\"}"),
                RECEIVED, "hook", null);

        IngestRecord.Event event = ingest(line.json());

        assertThat(line.eventId()).isEqualTo(event.eventId()).matches("ev_[0-9a-f]{32}");
    }

    @Test
    void hookSideAndIngestAgreeOnEscapesNumbersAndMoments() {
        List<String> hooks = AGREEMENT_HOOKS;
        for (String hook : hooks) {
            SpoolLineBuilder.Line line = builder.build(utf8(hook), RECEIVED, "hook", null);

            IngestRecord.Event event = ingest(line.json());

            assertThat(line.eventId()).as(hook).isEqualTo(event.eventId());
            assertThat(EventIdentity.payload(event(line))).as(hook).isEqualTo(event.payloadJson());
        }
    }

    @Test
    void importedLinesAgreeWithAndWithoutTimestamp() {
        for (String hook : List.of("{\"session_id\":\"s\",\"hook_event_name\":\"UserPromptSubmit\",\"prompt\":\"p\"}",
                "{\"session_id\":\"s\",\"hook_event_name\":\"Stop\",\"timestamp\":\"2023-05-08T13:58:00Z\"}")) {
            SpoolLineBuilder.Line line = builder.build(hook, RECEIVED, "import", "history.jsonl:3");

            assertThat(line.eventId()).as(hook).isEqualTo(ingest(line.json()).eventId());
        }
    }

    @Test
    void aLineWithItsOwnIdentityIsKeyedByItAloneOnBothSides() {
        String first = "{\"session_id\":\"s-1\",\"transcript_path\":\"/p/s-1.jsonl\",\"hook_event_name\":\"UserPromptSubmit\","
                + "\"prompt\":\"fix it\",\"timestamp\":\"2025-06-01T10:00:00Z\"}";
        // the same record read again from a resumed session's file: another session,
        // path, time of receipt
        String again = "{\"session_id\":\"s-2\",\"transcript_path\":\"/p/s-2.jsonl\",\"hook_event_name\":\"UserPromptSubmit\","
                + "\"prompt\":\"fix it\",\"timestamp\":\"2025-06-01T10:00:00Z\"}";
        SpoolLineBuilder.Line a = builder.build(first, RECEIVED, "transcript", "/p/s-1.jsonl:4", "prompt/u-7");
        SpoolLineBuilder.Line b = builder.build(again, RECEIVED.plusSeconds(60), "transcript", "/p/s-2.jsonl:9",
                "prompt/u-7");
        SpoolLineBuilder.Line other = builder.build(first, RECEIVED, "transcript", "/p/s-1.jsonl:4", "prompt/u-8");

        IngestRecord.Event ingested = ingest(a.json());

        assertThat(a.eventId()).isEqualTo(ingested.eventId())
            .isEqualTo(b.eventId())
            .isEqualTo(ingest(b.json()).eventId())
            .isNotEqualTo(other.eventId());
        assertThat(ingested.dedupeKey()).isEqualTo(EventIdentity.identityKey("UserPromptSubmit", "prompt/u-7"));
        assertThat(ingested.sessionId()).isEqualTo("s-1");
        assertThat(ingested.source()).isEqualTo("transcript");
    }

    @Test
    void randomHookObjectsGetTheSameIdOnBothSides() {
        Random random = new Random(20250601);
        for (int i = 0; i < 500; i++) {
            String hook = randomHook(random);
            SpoolLineBuilder.Line line = builder.build(hook, RECEIVED, "hook", null);
            assertThat(line.flagged()).as(hook).isFalse();

            IngestRecord.Event event = ingest(line.json());

            assertThat(EventIdentity.payload(event(line))).as(hook).isEqualTo(event.payloadJson());
            assertThat(line.eventId()).as(hook).isEqualTo(event.eventId());
        }
    }

    /**
     * The ids ingest gave these lines when a second JSON library (Jackson) still wrote
     * the payload it hashes: the ids stored in every existing home, which must never
     * change (a re-import would add its history twice).
     */
    @Test
    void storedEventIdsNeverChange() {
        StringBuilder ids = new StringBuilder();
        for (String hook : AGREEMENT_HOOKS) {
            ids.append(ingest(builder.build(utf8(hook), RECEIVED, "hook", null).json()).eventId()).append('\n');
        }
        Random random = new Random(20250601);
        for (int i = 0; i < 500; i++) {
            ids.append(ingest(builder.build(randomHook(random), RECEIVED, "hook", null).json()).eventId()).append('\n');
        }

        assertThat(EventIdentity.sha256(ids.toString()))
            .isEqualTo("8976f479f8a269d65a800af6b80779b002e68833fe9cc23eebe9120b371cac7e");
    }

    @Test
    void linesIngestRejectsHaveNoEventId() {
        assertThat(builder.build(utf8("{broken"), RECEIVED, "hook", null).eventId()).isNull();
        assertThat(builder.build(utf8("{\"hook_event_name\":\"Foo\"}"), RECEIVED, "hook", null).eventId()).isNull();
        assertThat(builder.build(utf8("{\"session_id\":\"s\"}"), RECEIVED, "hook", null).eventId()).isNull();
        assertThat(EventIdentity.eventIdOf("not json")).isNull();
        assertThat(EventIdentity.eventIdOf("{\"spool\":1,\"event\":{\"hook_event_name\":\"Stop\"}}")).isNull();
        assertThat(EventIdentity.eventIdOf("{\"spool\":1,\"received_at\":\"2025-06-01T10:15:30Z\","
                + "\"record\":\"injection\",\"event\":{\"hook_event_name\":\"Stop\"}}"))
            .isNull();
    }

    @Test
    void idIsDerivedFromTheDedupeKey() {
        String key = EventIdentity.dedupeKey("UserPromptSubmit", null, "received:2025-06-01T10:15:30Z", "{}");

        assertThat(key)
            .isEqualTo(EventIdentity.sha256("UserPromptSubmit\u0000\u0000received:2025-06-01T10:15:30Z" + "\u0000{}"));
        assertThat(EventIdentity.eventId(key)).isEqualTo("ev_" + key.substring(0, 32));
        assertThat(EventIdentity.moment(null, null, "2025-06-01T10:15:30Z")).isEqualTo("received:2025-06-01T10:15:30Z");
        assertThat(EventIdentity.moment(null, "a.jsonl:1", "x")).isEqualTo("origin:a.jsonl:1");
        assertThat(EventIdentity.moment(EventIdentity.parseTime("2025-06-01T10:00:00Z"), "a.jsonl:1", "x"))
            .isEqualTo("ts:2025-06-01T10:00");
    }

    @Test
    void commonTimesParseAsJavaTimeParsesThem() {
        for (String t : new String[] { "2025-06-01T10:15:30Z", "2025-06-01T10:15:30.1Z",
                "2025-06-01T10:15:30.123456789Z", "2025-06-01T10:15:30.1234567891Z", "2025-06-01T12:00:00.5+02:00",
                "2025-06-01T05:30:00-04:30", "2025-06-01T00:30:00+01:00", "2024-02-29T23:59:59Z",
                "2023-02-29T10:00:00Z", "2025-04-31T10:00:00Z", "2025-06-01T24:00:00Z", "2025-06-01T23:60:00Z",
                "2025-06-01T23:59:60Z", "2025-06-01T10:15Z", "2025-06-01T10:15:30", "2025-06-01T10:15:30.Z",
                "2025-06-01T10:15:30+18:00", "2025-06-01T10:15:30-00:00", "2025-06-01T10:15:30+00:00",
                "0001-01-01T00:00:00Z", "0000-01-01T00:00:00Z", "2025-13-01T10:15:30Z", "2025-06-01t10:15:30z",
                "+2025-06-01T10:15:30Z", "2025-06-01T10:15:30+0200", "2025-06-01 10:15:30Z" }) {
            LocalDateTime common = EventIdentity.parseCommonTime(t);
            if (common != null) {
                assertThat(common).as(t).isEqualTo(EventIdentity.parseAnyTime(t));
            }
            assertThat(EventIdentity.parseTime(t)).as(t).isEqualTo(EventIdentity.parseAnyTime(t));
        }
        Random random = new Random(7);
        for (int i = 0; i < 5_000; i++) {
            String t = String.format("%04d-%02d-%02dT%02d:%02d:%02d%s%s", 1 + random.nextInt(9999),
                    1 + random.nextInt(12), 1 + random.nextInt(31), random.nextInt(24), random.nextInt(60),
                    random.nextInt(60),
                    random.nextBoolean() ? "" : "." + "123456789".substring(0, 1 + random.nextInt(9)),
                    random.nextBoolean() ? "Z" : String.format("%s%02d:%02d", random.nextBoolean() ? "+" : "-",
                            random.nextInt(18), random.nextInt(60)));
            assertThat(EventIdentity.parseTime(t)).as(t).isEqualTo(EventIdentity.parseAnyTime(t));
            if (EventIdentity.parseAnyTime(t) != null && !t.endsWith("-00:00")) {
                assertThat(EventIdentity.parseCommonTime(t)).as(t).isNotNull();
            }
        }
    }

    // ---- helpers ----

    private IngestRecord.Event ingest(String spoolLine) {
        IngestRecord record = processor.process(new SpoolLine(FILE, 1, spoolLine, true, false));
        assertThat(record).isInstanceOf(IngestRecord.Event.class);
        return (IngestRecord.Event) record;
    }

    private static Object event(SpoolLineBuilder.Line line) {
        return ((Map<?, ?>) Json.parse(line.json())).get("event");
    }

    private static String randomHook(Random random) {
        StringBuilder hook = new StringBuilder("{\"session_id\":");
        randomString(random, hook);
        hook.append(",\"hook_event_name\":\"PostToolUse\",\"tool_response\":");
        randomValue(random, hook, 0);
        return hook.append('}').toString();
    }

    private static void randomValue(Random random, StringBuilder out, int depth) {
        int kind = random.nextInt(depth > 4 ? 4 : 7);
        switch (kind) {
            case 0 -> randomString(random, out);
            case 1 -> randomNumber(random, out);
            case 2 -> out.append(random.nextBoolean() ? "true" : "false");
            case 3 -> out.append("null");
            case 4, 5 -> {
                out.append('{');
                int n = random.nextInt(4);
                for (int i = 0; i < n; i++) {
                    if (i > 0) {
                        out.append(',');
                    }
                    randomString(random, out);
                    out.append(':');
                    randomValue(random, out, depth + 1);
                }
                out.append('}');
            }
            default -> {
                out.append('[');
                int n = random.nextInt(4);
                for (int i = 0; i < n; i++) {
                    if (i > 0) {
                        out.append(',');
                    }
                    randomValue(random, out, depth + 1);
                }
                out.append(']');
            }
        }
    }

    /**
     * A JSON string literal drawn from control characters, escapes, ASCII, Latin, CJK,
     * surrogates, separators.
     */
    private static void randomString(Random random, StringBuilder out) {
        out.append('"');
        int length = random.nextInt(12);
        for (int i = 0; i < length; i++) {
            switch (random.nextInt(9)) {
                case 0 -> out.append(String.format("\\u%04x", random.nextInt(0x20)));
                case 1 -> out.append(
                        new String[] { "\\n", "\\t", "\\r", "\\b", "\\f", "\\\"", "\\\\", "\\/" }[random.nextInt(8)]);
                case 2 -> out.append(String.format("\\u%04X", 0xD800 + random.nextInt(0x800))); // lone
                                                                                                // surrogates
                case 3 ->
                    out.append(new char[] { '\u007f', '\u2028', '\u2029', '\u00a0', '\ufeff' }[random.nextInt(5)]);
                case 4 -> out.appendCodePoint(0x1F600 + random.nextInt(50));
                case 5 -> out.append((char) (0xAC00 + random.nextInt(100)));
                case 6 -> out.append((char) (0xC0 + random.nextInt(0x100)));
                default -> {
                    char c = (char) (0x20 + random.nextInt(0x5F));
                    out.append(c == '"' || c == '\\' ? 'q' : c);
                }
            }
        }
        out.append('"');
    }

    private static void randomNumber(Random random, StringBuilder out) {
        if (random.nextBoolean()) {
            out.append('-');
        }
        if (random.nextInt(4) == 0) {
            out.append('0');
        }
        else {
            out.append(1 + random.nextInt(1_000_000))
                .append("0".repeat(random.nextInt(3) == 0 ? random.nextInt(30) : 0));
        }
        if (random.nextBoolean()) {
            out.append('.').append(random.nextInt(1000)).append("0".repeat(random.nextInt(3)));
        }
        if (random.nextInt(3) == 0) {
            out.append(random.nextBoolean() ? 'e' : 'E');
            out.append(new String[] { "", "+", "-" }[random.nextInt(3)]).append(random.nextInt(500));
        }
    }

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

}
